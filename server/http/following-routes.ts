import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import {
  csvRow,
  MSG,
  paths,
  subscribersCsvFileName,
  SUBSCRIPTION_MESSAGES,
} from '../../shared/domain';
import type { Db } from '../db';
import { userFeed } from '../feeds/links';
import { RSS_CONTENT_TYPE, renderRss } from '../feeds/rss';
import { canSeeSubscribers } from '../policies/subscriptions';
import { avatarUrl } from '../presenters/users';
import { listFollowing } from '../services/following-feed';
import { readerDigestSettings, setReaderDigest } from '../services/reader-digests';
import { getProfilePageMeta } from '../services/profiles';
import { allSubscribers, listSubscribers, subscribe, unsubscribe } from '../services/subscriptions';
import { forbidden, notFound } from '../errors';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';
import type { MetaPage } from './web-routes';

interface Deps {
  db: Db;
  session: SessionReader;
  publicUrl: string;
}

type IdParams = { Params: { id: string } };

export const CSV_HEADER = ['Name', 'Email', 'Subscribed Date'] as const;

/** Subscribed Date in the CSV: the UTC calendar date, YYYY-MM-DD (spreadsheets read it as a date). */
const csvDate = (iso: string) => iso.slice(0, 10);

/**
 * Following: subscribe to a user, the Following feed, the Subscriber Dashboard and its CSV export,
 * and a curator's RSS feed. The dashboard routes live under /api/me: they only ever read the signed-in
 * user's own subscribers, there is no parameter to ask for anyone else's.
 */
export function registerFollowingRoutes(app: FastifyInstance, { db, session, publicUrl }: Deps): void {
  const api = zodRoutes(app);

  api.route({
    ...declared(apiRoutes.subscribe, session),
    handler: async (req) => subscribe(db, await session.requireViewer(req), req.params.id),
  });

  api.route({
    ...declared(apiRoutes.unsubscribe, session),
    handler: async (req) => unsubscribe(db, await session.requireViewer(req), req.params.id),
  });

  api.route({
    ...declared(apiRoutes.following, session),
    handler: async (req) => listFollowing(db, await session.requireViewer(req), req.query),
  });

  // The signed-in reader's own setting: no parameter names anyone else.
  api.route({
    ...declared(apiRoutes.readerDigest, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      reply.header('cache-control', 'private, no-store');
      return readerDigestSettings(db, viewer.id);
    },
  });

  api.route({
    ...declared(apiRoutes.setReaderDigest, session),
    handler: async (req) => setReaderDigest(db, (await session.requireViewer(req)).id, req.body.frequency),
  });

  api.route({
    ...declared(apiRoutes.listSubscribers, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      if (!canSeeSubscribers(viewer, viewer.id)) throw forbidden(SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed);
      reply.header('cache-control', 'private, no-store');
      return listSubscribers(db, viewer.id, req.query.cursor);
    },
  });

  /** Export CSV: every subscriber, streamed in pages (a publisher may have many thousands). */
  app.get('/api/me/subscribers.csv', async (req, reply) => {
    const viewer = await session.requireViewer(req, SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers);
    if (!canSeeSubscribers(viewer, viewer.id)) throw forbidden(SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed);
    async function* lines() {
      yield csvRow(CSV_HEADER);
      for await (const s of allSubscribers(db, viewer.id)) yield csvRow([s.name, s.email, csvDate(s.subscribedAt)]);
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${subscribersCsvFileName()}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(lines()));
  });

  /** RSS 2.0 of the newest links a curator shared to the main feed. */
  app.get<IdParams>('/users/:id/feed.xml', async (req, reply) => {
    const channel = await userFeed(db, publicUrl, req.params.id);
    if (!channel) throw notFound(MSG.userNotFound);
    return reply
      .header('content-type', RSS_CONTENT_TYPE)
      .send(renderRss(channel));
  });
}

/**
 * The profile page (/profile/{id}) as unfurlers and feed readers see it: name, bio, the uploaded
 * avatar (the generated one is an SVG, which unfurlers don't show), and the RSS feed. Never the e-mail.
 */
export function profilePage(db: Db, publicUrl: string): MetaPage {
  return {
    path: '/profile/:id',
    async meta({ id = '' }) {
      const user = await getProfilePageMeta(db, id);
      if (!user) return null;
      const name = user.name.trim() || 'A curator';
      return {
        title: name,
        description: user.bio?.trim() || `${name} curates links on Supercurate.`,
        image: user.avatar_key ? `${publicUrl}${avatarUrl(user.id, user.avatar_key)}` : null,
        url: `${publicUrl}${paths.profile(user.id)}`,
        type: 'profile',
        feeds: [{ title: `${name} on Supercurate`, url: `${publicUrl}${paths.userFeed(user.id)}` }],
      };
    },
  };
}
