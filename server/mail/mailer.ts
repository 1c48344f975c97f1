import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';

/** One e-mail to one recipient. Bodies come from renderEmail() (server/mail/render.ts), already escaped. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * One-click unsubscribe URL (absolute http(s)). The message then carries `List-Unsubscribe: <url>`
   * and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 2369, RFC 8058): the URL must
   * unsubscribe on a POST without asking anything.
   */
  unsubscribeUrl?: string;
  /** A fixed Message-ID (`<id@host>`), so that a retried send is recognisable as the same message. */
  messageId?: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file written, with the file transport. */
  file?: string;
}

export interface Mailer {
  /** 'smtp' when SMTP_URL is set, else 'file' (DATA_DIR/mail/*.eml). */
  readonly kind: 'smtp' | 'file';
  /** Sends (or writes) the message; rejects when the SMTP server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<SentMail>;
  /** Closes pooled SMTP connections. */
  close(): Promise<void>;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (SMTP_URL); unset writes .eml files instead. */
  smtpUrl?: string;
  /** The sender (MAIL_FROM), e.g. 'Supercurate <no-reply@example.com>'. */
  from: string;
  /** DATA_DIR: files go to DATA_DIR/mail/. */
  dataDir: string;
  log?: { info(obj: object, msg: string): void };
}

/** The mail directory of the file transport. */
export const mailDir = (dataDir: string) => path.join(dataDir, 'mail');

/** The absolute http(s) URL, or an error: a header value must not carry anything else. */
function unsubscribeHeaderUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`unsubscribe URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('unsubscribe URL must be http(s)');
  // URL serialisation percent-encodes spaces, CR, LF, < and >: nothing can break out of the header.
  return parsed.toString();
}

/** nodemailer's message options for ours: both bodies, and the RFC 8058 headers when there is an unsubscribe URL. */
export function mailOptions(from: string, message: MailMessage): SendMailOptions {
  const headers: Record<string, { prepared: true; value: string }> = {};
  if (message.unsubscribeUrl) {
    headers['List-Unsubscribe'] = { prepared: true, value: `<${unsubscribeHeaderUrl(message.unsubscribeUrl)}>` };
    headers['List-Unsubscribe-Post'] = { prepared: true, value: 'List-Unsubscribe=One-Click' };
  }
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers,
    ...(message.messageId ? { messageId: message.messageId } : {}),
  };
}

/**
 * The mailer of SMTP_URL, or, with no SMTP configured, one that writes each message as an .eml
 * file under DATA_DIR/mail/ and logs its path (so a newcomer sees the mail without a mail server).
 * nodemailer is loaded on the first send: an idle server does not pay for it.
 */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : fileMailer(options);
}

function smtpMailer(smtpUrl: string, { from }: MailerOptions): Mailer {
  let transport: Promise<Transporter> | undefined;
  const open = () => {
    transport ??= import('nodemailer').then((nodemailer) =>
      // A small pool: a digest to many subscribers reuses connections instead of one per message.
      // Bounded timeouts: a send must end well within the outbox lease (server/mail/outbox.ts).
      nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: 3,
        maxMessages: 100,
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      }),
    );
    return transport;
  };
  return {
    kind: 'smtp',
    async send(message) {
      const info = await (await open()).sendMail(mailOptions(from, message));
      return { messageId: String(info.messageId) };
    },
    async close() {
      if (transport) (await transport).close();
      transport = undefined;
    },
  };
}

function fileMailer({ from, dataDir, log }: MailerOptions): Mailer {
  const dir = mailDir(dataDir);
  let transport: Promise<Transporter> | undefined;
  const open = () => {
    transport ??= import('nodemailer').then((nodemailer) =>
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
    );
    return transport;
  };
  return {
    kind: 'file',
    async send(message) {
      const info = await (await open()).sendMail(mailOptions(from, message));
      const raw = info.message as Buffer;
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(dir, name);
      // Written under a temporary name and renamed: a reader never sees half a message.
      const partial = `${file}.partial`;
      await writeFile(partial, raw, { mode: 0o600 });
      await rename(partial, file);
      log?.info({ file, to: message.to, subject: message.subject }, 'e-mail written to file (no SMTP_URL set)');
      return { messageId: String(info.messageId), file };
    },
    async close() {},
  };
}

/**
 * Whether a failed send is worth retrying later (for the outbox): the server answered 4xx, or it
 * could not be reached or timed out. A 5xx answer (unknown mailbox, refused content) is permanent.
 */
export function isTransientMailError(err: unknown): boolean {
  const e = err as { responseCode?: number; code?: string } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(e.code ?? '');
}
