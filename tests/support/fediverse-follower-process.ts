import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Accept, Follow, Undo, isActor } from '@fedify/fedify';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database as Schema } from '../../server/db/schema';
import { sqlKvStore } from '../../server/federation/kv-store';
import { startRemoteFollower } from './fediverse-follower';

/**
 * The remote follower (./fediverse-follower.ts) as a server process of its own with its own
 * database (SQLite at FOLLOWER_DB: Fedify's store, and every activity its inboxes accepted), for
 * tests that federate two servers each in its own process. Its control API, on another port:
 * - POST /follow {handle}: resolves @user@host by WebFinger and follows that actor (Bob's Follow,
 *   signed with his key); answers {follow, actor} once the Accept has arrived;
 * - POST /undo {follow, actor}: Bob undoes that Follow;
 * - GET /received: the activities received, oldest first, as compact JSON-LD.
 * Prints {"origin", "control"} as one JSON line on stdout once it listens.
 */
const sqlite = new Database(process.env.FOLLOWER_DB ?? ':memory:');
sqlite.exec(`
  create table if not exists federation_kv (key text primary key, value text not null, expires_at text);
  create table if not exists received (seq integer primary key, json text not null);
`);
const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
const insert = sqlite.prepare('insert into received (json) values (?)');
const bob = await startRemoteFollower({
  kv: sqlKvStore(db),
  onActivity: async (activity) => {
    insert.run(JSON.stringify(await activity.toJsonLd({ format: 'compact' })));
  },
});
const context = () => bob.federation.createContext(new URL(bob.origin), undefined);

async function follow({ handle }: { handle: string }) {
  // As Fedify's lookupWebFinger, over http: the servers on loopback have no TLS.
  const acct = handle.replace(/^@/, '');
  const host = acct.slice(acct.lastIndexOf('@') + 1);
  const res = await fetch(`http://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${acct}`)}`, { headers: { accept: 'application/jrd+json' } });
  const jrd = res.ok ? ((await res.json()) as { links?: { rel: string; href?: string }[] }) : null;
  const self = jrd?.links?.find((l) => l.rel === 'self')?.href;
  if (!self) throw new Error(`WebFinger found no actor for ${handle}`);
  const ctx = context();
  const actor = await ctx.lookupObject(self);
  if (!isActor(actor) || actor.id === null) throw new Error(`${self} is no actor`);
  const activity = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: actor.id });
  await ctx.sendActivity({ identifier: 'bob' }, actor, activity);
  await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === activity.id?.href);
  return { follow: activity.id?.href, actor: actor.id.href };
}

async function undo({ follow: followId, actor: actorUri }: { follow: string; actor: string }) {
  const ctx = context();
  const actor = await ctx.lookupObject(actorUri);
  if (!isActor(actor)) throw new Error(`${actorUri} is no actor`);
  const original = new Follow({ id: new URL(followId), actor: bob.actorUri, object: new URL(actorUri) });
  await ctx.sendActivity({ identifier: 'bob' }, actor, new Undo({ id: new URL(`#undo/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: original }));
  return {};
}

const control = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as never) : ({} as never);
  try {
    const answer =
      req.method === 'POST' && req.url === '/follow'
        ? await follow(body)
        : req.method === 'POST' && req.url === '/undo'
          ? await undo(body)
          : req.method === 'GET' && req.url === '/received'
            ? (sqlite.prepare('select json from received order by seq').all() as { json: string }[]).map((r) => JSON.parse(r.json) as unknown)
            : null;
    res.writeHead(answer === null ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  } catch (err) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: (err as Error).message }));
  }
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ origin: bob.origin, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` })}\n`);
process.on('SIGTERM', () => {
  control.close();
  void bob.close().then(() => {
    sqlite.close();
    process.exit(0);
  });
});
