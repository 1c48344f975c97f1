import net from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent after DATA (dot-unstuffed, CRLF line ends). */
  raw: string;
}

/** The Message-ID header of a received message (`<…>`), or undefined. */
export const messageIdOf = (mail: ReceivedMail): string | undefined => /^message-id:[ \t]*(<[^>\r\n]*>)/im.exec(mail.raw)?.[1];

export interface SmtpSink {
  /** smtp://127.0.0.1:PORT */
  url: string;
  received: ReceivedMail[];
  /** Answer RCPT TO with this reply (e.g. '450 4.2.1 Try later') until it is set back to null. */
  rejectRecipients: string | null;
  /**
   * While true, a message's end of DATA gets no answer: the message waits in `held`, not accepted
   * (a client that goes away then has sent nothing), until release().
   */
  holdAccepts: boolean;
  /** Messages waiting for the answer to their DATA. */
  held: ReceivedMail[];
  /** Accepts the held messages (250), resolved once the answers are written to their sockets. */
  release(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A minimal SMTP server on loopback that accepts every message and keeps it in memory: enough
 * for nodemailer's plain (no TLS, no AUTH) SMTP client. Not a mail server: nothing is relayed.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const waiting = new Map<ReceivedMail, net.Socket>();
  const accepted = '250 2.0.0 OK queued\r\n';
  const sink: SmtpSink = {
    url: '',
    received,
    rejectRecipients: null,
    holdAccepts: false,
    get held() {
      return [...waiting.keys()];
    },
    release: async () => {
      const answers = [...waiting].map(
        ([mail, socket]) =>
          new Promise<void>((resolve, reject) => {
            received.push(mail);
            socket.write(accepted, (err) => (err ? reject(err) : resolve()));
          }),
      );
      waiting.clear();
      await Promise.all(answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      for (const [mail, from] of waiting) if (from === socket) waiting.delete(mail);
    });
    socket.on('error', () => {});
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 localhost ESMTP test sink');

    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let eol: number;
      while ((eol = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const mail = { from, to, raw: data.join('\r\n') + '\r\n' };
            data = [];
            if (sink.holdAccepts) waiting.set(mail, socket);
            else {
              received.push(mail);
              socket.write(accepted);
            }
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-localhost');
          reply('250-8BITMIME');
          reply('250 SMTPUTF8');
        } else if (verb === 'HELO') reply('250 localhost');
        else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          if (sink.rejectRecipients) reply(sink.rejectRecipients);
          else {
            to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 OK');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          from = '';
          to = [];
          reply('250 2.0.0 OK');
        } else if (verb === 'NOOP') reply('250 2.0.0 OK');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not implemented');
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  return sink;
}
