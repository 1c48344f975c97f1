import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Activity,
  Endpoints,
  type Federation,
  type KvStore,
  MemoryKvStore,
  Person,
  createFederation,
  generateCryptoKeyPair,
} from '@fedify/fedify';

/**
 * A minimal remote fediverse server on 127.0.0.1, built with the same library as ours (Fedify): one
 * person, `bob`, with an inbox that records every activity it is sent (after Fedify has checked
 * its signature). It stands for a Mastodon user following our collections.
 */
export interface RemoteFollower {
  origin: string;
  federation: Federation<void>;
  /** Bob's actor URI. */
  actorUri: URL;
  /** Bob's RSA key pair (to sign requests by hand). */
  keys: CryptoKeyPair;
  /** Activities received in Bob's inboxes, in order. */
  received: Activity[];
  /** Resolves with the first received activity that `match` accepts. */
  next<T extends Activity>(match: (a: Activity) => a is T): Promise<T>;
  close(): Promise<void>;
}

export interface RemoteFollowerOptions {
  /** Fedify's store (default: in memory). */
  kv?: KvStore;
  /** Told of each activity received (after the signature check), before `next` resolves. */
  onActivity?: (activity: Activity) => Promise<void> | void;
}

export async function startRemoteFollower({ kv = new MemoryKvStore(), onActivity }: RemoteFollowerOptions = {}): Promise<RemoteFollower> {
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const received: Activity[] = [];
  const waiters: { match: (a: Activity) => boolean; resolve: (a: Activity) => void }[] = [];
  const federation = createFederation<void>({ kv, allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (identifier !== 'bob') return null;
      const [pair] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: 'Bob Remote',
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pair?.cryptographicKey ?? null,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === 'bob' ? [keys] : []));
  const record = async (_ctx: unknown, activity: Activity) => {
    await onActivity?.(activity);
    received.push(activity);
    for (const w of waiters.filter((w) => w.match(activity))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(activity);
    }
  };
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, record);

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    const response = await federation.fetch(request, { contextData: undefined });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    federation,
    actorUri: new URL('/users/bob', origin),
    keys,
    received,
    next: <T extends Activity>(match: (a: Activity) => a is T) =>
      new Promise<T>((resolve) => {
        const found = received.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve: resolve as (a: Activity) => void });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
