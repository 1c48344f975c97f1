import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { uniqueSlug } from '../support/supercurations';
import { type ServerProcess, startServerProcess } from './support/server-process';

const databases = await testDatabases();
const ROOT = path.resolve(import.meta.dirname, '../..');

/** An activity as the follower's server stored it (compact JSON-LD). */
interface Received {
  type: string;
  actor: string;
  object: string | { id: string; type: string; content?: string };
}

/**
 * Issue 21's federation, end to end between two processes on loopback, each with its own database:
 * server A is ours (FEDERATION on); server B is a fediverse server built with the same library
 * (Fedify), whose user Bob resolves @slug@A by WebFinger and follows it. Only HTTP passes between them.
 */
for (const database of databases) {
  describe(`Two servers federating [${database.name}]`, () => {
    let a: ServerProcess;
    let b: ChildProcess;
    let control: string;
    let aDb: Db;
    const dir = mkdtempSync(path.join(tmpdir(), 'supercurate-follower-'));
    beforeAll(async () => {
      a = await startServerProcess(database, { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true' });
      // B: tests/support/fediverse-follower-process.ts, its database in its own folder.
      b = spawn(process.execPath, ['--import', 'tsx', 'tests/support/fediverse-follower-process.ts'], {
        cwd: ROOT,
        env: { ...process.env, FOLLOWER_DB: path.join(dir, 'follower.db') },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const first = await createInterface({ input: b.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]().next();
      control = (JSON.parse(String(first.value)) as { control: string }).control;
      aDb = openDatabase({ dataDir: a.dataDir, databaseUrl: a.databaseUrl });
    });
    afterAll(async () => {
      await aDb?.close();
      if (b && b.exitCode === null) {
        const exited = new Promise((resolve) => b.once('exit', resolve));
        b.kill('SIGTERM');
        await exited;
      }
      await a?.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    const bobDoes = async <T,>(action: 'follow' | 'undo', body: object): Promise<T> => {
      const res = await fetch(`${control}/${action}`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as T;
    };
    const received = async () => (await (await fetch(`${control}/received`)).json()) as Received[];
    const objectId = (r: Received) => (typeof r.object === 'string' ? r.object : r.object.id);

    test('B follows @slug@A; gets the signed Create of a new resource, then the Delete when the collection turns private; after an Undo, nothing is sent', async () => {
      const curator = await signedInUser(a.url, 'Ada Curator');
      const slug = uniqueSlug('abyss');
      const collection = await curator.api.createSupercuration({ title: 'Abyssal Plains', description: 'Mud and life', isPublic: true, slug });
      const host = new URL(a.url).host;
      const actor = `${a.url}/ap/actors/c-${collection.id}`;

      const followed = await bobDoes<{ follow: string; actor: string }>('follow', { handle: `@${slug}@${host}` });
      expect(followed.actor).toBe(actor);

      const link = await curator.api.addResource(collection.id, {
        link: { title: 'Sea cucumbers at 4,000 m', description: 'They walk', url: 'https://example.com/sea-cucumbers' },
      });
      const noteId = `${a.url}/ap/notes/${collection.id}/${link.id}`;
      // B's inbox keeps only what passed its signature check (Fedify refuses the rest with 401).
      await expect.poll(async () => (await received()).find((r) => r.type === 'Create' && objectId(r) === noteId), { timeout: 20_000 }).toBeTruthy();
      const create = (await received()).find((r) => r.type === 'Create' && objectId(r) === noteId) as Received;
      expect(create.actor).toBe(actor);
      expect(typeof create.object === 'object' && create.object.content).toContain('<a href="https://example.com/sea-cucumbers">Sea cucumbers at 4,000 m</a>');

      await curator.api.updateSupercuration(collection.id, { isPublic: false });
      await expect.poll(async () => (await received()).some((r) => r.type === 'Delete' && objectId(r) === actor), { timeout: 20_000 }).toBe(true);

      // Public again, followed again, then B undoes its Follow: the next resource is sent to no one.
      await curator.api.updateSupercuration(collection.id, { isPublic: true, slug: uniqueSlug('abyss') });
      const again = await curator.api.getSupercuration(collection.id);
      const second = await bobDoes<{ follow: string; actor: string }>('follow', { handle: `@${again.slug}@${host}` });
      const followers = () => aDb.kysely.selectFrom('federation_followers').select('actor_uri').where('supercuration_id', '=', collection.id).execute();
      expect(await followers()).toHaveLength(1);
      await bobDoes('undo', second);
      expect(await followers()).toEqual([]);
      const unheard = await curator.api.addResource(collection.id, { link: { title: 'Unheard', description: 'After the Undo', url: 'https://example.com/unheard' } });
      expect(await aDb.kysely.selectFrom('federation_deliveries').select('id').where('link_id', '=', unheard.id).execute()).toEqual([]);
    });
  });
}
