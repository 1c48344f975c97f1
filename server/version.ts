import packageJson from '../package.json' with { type: 'json' };

/** The app's version, package.json's (bundled into dist/server.js at build time). */
export const APP_VERSION: string = packageJson.version;
