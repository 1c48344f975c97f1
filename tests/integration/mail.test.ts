import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, isTransientMailError, mailDir } from '../../server/mail/mailer';
import { renderEmail } from '../../server/mail/render';
import { parseEml } from '../support/eml';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const FROM = 'Supercurate <no-reply@sc.example>';
const UNSUBSCRIBE = 'https://sc.example/unsubscribe?token=a%2Bb&list=1';

/** A digest-like message with everything that needs escaping. */
function message(to = 'reader@example.com') {
  const bodies = renderEmail({
    heading: 'New in "Tools & <Tricks>"',
    paragraphs: ["Here's what's new since yesterday:", 'Line one\nline two'],
    items: [
      { title: '<img src=x onerror=alert(1)>', url: 'https://example.com/a?x=1&y=2', description: 'Fish & chips' },
      { title: 'No link', url: 'javascript:alert(1)' },
    ],
    action: { label: 'Open the collection', url: 'https://sc.example/supercurations/public/tools' },
    footer: 'You subscribed to Tools & Tricks on Supercurate.',
    unsubscribeUrl: UNSUBSCRIBE,
  });
  return { to, subject: 'New in Tools & Tricks — 2 resources ✨', ...bodies, unsubscribeUrl: UNSUBSCRIBE };
}

describe('mail: bodies', () => {
  it('escapes every value in the HTML part and keeps only http(s) links', () => {
    const { html, text } = message();
    expect(html).toContain('New in &quot;Tools &amp; &lt;Tricks&gt;&quot;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.com/a?x=1&amp;y=2"');
    expect(html).toContain('Line one<br>line two');
    expect(html).toContain(`href="${UNSUBSCRIBE.replace(/&/g, '&amp;')}"`);
    expect(text).toContain('- <img src=x onerror=alert(1)>\n  https://example.com/a?x=1&y=2\n  Fish & chips');
    expect(text).toContain('- No link\n');
    expect(text).not.toContain('javascript:');
    expect(text).toContain('Open the collection: https://sc.example/supercurations/public/tools');
    expect(text).toContain(`Unsubscribe: ${UNSUBSCRIBE}`);
  });
});

describe('mail: file transport (no SMTP_URL)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-mail-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes each message as an .eml file in DATA_DIR/mail/ and logs its path', async () => {
    const logged: { obj: object; msg: string }[] = [];
    const mailer = createMailer({ from: FROM, dataDir, log: { info: (obj, msg) => logged.push({ obj, msg }) } });
    expect(mailer.kind).toBe('file');
    const sent = await mailer.send({ ...message(), messageId: '<digest-1@sc.example>' });
    await mailer.send(message('second@example.com'));

    const files = readdirSync(mailDir(dataDir)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    expect(sent.file && path.dirname(sent.file)).toBe(mailDir(dataDir));
    expect(sent.messageId).toBe('<digest-1@sc.example>');
    expect(logged[0]?.obj).toMatchObject({ file: sent.file, to: 'reader@example.com' });

    const raw = readFileSync(sent.file ?? '', 'utf8');
    const mail = parseEml(raw);
    expect(mail.crlf).toBe(true);
    expect(mail.header('from')).toBe(FROM);
    expect(mail.header('to')).toBe('reader@example.com');
    expect(mail.header('subject')).toBe('New in Tools & Tricks — 2 resources ✨');
    expect(mail.header('message-id')).toBe('<digest-1@sc.example>');
    expect(mail.header('date')).toBeTruthy();
    expect(mail.header('list-unsubscribe')).toBe(`<${UNSUBSCRIBE}>`);
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.header('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain('Fish & chips');
    expect(mail.text).toContain(`Unsubscribe: ${UNSUBSCRIBE}`);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).not.toContain('<img');
  });

  it('sends no List-Unsubscribe headers without an unsubscribe URL, and refuses a non-http(s) one', async () => {
    const mailer = createMailer({ from: FROM, dataDir });
    const { html, text } = renderEmail({ heading: 'Confirm', paragraphs: ['Please confirm.'] });
    const sent = await mailer.send({ to: 'a@example.com', subject: 'Confirm', html, text });
    const mail = parseEml(readFileSync(sent.file ?? '', 'utf8'));
    expect(mail.header('list-unsubscribe')).toBeUndefined();
    expect(mail.header('list-unsubscribe-post')).toBeUndefined();
    await expect(
      mailer.send({ to: 'a@example.com', subject: 'x', html, text, unsubscribeUrl: 'javascript:alert(1)' }),
    ).rejects.toThrow(/http/);
  });

  it('keeps a header injection attempt in the subject or the URL out of the headers', async () => {
    const mailer = createMailer({ from: FROM, dataDir });
    const { html, text } = renderEmail({ heading: 'x', paragraphs: ['x'] });
    const sent = await mailer.send({
      to: 'a@example.com',
      subject: 'Hello\r\nBcc: victim@example.com',
      html,
      text,
      unsubscribeUrl: 'https://sc.example/u?t=1\r\nBcc: victim@example.com',
    });
    const mail = parseEml(readFileSync(sent.file ?? '', 'utf8'));
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.header('list-unsubscribe')).toBe('<https://sc.example/u?t=1Bcc:%20victim@example.com>');
  });
});

describe('mail: SMTP transport (SMTP_URL) against a loopback sink', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterEach(() => {
    sink.rejectRecipients = null;
  });
  afterAll(() => sink.close());

  it('delivers the same message over SMTP', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, dataDir: tmpdir() });
    expect(mailer.kind).toBe('smtp');
    try {
      await mailer.send(message());
      expect(sink.received).toHaveLength(1);
      const [got] = sink.received;
      expect(got?.from).toBe('no-reply@sc.example');
      expect(got?.to).toEqual(['reader@example.com']);
      const mail = parseEml(got?.raw ?? '');
      expect(mail.header('list-unsubscribe')).toBe(`<${UNSUBSCRIBE}>`);
      expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(mail.text).toContain('Fish & chips');
    } finally {
      await mailer.close();
    }
  });

  it('rejects with a transient error on a 4xx answer and a permanent one on 5xx', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, dataDir: tmpdir() });
    try {
      sink.rejectRecipients = '450 4.2.1 Mailbox busy, try later';
      const busy = await mailer.send(message()).catch((e: unknown) => e);
      expect(isTransientMailError(busy)).toBe(true);
      sink.rejectRecipients = '550 5.1.1 No such user';
      const unknown = await mailer.send(message()).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(Error);
      expect(isTransientMailError(unknown)).toBe(false);
    } finally {
      await mailer.close();
    }
  });

  it('reports an unreachable server as transient', async () => {
    const closed = await startSmtpSink();
    const url = closed.url;
    await closed.close();
    const mailer = createMailer({ smtpUrl: url, from: FROM, dataDir: tmpdir() });
    try {
      const err = await mailer.send(message()).catch((e: unknown) => e);
      expect(isTransientMailError(err)).toBe(true);
    } finally {
      await mailer.close();
    }
  });
});
