import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { LINK_MESSAGES, MSG, SUBSCRIBERS_PAGE_SIZE, SUBSCRIPTION_MESSAGES, type Subscriber } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/** Users straight into the database (as sign-up leaves them, minus a password), with a profile each. */
async function insertUsers(db: Db, users: { name: string; email: string }[]): Promise<string[]> {
  const now = new Date().toISOString();
  const ids = users.map(() => randomUUID());
  await db.kysely
    .insertInto('user')
    .values(
      users.map((u, i) => ({
        id: ids[i] as string,
        name: u.name,
        email: u.email,
        emailVerified: db.dialect === 'sqlite' ? 0 : false,
        image: null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();
  await db.kysely
    .insertInto('profiles')
    .values(ids.map((user_id) => ({ user_id, updated_at: now })))
    .execute();
  return ids;
}

/** Subscriptions straight into the database, with the publisher's counter set to match. */
async function insertSubscriptions(db: Db, publisherId: string, rows: { subscriberId: string; createdAt: string }[]) {
  await db.kysely
    .insertInto('user_subscriptions')
    .values(
      rows.map((r) => ({
        id: randomUUID(),
        subscriber_id: r.subscriberId,
        publisher_id: publisherId,
        created_at: r.createdAt,
      })),
    )
    .execute();
  await db.kysely
    .updateTable('profiles')
    .set({ subscribers_count: rows.length })
    .where('user_id', '=', publisherId)
    .execute();
}

/** Every user's two counters next to the rows they count. */
async function countersAndRows(db: Db, userIds: string[]) {
  const profiles = await db.kysely
    .selectFrom('profiles')
    .select(['user_id', 'subscribers_count', 'subscriptions_count'])
    .where('user_id', 'in', userIds)
    .execute();
  const rows = await db.kysely.selectFrom('user_subscriptions').select(['subscriber_id', 'publisher_id']).execute();
  return userIds.map((id) => {
    const p = profiles.find((r) => r.user_id === id);
    return {
      id,
      subscribers: [Number(p?.subscribers_count), rows.filter((r) => r.publisher_id === id).length],
      subscriptions: [Number(p?.subscriptions_count), rows.filter((r) => r.subscriber_id === id).length],
    };
  });
}

async function allPages(api: ReturnType<typeof testClient>['api']): Promise<Subscriber[]> {
  const items: Subscriber[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard += 1) {
    const page = await api.listSubscribers(cursor);
    items.push(...page.items);
    if (!page.hasMore || !page.nextCursor) return items;
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

describeEachDatabase('following: subscribe and unsubscribe', (ctx) => {
  it('subscribes: the record and both counters change together; the profile says isSubscribed', async () => {
    const reader = await signedInUser(ctx.server.url, 'Reader');
    const curator = await signedInUser(ctx.server.url, 'Curator');
    expect((await reader.api.getUser(curator.me.id)).isSubscribed).toBe(false);

    const state = await reader.api.subscribe(curator.me.id);
    expect(state).toEqual({ isSubscribed: true, subscribersCount: 1, subscriptionsCount: 1 });
    expect(await reader.api.getUser(curator.me.id)).toMatchObject({ isSubscribed: true, subscribersCount: 1 });
    expect(await reader.api.me()).toMatchObject({ subscriptionsCount: 1, subscribersCount: 0 });
    expect(await curator.api.me()).toMatchObject({ subscriptionsCount: 0, subscribersCount: 1 });

    const after = await reader.api.unsubscribe(curator.me.id);
    expect(after).toEqual({ isSubscribed: false, subscribersCount: 0, subscriptionsCount: 0 });
    expect(await reader.api.getUser(curator.me.id)).toMatchObject({ isSubscribed: false, subscribersCount: 0 });
    expect(await curator.api.me()).toMatchObject({ subscribersCount: 0 });
  });

  it('is idempotent: replays and double clicks count once; unsubscribing twice never goes below 0', async () => {
    const reader = await signedInUser(ctx.server.url, 'Eager Reader');
    const curator = await signedInUser(ctx.server.url, 'Popular Curator');
    await reader.api.subscribe(curator.me.id);
    expect(await reader.api.subscribe(curator.me.id)).toEqual({
      isSubscribed: true,
      subscribersCount: 1,
      subscriptionsCount: 1,
    });
    await Promise.all(Array.from({ length: 6 }, () => reader.api.subscribe(curator.me.id)));
    expect(await curator.api.me()).toMatchObject({ subscribersCount: 1 });

    await Promise.all(Array.from({ length: 6 }, () => reader.api.unsubscribe(curator.me.id)));
    expect(await reader.api.unsubscribe(curator.me.id)).toEqual({
      isSubscribed: false,
      subscribersCount: 0,
      subscriptionsCount: 0,
    });
    expect(await countersAndRows(ctx.server.db, [reader.me.id, curator.me.id])).toEqual([
      { id: reader.me.id, subscribers: [0, 0], subscriptions: [0, 0] },
      { id: curator.me.id, subscribers: [0, 0], subscriptions: [0, 0] },
    ]);
  });

  it("visitors get 'You must be logged in to subscribe' / '... to unsubscribe' and change nothing", async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const visitor = testClient(ctx.server.url).api;
    const sub = await failure(visitor.subscribe(curator.me.id));
    expect([sub.status, sub.message]).toEqual([401, SUBSCRIPTION_MESSAGES.mustLogInToSubscribe]);
    const unsub = await failure(visitor.unsubscribe(curator.me.id));
    expect([unsub.status, unsub.message]).toEqual([401, SUBSCRIPTION_MESSAGES.mustLogInToUnsubscribe]);
    // A forged or expired cookie is no better.
    const forged = await http(`${ctx.server.url}/api/users/${curator.me.id}/subscription`, {
      method: 'POST',
      headers: { cookie: 'better-auth.session_token=abc.def', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(forged.status).toBe(401);
    const seen = await visitor.getUser(curator.me.id);
    expect(seen.subscribersCount).toBe(0);
    expect(seen).not.toHaveProperty('isSubscribed');
  });

  it('nobody subscribes to themself (400), and the own profile has no isSubscribed', async () => {
    const user = await signedInUser(ctx.server.url, 'Narcissus');
    const self = await failure(user.api.subscribe(user.me.id));
    expect([self.status, self.message]).toEqual([400, SUBSCRIPTION_MESSAGES.cannotSubscribeToSelf]);
    const selfOff = await failure(user.api.unsubscribe(user.me.id));
    expect([selfOff.status, selfOff.message]).toEqual([400, SUBSCRIPTION_MESSAGES.cannotSubscribeToSelf]);
    expect(await user.api.me()).toMatchObject({ subscribersCount: 0, subscriptionsCount: 0 });
    expect(await user.api.getUser(user.me.id)).not.toHaveProperty('isSubscribed');
    expect(await user.api.me()).not.toHaveProperty('isSubscribed');
  });

  it("answers 'User not found' (404) for an unknown user", async () => {
    const user = await signedInUser(ctx.server.url);
    const sub = await failure(user.api.subscribe('no-such-user'));
    expect([sub.status, sub.message]).toEqual([404, MSG.userNotFound]);
    const unsub = await failure(user.api.unsubscribe('no-such-user'));
    expect([unsub.status, unsub.message]).toEqual([404, MSG.userNotFound]);
    expect(await user.api.me()).toMatchObject({ subscriptionsCount: 0 });
  });

  it('refuses a cookie-authenticated subscribe sent from another origin (CSRF)', async () => {
    const reader = await signedInUser(ctx.server.url);
    const curator = await signedInUser(ctx.server.url);
    const res = await http(`${ctx.server.url}/api/users/${curator.me.id}/subscription`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: reader.cookieHeader(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(await curator.api.me()).toMatchObject({ subscribersCount: 0 });
  });

  it('keeps both counters equal to the rows under concurrent subscribe/unsubscribe from many users', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, (_, i) => signedInUser(ctx.server.url, `Racer ${i}`)));
    const ids = users.map((u) => u.me.id);
    // Every user fires 30 random operations at the others at once, mutual pairs (A->B while B->A) included.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const operations = users.flatMap((u, i) =>
      Array.from({ length: 30 }, () => {
        const target = ids[(i + 1 + Math.floor(random() * (ids.length - 1))) % ids.length] as string;
        return random() < 0.6 ? u.api.subscribe(target) : u.api.unsubscribe(target);
      }),
    );
    const results = await Promise.allSettled(operations);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    for (const row of await countersAndRows(ctx.server.db, ids)) {
      expect(row.subscribers[0], `subscribers_count of ${row.id}`).toBe(row.subscribers[1]);
      expect(row.subscriptions[0], `subscriptions_count of ${row.id}`).toBe(row.subscriptions[1]);
    }
    // The API agrees with the rows too.
    for (const u of users) {
      const me = await u.api.me();
      const rows = (await countersAndRows(ctx.server.db, [u.me.id]))[0];
      expect([me?.subscribersCount, me?.subscriptionsCount]).toEqual([rows?.subscribers[1], rows?.subscriptions[1]]);
    }
  });
});

describeEachDatabase('following: Subscriber Dashboard', (ctx) => {
  it('lists only the signed-in publisher’s own subscribers; visitors get 401', async () => {
    const alice = await signedInUser(ctx.server.url, 'Alice');
    const bob = await signedInUser(ctx.server.url, 'Bob');
    const carol = await signedInUser(ctx.server.url, 'Carol');
    await carol.api.subscribe(alice.me.id);
    await bob.api.subscribe(alice.me.id);
    await carol.api.subscribe(bob.me.id);

    const page = await alice.api.listSubscribers();
    expect(page).toMatchObject({ total: 2, hasMore: false, nextCursor: null });
    const byName = [...page.items].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName.map((s) => [s.id, s.name, s.email])).toEqual([
      [bob.me.id, 'Bob', bob.input.email],
      [carol.me.id, 'Carol', carol.input.email],
    ]);
    expect(Date.parse(page.items[0]?.subscribedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Bob sees his own list; no parameter reaches anyone else's.
    const bobs = await bob.api.listSubscribers();
    expect(bobs.items.map((s) => s.id)).toEqual([carol.me.id]);
    for (const query of [`publisherId=${alice.me.id}`, `userId=${alice.me.id}`, `id=${alice.me.id}`]) {
      const res = await bob.fetch(`${ctx.server.url}/api/me/subscribers?${query}`);
      const body = (await res.json()) as { items: Subscriber[] };
      expect(body.items.map((s) => s.id)).toEqual([carol.me.id]);
    }
    const csv = await (await bob.fetch(`${ctx.server.url}/api/me/subscribers.csv?publisherId=${alice.me.id}`)).text();
    expect(csv).not.toContain(bob.input.email);
    expect(csv).toContain(carol.input.email);
    // Carol has none.
    expect(await carol.api.listSubscribers()).toEqual({ items: [], nextCursor: null, hasMore: false, total: 0 });

    const visitor = testClient(ctx.server.url);
    const anon = await failure(visitor.api.listSubscribers());
    expect([anon.status, anon.message]).toEqual([401, SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers]);
    expect((await visitor.fetch(`${ctx.server.url}/api/me/subscribers.csv`)).status).toBe(401);
    const privateCache = await alice.fetch(`${ctx.server.url}/api/me/subscribers`);
    expect(privateCache.headers.get('cache-control')).toBe('private, no-store');
  });

  it('names a subscriber by the part of the e-mail before the @ when the display name is blank', async () => {
    const publisher = await signedInUser(ctx.server.url, 'Publisher');
    const reader = await signedInUser(ctx.server.url, 'Nameless');
    await reader.api.subscribe(publisher.me.id);
    await ctx.server.db.kysely.updateTable('user').set({ name: '   ' }).where('id', '=', reader.me.id).execute();
    const [row] = (await publisher.api.listSubscribers()).items;
    expect(row?.name).toBe(reader.input.email.split('@')[0]);
  });

  it('pages thousands of subscribers newest first with a keyset cursor, ties included', async () => {
    const publisher = await signedInUser(ctx.server.url, 'Famous');
    const count = 2 * SUBSCRIBERS_PAGE_SIZE + 17;
    const ids = await insertUsers(
      ctx.server.db,
      Array.from({ length: count }, (_, i) => ({ name: `Fan ${i}`, email: `fan-${i}-${randomUUID()}@example.com` })),
    );
    // Pairs of subscribers share a timestamp, so the id must break ties.
    const base = Date.parse('2025-01-01T00:00:00Z');
    await insertSubscriptions(
      ctx.server.db,
      publisher.me.id,
      ids.map((subscriberId, i) => ({ subscriberId, createdAt: new Date(base + Math.floor(i / 2) * 60_000).toISOString() })),
    );

    const first = await publisher.api.listSubscribers();
    expect(first.items).toHaveLength(SUBSCRIBERS_PAGE_SIZE);
    expect(first).toMatchObject({ hasMore: true, total: count });
    const items = await allPages(publisher.api);
    expect(items).toHaveLength(count);
    expect(new Set(items.map((s) => s.id)).size).toBe(count);
    const times = items.map((s) => s.subscribedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(items[0]?.name).toBe(`Fan ${count - 1}`);

    const bad = await failure(publisher.api.listSubscribers('not-a-cursor'));
    expect([bad.status, bad.message]).toEqual([400, LINK_MESSAGES.invalidCursor]);
    const otherKind = Buffer.from(JSON.stringify(['newest', '2025-01-01', 'x'])).toString('base64url');
    expect((await failure(publisher.api.listSubscribers(otherKind))).status).toBe(400);
  });

  it('exports subscribers-{date}.csv: RFC 4180 quoting, CRLF, formula-safe values, every row', async () => {
    const publisher = await signedInUser(ctx.server.url, 'Exporter');
    const names = [
      'Ada Lovelace',
      'Lovelace, Ada',
      'Grace "Amazing" Hopper',
      '=HYPERLINK("http://evil.example","click")',
      '+33 6 12 34 56 78',
      '-2+3',
      '@SUM(A1:A2)',
      'Line\nBreak',
      'Zoë Ångström 日本',
    ];
    const emails = names.map((_, i) => `csv-${i}-${randomUUID()}@example.com`);
    const ids = await insertUsers(
      ctx.server.db,
      names.map((name, i) => ({ name, email: emails[i] as string })),
    );
    const base = Date.parse('2025-03-05T10:00:00Z');
    await insertSubscriptions(
      ctx.server.db,
      publisher.me.id,
      ids.map((subscriberId, i) => ({ subscriberId, createdAt: new Date(base + i * 86_400_000).toISOString() })),
    );

    const res = await publisher.fetch(`${ctx.server.url}/api/me/subscribers.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="subscribers-${today}.csv"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const csv = await res.text();

    const date = (i: number) => new Date(base + i * 86_400_000).toISOString().slice(0, 10);
    const expectedFields = [
      'Ada Lovelace',
      '"Lovelace, Ada"',
      '"Grace ""Amazing"" Hopper"',
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
      "'+33 6 12 34 56 78",
      "'-2+3",
      "'@SUM(A1:A2)",
      '"Line\nBreak"',
      'Zoë Ångström 日本',
    ];
    const expected =
      'Name,Email,Subscribed Date\r\n' +
      expectedFields
        .map((field, i) => `${field},${emails[i]},${date(i)}\r\n`)
        .reverse()
        .join('');
    expect(csv).toBe(expected);
  });

  it('streams a large export completely', async () => {
    const publisher = await signedInUser(ctx.server.url, 'Big List');
    const count = 2345;
    const ids = await insertUsers(
      ctx.server.db,
      Array.from({ length: count }, (_, i) => ({ name: `Reader ${i}`, email: `big-${i}-${randomUUID()}@example.com` })),
    );
    const base = Date.parse('2024-06-01T00:00:00Z');
    await insertSubscriptions(
      ctx.server.db,
      publisher.me.id,
      ids.map((subscriberId, i) => ({ subscriberId, createdAt: new Date(base + i * 1000).toISOString() })),
    );
    const csv = await (await publisher.fetch(`${ctx.server.url}/api/me/subscribers.csv`)).text();
    const lines = csv.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(count + 1);
    expect(lines[1]?.startsWith(`Reader ${count - 1},`)).toBe(true);
    expect(lines[count]?.startsWith('Reader 0,')).toBe(true);
    expect(new Set(lines).size).toBe(count + 1);
  });
});
