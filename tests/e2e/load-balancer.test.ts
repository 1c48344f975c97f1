import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Link, MSG } from '../../shared/domain';
import { OUTBOX_CONCURRENCY } from '../../server/mail/outbox';
import { newUser, testClient } from '../support/client';
import { counterMismatches } from '../support/counters';
import { testDatabases } from '../support/databases';
import { waitForOutboxIdle } from '../support/outbox';
import { messageIdOf } from '../support/smtp-sink';
import { createCollection } from '../support/supercurations';
import { type Backend, type Cluster, startCluster, until } from './support/cluster';
import { BACKEND_HEADER } from './support/haproxy';

const databases = await testDatabases();
/** AUTH_RATE_LIMIT's default: the servers run with it. */
const SIGN_IN_LIMIT = 10;
const LIKERS = 3;
const LINKS = 4;
const TOGGLES = 5;
const RESOURCES = 24;
/** More than two outbox batches (50 each), so both mail workers claim one. */
const DIGEST_READERS = 120;

/** A new user, signed up through the load balancer, whose client records which server answered each request. */
async function userBehind(cluster: Cluster, answeredBy: string[]) {
  const client = testClient(cluster.url, cluster.url, (res) => answeredBy.push(res.headers.get(BACKEND_HEADER) ?? '?'));
  const input = newUser();
  await client.api.signUp(input);
  const me = await client.api.me();
  if (!me) throw new Error('sign-up did not start a session');
  return { ...client, input, me };
}

const both = (answeredBy: string[]) => [...new Set(answeredBy)].sort();

for (const database of databases) {
  describe(`two servers behind HAProxy [${database.name}]`, () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster(database);
    });
    afterAll(async () => {
      await cluster?.destroy();
    });

    test('a session made through one server works on the other', async () => {
      const answeredBy: string[] = [];
      const user = await userBehind(cluster, answeredBy);
      const signedUpOn = answeredBy[0];
      for (let i = 0; i < 4; i++) expect((await user.api.me())?.id).toBe(user.me.id);
      expect(answeredBy.slice(1).some((name) => name !== signedUpOn)).toBe(true);
      expect(both(answeredBy)).toEqual(['app1', 'app2']);
    });

    // On SQLite too: transactions begin IMMEDIATE, so a writer waits for the other process's lock
    // (busy_timeout) instead of failing with SQLITE_BUSY (docs/decisions.md, "All cores: WORKERS").
    test('like toggles and resource adds at once through both servers leave every counter equal to its rows', async () => {
      const answeredBy: string[] = [];
      const owner = await userBehind(cluster, answeredBy);
      const likers = [owner];
      for (let i = 1; i < LIKERS; i++) likers.push(await userBehind(cluster, answeredBy));
      const collection = await createCollection(owner, { isPublic: true });
      const links: Link[] = [];
      for (let i = 0; i < LINKS; i++) {
        links.push(await owner.api.addResource(collection.id, { link: { url: `https://example.com/liked-${i}`, title: `Liked ${i}`, description: 'x' } }));
      }
      answeredBy.length = 0;
      await Promise.all([
        ...likers.flatMap((liker) => links.flatMap((link) => Array.from({ length: TOGGLES }, () => liker.api.toggleLike(link.id)))),
        ...Array.from({ length: RESOURCES }, (_, i) =>
          owner.api.addResource(collection.id, { link: { url: `https://example.com/added-${i}`, title: `Added ${i}`, description: 'x' } }),
        ),
      ]);
      expect(answeredBy).toHaveLength(LIKERS * LINKS * TOGGLES + RESOURCES);
      expect(both(answeredBy)).toEqual(['app1', 'app2']);
      expect(await counterMismatches(cluster.db)).toEqual([]);
      const stored = await cluster.db.kysely.selectFrom('supercurations').select('links_count').where('id', '=', collection.id).executeTakeFirstOrThrow();
      expect(Number(stored.links_count)).toBe(LINKS + RESOURCES);
    });

    test('an upload made through one server is served by the other', async () => {
      const answeredBy: string[] = [];
      const user = await userBehind(cluster, answeredBy);
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).png().toBuffer();
      const { url } = await user.api.uploadImage(new Blob([png], { type: 'image/png' }));
      const uploadedOn = answeredBy.at(-1);
      const servedBy = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const res = await fetch(new URL(url, cluster.url));
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(64);
        servedBy.add(res.headers.get(BACKEND_HEADER) ?? '?');
      }
      expect([...servedBy].some((name) => name !== uploadedOn)).toBe(true);
    });

    test('the sign-in limit is reached after the same number of attempts, whichever server answers', async () => {
      const attempt = async () => {
        const res = await fetch(`${cluster.url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: cluster.url },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' }),
        });
        return { status: res.status, body: (await res.json()) as { error: string }, server: res.headers.get(BACKEND_HEADER) };
      };
      const attempts = [];
      for (let i = 0; i < SIGN_IN_LIMIT + 2; i++) attempts.push(await attempt());
      expect(attempts.map((a) => a.status)).toEqual([...Array<number>(SIGN_IN_LIMIT).fill(401), 429, 429]);
      expect(both(attempts.slice(0, SIGN_IN_LIMIT).map((a) => a.server ?? '?'))).toEqual(['app1', 'app2']);
      // Refused by each server: neither counted only its own attempts.
      expect(both(attempts.slice(SIGN_IN_LIMIT).map((a) => a.server ?? '?'))).toEqual(['app1', 'app2']);
      expect(attempts.at(-1)?.body.error).toBe(MSG.tooManyRequests);
    });

    test('a digest goes out once with both mail workers, and kill -9 of one mid-batch loses none', async () => {
      const [killed, survivor] = cluster.backends as [Backend, Backend];
      const owner = await userBehind(cluster, []);
      const collection = await createCollection(owner, { isPublic: true, title: 'Balanced news' });
      const day = 86_400_000;
      const past = new Date(Date.now() - day).toISOString();
      const readers = Array.from({ length: DIGEST_READERS }, (_, i) => `reader-${i}@example.com`);
      const kysely = cluster.db.kysely;
      await kysely
        .insertInto('email_subscribers')
        .values(
          readers.map((email) => ({
            id: randomBytes(12).toString('hex'),
            supercuration_id: collection.id,
            email,
            confirmed_at: past,
            token_hash: randomBytes(32).toString('hex'),
            created_at: past,
            confirm_sent_at: past,
          })),
        )
        .execute();
      await kysely.insertInto('digest_state').values({ supercuration_id: collection.id, last_sent_at: past }).execute();
      // The sign-up mails of the earlier tests go out first.
      await waitForOutboxIdle(cluster.db);

      // Each SMTP server now holds every message at its end of DATA: both mail workers stop
      // mid-batch, each with one message per lane waiting for its answer.
      for (const backend of cluster.backends) backend.sink.holdAccepts = true;
      await owner.api.addResource(collection.id, { link: { title: 'Sent once', description: 'x', url: 'https://example.com/once' } });
      await until('both servers mid-batch', async () => cluster.backends.every((b) => b.sink.held.length === OUTBOX_CONCURRENCY));

      // The batch of the server to be killed: the claim of the rows its held messages are for.
      const heldByKilled = killed.sink.held.map((m) => m.to[0] as string);
      const claims = await kysely.selectFrom('mail_outbox').select('claim_token').distinct().where('recipient', 'in', heldByKilled).execute();
      expect(claims).toHaveLength(1);
      const deadClaim = claims[0]?.claim_token as string;

      // The documented window, made to happen: its SMTP server accepts the messages while the
      // process is stopped, so it dies before recording them as sent.
      const acceptedFromKilled = killed.sink.held.map(messageIdOf);
      process.kill(killed.process.pid as number, 'SIGSTOP');
      await killed.sink.release();
      await killed.process.kill();

      survivor.sink.holdAccepts = false;
      await survivor.sink.release();
      const open = (claim: 'dead' | 'live') =>
        kysely
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '<>', 'sent')
          .where((eb) => (claim === 'dead' ? eb('claim_token', '=', deadClaim) : eb.or([eb('claim_token', 'is', null), eb('claim_token', '<>', deadClaim)])))
          .execute();
      await until('the survivor to send all but the killed batch', async () => (await open('live')).length === 0);
      expect((await open('dead')).length).toBeGreaterThan(0);

      // The killed server's lease (10 minutes) is over, moved into the past here: the survivor sends the rest.
      await kysely.updateTable('mail_outbox').set({ claimed_until: past }).where('claim_token', '=', deadClaim).execute();
      await until('every mail sent', async () => (await open('dead')).length + (await open('live')).length === 0);

      const digests = await kysely.selectFrom('mail_outbox').select(['recipient', 'message_id']).where('kind', '=', 'digest').execute();
      expect(digests.map((d) => d.recipient).sort()).toEqual([...readers].sort());
      const sent = cluster.backends.flatMap((b) => b.sink.received).filter((m) => readers.includes(m.to[0] as string));
      const times = new Map<string, number>();
      for (const id of sent.map(messageIdOf)) times.set(id as string, (times.get(id as string) ?? 0) + 1);
      // Every digest arrived; twice only those accepted in the killed server's last moment.
      expect([...times.keys()].sort()).toEqual(digests.map((d) => d.message_id).sort());
      const twice = [...times].filter(([, n]) => n > 1).map(([id]) => id);
      expect(twice.sort()).toEqual([...acceptedFromKilled].sort());
      expect(Math.max(...times.values())).toBe(2);
    });
  });
}
