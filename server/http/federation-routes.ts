import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { JSON_MAX_DEPTH, MSG, paths } from '../../shared/domain';
import { badRequest } from '../errors';
import { jsonNestedDeeperThan } from '../services/json-depth';
import type { LoadedFederation } from '../federation';
import { ACTOR_PATH, type FederationDeps, SHARED_INBOX_PATH, wantsActivityJson } from '../federation/options';
import { isBlockedHost } from '../federation/blocked-hosts';
import { actorOfSlug, collectionActor } from '../federation/collection-actors';
import { personActor, personIdentifier, userIdOf } from '../federation/person-actors';
import { startDeliveryWorker } from '../federation/delivery-worker';

/** An activity is a few kB; Mastodon caps its own at 1 MB. */
export const INBOX_BODY_LIMIT = 256 * 1024;
/** Activities accepted per remote host (as its signature's key names it) a minute, all processes together. */
export const INBOX_RATE_LIMIT = 300;

/**
 * Mounts the federation (server/federation/, when FEDERATION is on; Fedify itself only once used): its own paths
 * (/ap/…, WebFinger, NodeInfo) as routes, inbox POSTs with their raw bytes (signatures cover them),
 * and the answer of a public collection's page and a curator's profile page to ActivityPub clients.
 * Call before the web routes: those pages' routes are registered there.
 */
export async function registerFederationRoutes(app: FastifyInstance, deps: FederationDeps): Promise<void> {
  // Fedify (~45 MB) is loaded by the first request to a federation path, or the first delivery due.
  let loaded: Promise<LoadedFederation> | undefined;
  const load = () => (loaded ??= import('../federation').then(({ supercurateFederation }) => supercurateFederation(deps)));
  const deliveries = startDeliveryWorker({ db: deps.db, deliver: async () => (await load()).deliver(), log: deps.log });
  app.addHook('onClose', async () => {
    await deliveries.stop();
    if (loaded) (await loaded).stop();
  });
  const { publicUrl } = deps;
  const kysely = deps.db.kysely;
  const answer = async (reply: FastifyReply, request: Request) =>
    sendWebResponse(
      reply,
      await (await load()).federation.fetch(request, {
        contextData: undefined,
        // A browser opening an actor's URI is sent to the collection's page, or the curator's profile.
        onNotAcceptable: async (req) => {
          const identifier = decodeURIComponent(new URL(req.url).pathname.split('/')[3] ?? '');
          const c = await collectionActor(kysely, identifier);
          const page = c ? paths.publicSupercuration(c.slug) : (await personActor(kysely, identifier)) ? paths.profile(userIdOf(identifier) ?? '') : null;
          return page ? Response.redirect(new URL(page, publicUrl), 302) : new Response('Not Found', { status: 404 });
        },
      }),
    );
  for (const path of ['/.well-known/webfinger', '/.well-known/nodeinfo', '/nodeinfo/2.1', '/ap/*']) {
    app.get(path, (req, reply) => answer(reply, toWebRequest(req, publicUrl)));
  }
  await app.register(async (inbox) => {
    inbox.removeAllContentTypeParsers();
    // The raw bytes (signatures cover them), refused like any JSON body when nested too deep: JSON-LD
    // expansion walks the activity recursively, before its signature is checked.
    inbox.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT }, (_req, body, done) => {
      if (jsonNestedDeeperThan((body as Buffer).toString('utf8'), JSON_MAX_DEPTH)) done(badRequest(MSG.jsonTooDeep, 'JSON_TOO_DEEP'), undefined);
      else done(null, body);
    });
    const options = {
      config: { rateLimit: { max: INBOX_RATE_LIMIT, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => `ap-inbox:${signingHost(req)}` } },
    };
    const post = (req: FastifyRequest, reply: FastifyReply) => {
      const host = signingHost(req);
      if (!host.startsWith('ip:') && isBlockedHost(new URL(`http://${host}`).hostname, deps.blockedHosts)) {
        return reply.status(403).send({ error: 'This server is blocked here' });
      }
      return answer(reply, toWebRequest(req, publicUrl, req.body as Buffer));
    };
    inbox.post(SHARED_INBOX_PATH, options, post);
    inbox.post('/ap/actors/:identifier/inbox', options, post);
  });

  // A collection's public page, or a curator's profile, asked for as ActivityStreams JSON, is its actor.
  const actorPages: Record<string, (params: Record<string, string>) => Promise<string | null>> = {
    '/supercurations/public/:slug': ({ slug = '' }) => actorOfSlug(kysely, slug),
    '/profile/:id': async ({ id = '' }) => ((await personActor(kysely, personIdentifier(id))) ? personIdentifier(id) : null),
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const actorOf = actorPages[route.url];
    if (!actorOf || ![route.method].flat().includes('GET')) return;
    const asActor = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!wantsActivityJson(req.headers.accept)) return;
      const identifier = await actorOf(req.params as Record<string, string>);
      if (!identifier) return;
      const actorUri = new URL(ACTOR_PATH.replace('{identifier}', encodeURIComponent(identifier)), publicUrl);
      return answer(reply, new Request(actorUri, { headers: { accept: req.headers.accept ?? '' } }));
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), asActor];
  });
}

/** The Fetch API request Fedify reads, from Fastify's (the body as the bytes received: signatures cover them). */
function toWebRequest(req: FastifyRequest, origin: string, body?: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(new URL(req.url, origin), { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
}

/** Sends Fedify's answer through Fastify (so compression, security headers and logging still apply). */
async function sendWebResponse(reply: FastifyReply, res: Response): Promise<FastifyReply> {
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return reply.send(Buffer.from(await res.arrayBuffer()));
}

/** The host a signed request says it comes from (its key's URI), else the client's address. */
function signingHost(req: FastifyRequest): string {
  const keyId = /keyId="([^"]+)"/.exec(String(req.headers.signature ?? ''))?.[1];
  try {
    return keyId ? new URL(keyId).host : `ip:${req.ip}`;
  } catch {
    return `ip:${req.ip}`;
  }
}
