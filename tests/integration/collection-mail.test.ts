import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { SUPERCURATION_MESSAGES as M } from '../../shared/domain';
import { EMAIL_PAGE_TEXTS } from '../../server/http/email-subscription-routes';
import { runDigestOnce } from '../../server/mail/digest';
import { createMailer, mailDir } from '../../server/mail/mailer';
import { CONFIRMATIONS_PER_ADDRESS_PER_DAY, subscribeByEmail } from '../../server/services/email-subscriptions';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ParsedMail, parseEml } from '../support/eml';
import { drainOutbox, waitForOutboxIdle } from '../support/outbox';
import { createCollection } from '../support/supercurations';

const INTERVAL = 3600;

describeEachDatabase('collection e-mail: double opt-in, digests, one-click unsubscribe', (ctx) => {
  const seen = new Set<string>();
  /** The .eml files written since the last call, parsed, once the outbox has sent what was due. */
  async function newMails(): Promise<ParsedMail[]> {
    const d = deps();
    await drainOutbox({ db: d.db, mailer: d.mailer, options: { maxAttempts: 3, retrySeconds: 60, pollSeconds: 10 } });
    await waitForOutboxIdle(ctx.server.db);
    const dir = mailDir(ctx.server.config.dataDir);
    if (!existsSync(dir)) return [];
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml') && !seen.has(f)).sort();
    for (const f of files) seen.add(f);
    return files.map((f) => parseEml(readFileSync(path.join(dir, f), 'utf8')));
  }
  const deps = () => ({
    db: ctx.server.db,
    mailer: createMailer({ from: ctx.server.config.mailFrom, dataDir: ctx.server.config.dataDir }),
    publicUrl: ctx.server.url,
    secret: ctx.server.config.authSecret,
    intervalSeconds: INTERVAL,
    // The test sends with drainOutbox (newMails) instead.
    wakeOutbox: () => {},
  });
  /** Moves a collection's digest window (instead of a clock: resources get real timestamps). */
  const setLastSent = (id: string, at: number) =>
    ctx.server.db.kysely.updateTable('digest_state').set({ last_sent_at: new Date(at).toISOString() }).where('supercuration_id', '=', id).execute();
  /** Past the digest's settle time of resources just added. */
  const soon = () => new Date(Date.now() + 10_000);
  const linkIn = (mail: ParsedMail, pathPrefix: string) => {
    const m = mail.text?.match(new RegExp(`${ctx.server.url}${pathPrefix}\\?token=[^\\s]+`));
    if (!m) throw new Error(`no ${pathPrefix} link in ${mail.text}`);
    return m[0];
  };

  it('confirms by the mailed link, sends one digest per window to confirmed subscribers, unsubscribes in one click', async () => {
    const owner = await signedInUser(ctx.server.url, 'Cora Curator');
    // Signed up before the first newMails(): its verification mail is not one of the mails counted below.
    const stranger = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true, title: 'Tools & Tricks' });
    const visitor = testClient(ctx.server.url).api;
    await newMails();

    expect(await visitor.subscribeByEmail(c.id, 'reader@example.com')).toEqual({ message: M.subscribeThanks });
    expect(await visitor.subscribeByEmail(c.id, 'lurker@example.com')).toEqual({ message: M.subscribeThanks });
    const confirmations = await newMails();
    expect(confirmations.map((m) => m.header('to'))).toEqual(expect.arrayContaining(['reader@example.com', 'lurker@example.com']));
    const mail = confirmations.find((m) => m.header('to') === 'reader@example.com');
    if (!mail) throw new Error('no confirmation mail');
    expect(mail.header('subject')).toBe('Confirm your subscription to Tools & Tricks');
    expect(mail.header('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/subscriptions\/unsubscribe\?token=.+>$/);
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    // Re-subscribing within the resend window: same answer, no new mail, no new row.
    expect(await visitor.subscribeByEmail(c.id, 'reader@example.com')).toEqual({ message: M.subscribeThanks });
    expect(await newMails()).toHaveLength(0);
    const rows = await ctx.server.db.kysely.selectFrom('email_subscribers').selectAll().where('supercuration_id', '=', c.id).execute();
    expect(rows).toHaveLength(2);
    const confirmUrl = linkIn(mail, '/subscriptions/confirm');
    const token = new URL(confirmUrl).searchParams.get('token') ?? '';
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    const confirmed = await http(confirmUrl);
    expect(confirmed.status).toBe(200);
    const html = await confirmed.text();
    expect(html).toContain(EMAIL_PAGE_TEXTS.confirmed);
    expect(html).toContain('Tools &amp; Tricks');
    expect(confirmed.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await http(confirmUrl)).status).toBe(200); // a second click is harmless
    expect((await http(`${ctx.server.url}/subscriptions/confirm?token=nope`)).status).toBe(404);

    // Two new resources (one with a script URL, never a link in the mail).
    await owner.api.addResource(c.id, { link: { title: 'First <b>find</b>', description: 'a', url: 'https://example.com/first?a=1&b=2' } });
    await owner.api.addResource(c.id, { link: { title: 'A thought', description: 'no url' } });
    // A third the link checker has found broken by the time of sending: left out.
    await owner.api.addResource(c.id, { link: { title: 'Gone page', description: 'd', url: 'https://example.com/gone' } });
    await ctx.server.db.kysely.updateTable('links').set({ broken_at: new Date().toISOString() }).where('url', '=', 'https://example.com/gone').execute();
    const later = Date.now() + INTERVAL * 1000 + 10_000;
    const first = await runDigestOnce(deps(), new Date(later));
    expect(first).toEqual({ collections: 1, mails: 1 });
    const digests = await newMails();
    expect(digests).toHaveLength(1); // the unconfirmed lurker gets nothing
    const digest = digests[0] as ParsedMail;
    expect(digest.header('to')).toBe('reader@example.com');
    expect(digest.header('subject')).toBe('New in Tools & Tricks: 2 new resources');
    const text = digest.text?.replace(/\r\n/g, '\n');
    expect(text).toContain('- First <b>find</b>\n  https://example.com/first?a=1&b=2');
    expect(text).toContain('- A thought\n');
    expect(text).not.toContain('Gone page');
    expect(text).toContain(`${ctx.server.url}/supercurations/public/${c.slug}`);
    expect(digest.html).toContain('First &lt;b&gt;find&lt;/b&gt;');
    expect(digest.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = linkIn(digest, '/subscriptions/unsubscribe');
    expect(digest.header('list-unsubscribe')).toBe(`<${unsubscribeUrl}>`);

    // Within the window: nothing, even with a new resource.
    await owner.api.addResource(c.id, { link: { title: 'Third', description: 'c', url: 'https://example.com/third' } });
    await setLastSent(c.id, Date.now() - 60_000);
    expect(await runDigestOnce(deps(), soon())).toEqual({ collections: 0, mails: 0 });
    expect(await newMails()).toHaveLength(0);

    // The owner sees the confirmed subscriber only.
    const groups = await owner.api.myEmailSubscribers();
    expect(groups).toEqual([{ supercurationId: c.id, title: 'Tools & Tricks', subscribers: [{ email: 'reader@example.com', confirmedAt: expect.any(String) }] }]);
    expect(await stranger.api.myEmailSubscribers()).toEqual([]);

    // GET shows a button and removes nothing; the one-click POST (no cookie, no Origin) removes the row.
    const shown = await http(unsubscribeUrl);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('<form method="post"');
    expect(await ctx.server.db.kysely.selectFrom('email_subscribers').select('id').where('email', '=', 'reader@example.com').execute()).toHaveLength(1);
    const posted = await http(unsubscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain(EMAIL_PAGE_TEXTS.unsubscribed);
    expect(await ctx.server.db.kysely.selectFrom('email_subscribers').select('id').where('email', '=', 'reader@example.com').execute()).toHaveLength(0);
    expect((await http(`${unsubscribeUrl}x`, { method: 'POST' })).status).toBe(400);

    // The window is over and 'Third' is news, but nobody confirmed is left.
    await setLastSent(c.id, Date.now() - INTERVAL * 1000 - 60_000);
    expect(await runDigestOnce(deps(), soon())).toEqual({ collections: 1, mails: 0 });
    expect(await newMails()).toHaveLength(0);
  });

  it('two runs at once send a digest once', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true });
    await subscribeByEmail(deps(), c.id, 'twice@example.com');
    const confirmation = (await newMails()).find((m) => m.header('to') === 'twice@example.com');
    if (!confirmation) throw new Error('no confirmation');
    expect((await http(linkIn(confirmation, '/subscriptions/confirm'))).status).toBe(200);
    await owner.api.addResource(c.id, { link: { title: 'One', description: 'x', url: 'https://example.com/one' } });
    const at = new Date(Date.now() + INTERVAL * 1000 + 10_000);
    const runs = await Promise.all([runDigestOnce(deps(), at), runDigestOnce(deps(), at), runDigestOnce(deps(), at)]);
    expect(runs.reduce((n, r) => n + r.mails, 0)).toBe(1);
    expect((await newMails()).filter((m) => m.header('to') === 'twice@example.com')).toHaveLength(1);
  });

  it('a digest leaves out a repost of a link its subscribers may not see', async () => {
    const author = await signedInUser(ctx.server.url);
    const curator = await signedInUser(ctx.server.url);
    const team = await createCollection(author, { isPublic: false });
    await author.api.addCollaborator(team.id, curator.me.id);
    const secret = await author.api.createLink({
      title: 'Secret plans',
      description: 'team only',
      url: 'https://example.com/secret-plans',
      supercurationIds: [team.id],
      inMainFeed: false,
    });
    const copy = await curator.api.repost(secret.id);
    const c = await createCollection(curator, { isPublic: true });
    await subscribeByEmail(deps(), c.id, 'watcher@example.com');
    const confirmation = (await newMails()).find((m) => m.header('to') === 'watcher@example.com');
    if (!confirmation) throw new Error('no confirmation');
    expect((await http(linkIn(confirmation, '/subscriptions/confirm'))).status).toBe(200);
    await curator.api.addResource(c.id, { linkId: copy.id });
    await curator.api.addResource(c.id, { link: { title: 'Open find', description: 'x', url: 'https://example.com/open-find' } });
    expect(await runDigestOnce(deps(), new Date(Date.now() + INTERVAL * 1000 + 10_000))).toEqual({ collections: 1, mails: 1 });
    const [digest] = (await newMails()).filter((m) => m.header('to') === 'watcher@example.com');
    expect(digest?.header('subject')).toMatch(/: 1 new resource$/);
    expect(digest?.text).toContain('Open find');
    expect(digest?.text).not.toContain('Secret plans');
    expect(digest?.html).not.toContain('Secret plans');
  });

  it("claims a collection's digest and queues its mails in one transaction: a failure in between loses nothing", async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true, title: 'Atomic' });
    await subscribeByEmail(deps(), c.id, 'atomic@example.com');
    const confirmation = (await newMails()).find((m) => m.header('to') === 'atomic@example.com');
    if (!confirmation) throw new Error('no confirmation');
    expect((await http(linkIn(confirmation, '/subscriptions/confirm'))).status).toBe(200);
    await owner.api.addResource(c.id, { link: { title: 'Kept', description: 'x', url: 'https://example.com/kept' } });
    const lastSent = () =>
      ctx.server.db.kysely.selectFrom('digest_state').select('last_sent_at').where('supercuration_id', '=', c.id).executeTakeFirstOrThrow();
    const before = await lastSent();

    // The outbox refuses every insert (as a crash between the claim and the queueing would end it).
    const k = ctx.server.db.kysely;
    if (ctx.server.db.dialect === 'sqlite') {
      await sql`create trigger outbox_down before insert on mail_outbox begin select raise(abort, 'outbox down'); end`.execute(k);
    } else {
      await sql`create function outbox_down() returns trigger language plpgsql as $$ begin raise exception 'outbox down'; end $$`.execute(k);
      await sql`create trigger outbox_down before insert on mail_outbox for each row execute function outbox_down()`.execute(k);
    }
    const at = new Date(Date.now() + INTERVAL * 1000 + 10_000);
    try {
      await expect(runDigestOnce(deps(), at)).rejects.toThrow(/outbox down/);
    } finally {
      await sql`drop trigger outbox_down${ctx.server.db.dialect === 'postgres' ? sql` on mail_outbox` : sql``}`.execute(k);
      if (ctx.server.db.dialect === 'postgres') await sql`drop function outbox_down()`.execute(k);
    }
    // The claim was rolled back with the failed queueing: the collection is still due.
    expect(await lastSent()).toEqual(before);
    expect(await runDigestOnce(deps(), at)).toEqual({ collections: 1, mails: 1 });
    expect((await newMails()).map((m) => [m.header('to'), m.header('subject')])).toEqual([['atomic@example.com', 'New in Atomic: 1 new resource']]);
  });

  it(`sends at most ${CONFIRMATIONS_PER_ADDRESS_PER_DAY} confirmation mails per address a day, across collections`, async () => {
    const owner = await signedInUser(ctx.server.url);
    await newMails();
    const start = new Date();
    for (let i = 0; i < CONFIRMATIONS_PER_ADDRESS_PER_DAY + 2; i++) {
      const c = await createCollection(owner, { isPublic: true });
      expect(await subscribeByEmail(deps(), c.id, 'victim@example.com', start)).toEqual({ message: M.subscribeThanks });
    }
    expect((await newMails()).filter((m) => m.header('to') === 'victim@example.com')).toHaveLength(CONFIRMATIONS_PER_ADDRESS_PER_DAY);
    // A day later the address may get one again (re-subscribing re-sends with a new token).
    const c = await createCollection(owner, { isPublic: true });
    await subscribeByEmail(deps(), c.id, 'victim@example.com', new Date(start.getTime() + 25 * 3600_000));
    expect((await newMails()).filter((m) => m.header('to') === 'victim@example.com')).toHaveLength(1);
  });
});
