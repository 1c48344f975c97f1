// Preloaded by tests into the processes of `npm start` (NODE_OPTIONS=--import=...), acting only in
// the server (dist/server.js): SIGUSR2 makes it throw an uncaught exception, SIGHUP leaves a
// promise rejection unhandled. The server's own handlers and its supervisor do the rest.
if (process.argv[1]?.endsWith('server.js')) {
  process.on('SIGUSR2', () => {
    throw new Error('test: uncaught exception');
  });
  process.on('SIGHUP', () => {
    void Promise.reject(new Error('test: unhandled rejection'));
  });
}
