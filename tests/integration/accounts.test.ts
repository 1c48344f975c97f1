import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, type AccountExport, MSG, paths } from '../../shared/domain';
import { mailDir } from '../../server/mail/mailer';
import { http, newUser, secondSession, sessionToken, signedInUser, testClient } from '../support/client';
import { counterMismatches } from '../support/counters';
import { describeEachDatabase } from '../support/each-database';
import { type ParsedMail, parseEml } from '../support/eml';
import { waitForOutboxIdle } from '../support/outbox';
import { createCollection, expectFailure, failure } from '../support/supercurations';

/** A stand-in for the built web app: the server-rendered pages only need its index.html. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="en"><head><title>Supercurate</title></head><body><div id="root"></div></body></html>');

describeEachDatabase('accounts: reset, verification, sessions, export, deletion', (ctx) => {
  /** Every mail the server has sent to `address` (its outbox worker writes .eml files), oldest first. */
  async function mailsTo(address: string): Promise<ParsedMail[]> {
    await waitForOutboxIdle(ctx.server.db);
    const dir = mailDir(ctx.server.config.dataDir);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => parseEml(readFileSync(path.join(dir, f), 'utf8')))
      .filter((m) => m.header('to') === address);
  }
  /** The link of `pathPrefix` in the last mail to `address` with this subject. */
  async function linkFor(address: string, subject: string, pathPrefix: string): Promise<string> {
    const mail = (await mailsTo(address)).filter((m) => m.header('subject') === subject).at(-1);
    const m = mail?.text?.match(new RegExp(`${ctx.server.url}${pathPrefix}\\?token=[^\\s]+`));
    if (!m) throw new Error(`no ${pathPrefix} link in a mail "${subject}" to ${address}`);
    return m[0];
  }
  const resetLink = (address: string) => linkFor(address, 'Reset your Supercurate password', '/reset-password');
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
  const post = (pathname: string, body: unknown) =>
    http(`${ctx.server.url}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.server.url },
      body: JSON.stringify(body),
    });

  it('answers a reset request the same for an existing and an unknown address; only the account gets a mail', async () => {
    const user = await signedInUser(ctx.server.url);
    const unknown = newUser().email;
    const answers = [];
    for (const email of [user.input.email, unknown]) {
      const res = await post('/api/auth/request-password-reset', { email });
      answers.push({ status: res.status, body: await res.text(), cookie: res.headers.get('set-cookie') });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(200);
    expect(await mailsTo(unknown)).toEqual([]);
    const link = await resetLink(user.input.email);
    expect(link).toMatch(new RegExp(`^${ctx.server.url}/reset-password\\?token=`));
  });

  it('resets with the link once, within the hour, ending every session; the new password obeys the rules', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await secondSession(ctx.server.url, user.input);
    await user.api.requestPasswordReset(user.input.email);
    const token = tokenOf(await resetLink(user.input.email));

    // The same rules as sign-up: short, blank and common passwords are refused, and the link still works.
    await expectFailure(user.api.resetPassword(token, 'short'), 400, MSG.passwordTooShort);
    await expectFailure(user.api.resetPassword(token, 'password123'), 400, MSG.passwordCommon);
    expect(await user.api.resetPassword(token, 'a fresh secret 42')).toEqual({ status: true });
    // Every session ended, the one that asked included.
    expect(await user.api.me()).toBeNull();
    expect(await other.api.me()).toBeNull();
    // Once only.
    await expectFailure(user.api.resetPassword(token, 'another secret 43'), 400, ACCOUNT_MESSAGES.resetInvalid);
    await expectFailure(testClient(ctx.server.url).api.signIn(user.input), 401, MSG.invalidCredentials);
    await testClient(ctx.server.url).api.signIn({ email: user.input.email, password: 'a fresh secret 42' });

    // A link past its hour (its expiry moved into the past) no longer works.
    await user.api.requestPasswordReset(user.input.email);
    const late = tokenOf(await resetLink(user.input.email));
    expect(late).not.toBe(token);
    const row = await ctx.server.db.kysely
      .selectFrom('verification')
      .select(['expiresAt'])
      .where('identifier', '=', `reset-password:${late}`)
      .executeTakeFirstOrThrow();
    const lifetime = new Date(row.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    await ctx.server.db.kysely
      .updateTable('verification')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('identifier', '=', `reset-password:${late}`)
      .execute();
    await expectFailure(user.api.resetPassword(late, 'too late secret 44'), 400, ACCOUNT_MESSAGES.resetInvalid);
    await testClient(ctx.server.url).api.signIn({ email: user.input.email, password: 'a fresh secret 42' });
  });

  it('changes the password with the current one: this session stays, the others end', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await secondSession(ctx.server.url, user.input);
    await expectFailure(user.api.changePassword('not my password', 'a changed secret 7'), 400, MSG.currentPasswordWrong);
    expect(await other.api.me()).not.toBeNull();
    await user.api.changePassword(user.input.password, 'a changed secret 7');
    expect((await user.api.me())?.id).toBe(user.me.id);
    expect(await other.api.me()).toBeNull();
    await testClient(ctx.server.url).api.signIn({ email: user.input.email, password: 'a changed secret 7' });
  });

  it('mails a new account a verification link and nothing else until it is verified; a banner may resend it', async () => {
    const user = await signedInUser(ctx.server.url);
    expect(user.me).toMatchObject({ email: user.input.email, emailVerified: false });
    const verification = await linkFor(user.input.email, 'Verify your Supercurate e-mail address', '/api/auth/verify-email');

    // Activity that e-mails people (a public collection with a confirmed subscriber, a new resource)
    // sends the unverified account nothing: only its verification and password-reset mails exist.
    const c = await createCollection(user, { isPublic: true });
    await user.api.addResource(c.id, { link: { title: 'News', description: 'd', url: 'https://example.com/news' } });
    await user.api.resendVerification(user.input.email);
    const kinds = await ctx.server.db.kysely.selectFrom('mail_outbox').select('kind').where('recipient', '=', user.input.email).execute();
    expect(kinds.map((k) => k.kind)).toEqual(['verification', 'verification']);
    // Another account's address can't be asked for by a signed-in user.
    await expectFailure(user.api.resendVerification(newUser().email), 400, ACCOUNT_MESSAGES.verificationFailed);

    // Opening the link verifies the address and ends on the app's page; a second time changes nothing.
    const res = await http(verification, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(paths.emailVerified);
    expect((await user.api.me())?.emailVerified).toBe(true);
    await expectFailure(user.api.resendVerification(user.input.email), 400, ACCOUNT_MESSAGES.alreadyVerified);
    // A forged or damaged token ends on the same page with the reason.
    const bad = await http(`${ctx.server.url}/api/auth/verify-email?token=${tokenOf(verification)}x`, { redirect: 'manual' });
    expect(bad.headers.get('location')).toBe(`${paths.emailVerified}?error=INVALID_TOKEN`);
  });

  it('changes the e-mail address only once the new address confirms it', async () => {
    const user = await signedInUser(ctx.server.url);
    const next = newUser().email;
    expect(await user.api.changeEmail(next)).toEqual({ status: true });
    expect((await user.api.me())?.email).toBe(user.input.email);
    const link = await linkFor(next, 'Confirm your new Supercurate e-mail address', '/api/auth/verify-email');
    expect((await http(link, { redirect: 'manual' })).headers.get('location')).toBe(paths.emailVerified);
    expect((await user.api.me())?.email).toBe(next);
    await testClient(ctx.server.url).api.signIn({ email: next, password: user.input.password });
    // Nothing went to the old address but its own verification mail.
    expect((await mailsTo(user.input.email)).map((m) => m.header('subject'))).toEqual(['Verify your Supercurate e-mail address']);
  });

  it('lists my sessions and signs out one of them, or all the others', async () => {
    const user = await signedInUser(ctx.server.url);
    const second = await secondSession(ctx.server.url, user.input);
    const third = await secondSession(ctx.server.url, user.input);
    const stranger = await signedInUser(ctx.server.url);
    const sessions = await user.api.listSessions();
    expect(sessions.map((s) => s.token).sort()).toEqual([sessionToken(user), sessionToken(second), sessionToken(third)].sort());
    expect(sessions[0]).toMatchObject({ userAgent: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(sessions.filter((s) => s.current).map((s) => s.token)).toEqual([sessionToken(user)]);

    // Someone else's session can't be ended by its token.
    await stranger.api.revokeSession(sessionToken(second));
    expect(await second.api.me()).not.toBeNull();

    await user.api.revokeSession(sessionToken(second));
    expect(await second.api.me()).toBeNull();
    expect(await third.api.me()).not.toBeNull();

    await user.api.revokeOtherSessions();
    expect(await third.api.me()).toBeNull();
    expect((await user.api.me())?.id).toBe(user.me.id);
    expect((await user.api.listSessions()).map((s) => s.token)).toEqual([sessionToken(user)]);
    await expectFailure(testClient(ctx.server.url).api.listSessions(), 401, ACCOUNT_MESSAGES.sessionsFailed);
  });

  it('exports my data as one JSON file: profile, links (private ones too), topics, collections, likes, subscriptions', async () => {
    const user = await signedInUser(ctx.server.url, 'Exporting Ella');
    const friend = await signedInUser(ctx.server.url, 'Friend Fred');
    const [topic] = (await user.api.listTopics()).slice(0, 1);
    const privateCollection = await createCollection(user, { title: 'Secret stash' });
    const hidden = await user.api.createLink({
      title: 'Private Link Title 123',
      description: 'only mine',
      url: 'https://example.com/private',
      supercurationIds: [privateCollection.id],
      inMainFeed: false,
      topicIds: topic ? [topic.id] : [],
    });
    const category = await user.api.createTagCategory(privateCollection.id);
    await user.api.addTag(privateCollection.id, category.id, 'gem');
    await user.api.setResourceTags(privateCollection.id, hidden.id, ['gem']);
    const theirs = await friend.api.createLink({ title: 'Friend post', description: 'd', url: 'https://example.com/f' });
    await user.api.toggleLike(theirs.id);
    await user.api.subscribe(friend.me.id);
    await friend.api.subscribe(user.me.id);
    const fediverseUsername = `ella_${crypto.randomUUID().slice(0, 8)}`;
    await user.api.updateProfile(user.me.id, { name: 'Exporting Ella', fediverseUsername });

    const res = await user.fetch(user.api.accountExportUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="supercurate-export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const data = (await res.json()) as AccountExport;
    expect(data.profile).toMatchObject({ id: user.me.id, name: 'Exporting Ella', email: user.input.email, fediverseUsername });
    expect(data.links).toEqual([
      expect.objectContaining({ id: hidden.id, title: 'Private Link Title 123', inMainFeed: false, topics: topic ? [topic.name] : [] }),
    ]);
    expect(data.topics.length).toBeGreaterThan(0);
    expect(data.collections).toEqual([
      expect.objectContaining({
        id: privateCollection.id,
        title: 'Secret stash',
        isPublic: false,
        role: 'owner',
        tagCategories: [expect.objectContaining({ id: category.id, tags: [expect.objectContaining({ name: 'gem' })] })],
        resources: [expect.objectContaining({ linkId: hidden.id, title: 'Private Link Title 123', tags: ['gem'] })],
      }),
    ]);
    expect(data.likes).toEqual([expect.objectContaining({ linkId: theirs.id, title: 'Friend post' })]);
    expect(data.subscriptions).toEqual([expect.objectContaining({ userId: friend.me.id, name: 'Friend Fred' })]);
    expect(data.subscribers).toEqual([expect.objectContaining({ userId: friend.me.id })]);
    // Only my own: anonymous asks get 401.
    expect((await http(`${ctx.server.url}/api/me/export`)).status).toBe(401);
  });

  it('deletes an account in one go: every counter still equals its rows, its pages and feeds are 404, sign-in fails', async () => {
    const gone = await signedInUser(ctx.server.url, 'Leaving Lee');
    const other = await signedInUser(ctx.server.url, 'Staying Sam');
    const fan = await signedInUser(ctx.server.url, 'Fan Fay');

    // Lee's own public collection, with a confirmed-or-not e-mail subscriber, and Sam as a collaborator.
    const mine = await createCollection(gone, { isPublic: true, title: 'Lee picks' });
    await gone.api.addCollaborator(mine.id, other.me.id);
    await testClient(ctx.server.url).api.subscribeByEmail(mine.id, 'reader@example.com');
    const ownLink = await gone.api.createLink({ title: 'Lee link', description: 'd', url: 'https://example.com/lee', supercurationIds: [mine.id] });
    // Sam's collection where Lee collaborates and added a resource; Sam's link in Lee's collection.
    const samsCollection = await createCollection(other, { isPublic: true, title: 'Sam picks' });
    await other.api.addCollaborator(samsCollection.id, gone.me.id);
    await gone.api.addResource(samsCollection.id, { link: { title: 'Lee in Sam', description: 'd', url: 'https://example.com/ls' } });
    const samsLink = await other.api.createLink({ title: 'Sam link', description: 'd', url: 'https://example.com/sam', supercurationIds: [samsCollection.id] });
    await other.api.addResource(mine.id, { linkId: samsLink.id });
    // Likes and reposts both ways, subscriptions both ways.
    await gone.api.toggleLike(samsLink.id);
    await fan.api.toggleLike(ownLink.id);
    await gone.api.repost(samsLink.id);
    const fanRepost = await fan.api.repost(ownLink.id);
    await gone.api.subscribe(other.me.id);
    await fan.api.subscribe(gone.me.id);
    expect(await counterMismatches(ctx.server.db)).toEqual([]);
    const before = await ctx.server.db.kysely.selectFrom('links').select(['id', 'likes_count', 'reposts_count']).where('id', '=', samsLink.id).executeTakeFirstOrThrow();
    expect([before.likes_count, before.reposts_count].map(Number)).toEqual([1, 1]);

    // The typed e-mail must be the account's, the password right: else nothing happens.
    await expectFailure(gone.api.deleteAccount(gone.input.password, other.input.email), 400, ACCOUNT_MESSAGES.deleteEmailMismatch);
    await expectFailure(gone.api.deleteAccount('wrong password', gone.input.email), 400, MSG.currentPasswordWrong);
    await expectFailure(testClient(ctx.server.url).api.deleteAccount('x', gone.input.email), 401, MSG.notAuthenticated);
    expect((await gone.api.me())?.id).toBe(gone.me.id);

    const session = gone.cookieHeader();
    expect(await gone.api.deleteAccount(gone.input.password, gone.input.email.toUpperCase())).toMatchObject({ success: true });

    expect(await counterMismatches(ctx.server.db)).toEqual([]);
    const k = ctx.server.db.kysely;
    const left = async (table: 'links' | 'likes' | 'topics' | 'supercurations' | 'collaborators' | 'profiles', column: 'user_id') =>
      (await k.selectFrom(table).select(column).where(column, '=', gone.me.id).execute()).length;
    for (const table of ['links', 'likes', 'topics', 'supercurations', 'collaborators', 'profiles'] as const) {
      expect([table, await left(table, 'user_id')]).toEqual([table, 0]);
    }
    expect(await k.selectFrom('user_subscriptions').select('id').where((eb) => eb.or([eb('subscriber_id', '=', gone.me.id), eb('publisher_id', '=', gone.me.id)])).execute()).toEqual([]);
    expect(await k.selectFrom('session').select('id').where('userId', '=', gone.me.id).execute()).toEqual([]);
    expect(await k.selectFrom('user').select('id').where('id', '=', gone.me.id).execute()).toEqual([]);
    expect(await k.selectFrom('email_subscribers').select('id').where('supercuration_id', '=', mine.id).execute()).toEqual([]);
    // Queued mail to its subscribers or to itself is cancelled, never sent.
    const queued = await k.selectFrom('mail_outbox').select('status').where((eb) => eb.or([eb('recipient', '=', 'reader@example.com'), eb('recipient', '=', gone.input.email)])).where('status', '=', 'queued').execute();
    expect(queued).toEqual([]);
    // What others own stays: Sam's collection (without Lee's resource), Sam's link, Fan's repost (now on its own).
    expect(await other.api.getSupercuration(samsCollection.id)).toMatchObject({ linksCount: 1, collaborators: [] });
    const after = await k.selectFrom('links').select(['likes_count', 'reposts_count']).where('id', '=', samsLink.id).executeTakeFirstOrThrow();
    expect([after.likes_count, after.reposts_count].map(Number)).toEqual([0, 0]);
    expect((await fan.api.getLink(fanRepost.id)).id).toBe(fanRepost.id);
    expect((await fan.api.me())?.subscriptionsCount).toBe(0);
    expect((await other.api.me())?.subscribersCount).toBe(0);

    // Its profile, pages and feeds: 404. Its session and password: gone.
    for (const pathname of [
      `/api/users/${gone.me.id}`,
      `/profile/${gone.me.id}`,
      `/users/${gone.me.id}/feed.xml`,
      `/supercurations/public/${mine.slug}`,
      `/supercurations/public/${mine.slug}/feed.xml`,
      `/api/supercurations/${mine.id}`,
      `/links/${ownLink.id}`,
      `/api/links/${ownLink.id}`,
    ]) {
      expect([pathname, (await http(`${ctx.server.url}${pathname}`)).status]).toEqual([pathname, 404]);
    }
    expect((await http(`${ctx.server.url}/api/me`, { headers: { cookie: session } })).status).toBe(401);
    await expectFailure(testClient(ctx.server.url).api.signIn(gone.input), 401, MSG.invalidCredentials);
    const err = await failure(gone.api.deleteAccount(gone.input.password, gone.input.email));
    expect(err.status).toBe(401);
  });
}, { WEB_DIR: webDir });
