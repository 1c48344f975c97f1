import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { apiRoutes } from '../../shared/api/routes';
import { paths } from '../../shared/domain/paths';
import { escapeHtml } from '../mail/render';
import { digestReaderOfToken, unsubscribeDigest } from '../services/reader-digests';
import {
  type MailDeps,
  confirmSubscription,
  ownerEmailSubscribers,
  publicPageUrl,
  subscribeByEmail,
  subscriptionOfToken,
  unsubscribe,
} from '../services/email-subscriptions';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

interface Deps extends MailDeps {
  session: SessionReader;
}

/**
 * E-mail subscription requests per client address per minute (visitors may subscribe, so per
 * client address, not per user), shared by every server process like every limit. Per
 * e-mail address, the service's daily confirmation quota (email_send_limits) holds across processes too.
 */
export const SUBSCRIBE_RATE_LIMIT = 10;

export const EMAIL_PAGE_TEXTS = {
  confirmed: 'Your subscription is confirmed',
  confirmInvalid: 'This confirmation link is invalid',
  unsubscribeTitle: 'Unsubscribe',
  unsubscribed: 'You have been unsubscribed',
  unsubscribeInvalid: 'This unsubscribe link is invalid',
  digestUnsubscribeTitle: 'Stop your digest',
  digestUnsubscribed: 'Your digest is turned off',
} as const;

const tokenQuery = z.object({ token: z.string().max(500).default('') });

/** A small server-rendered page (our CSP applies: no script, inline styles only). */
function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Supercurate</title></head>
<body style="margin:0;padding:48px 16px;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a;line-height:1.5">
<main style="max-width:520px;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:32px">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(title)}</h1>
${body}
<p style="margin:24px 0 0"><a href="/" style="color:#2563eb">Supercurate</a></p>
</main></body></html>`;
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

const p = (html: string) => `<p style="margin:0 0 12px">${html}</p>`;

const button = (action: string, label: string) =>
  `<form method="post" action="${escapeHtml(action)}">` +
  `<button type="submit" style="background:#2563eb;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-weight:600;cursor:pointer">${escapeHtml(label)}</button></form>`;

/**
 * Collection e-mail subscriptions: subscribe (double opt-in), the confirmation link, one-click
 * unsubscribe (RFC 8058), and the owner's list for the dashboard. Also the personal digest's
 * one-click unsubscribe, which turns the reader's digest setting Off.
 */
export function registerEmailSubscriptionRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, session } = deps;
  const mailDeps: MailDeps = { ...deps, log: app.log };
  const api = zodRoutes(app);

  // Rate limited per client address here, and per e-mail address in the service (confirmation mails per day).
  api.route({
    ...declared(apiRoutes.subscribeByEmail, session),
    config: { rateLimit: { max: SUBSCRIBE_RATE_LIMIT, timeWindow: '1 minute' } },
    handler: async (req) => subscribeByEmail(mailDeps, req.params.id, req.body.email),
  });

  // The pages of the links in e-mails: HTML, not part of the documented API.
  const pageSchema = { schema: { querystring: tokenQuery, hide: true } };

  api.get('/subscriptions/confirm', pageSchema, async (req, reply) => {
    const { token } = req.query;
    const confirmed = await confirmSubscription(db, token);
    if (!confirmed) {
      return page(reply, 404, EMAIL_PAGE_TEXTS.confirmInvalid, p('The link may be incomplete, or the subscription was removed. You can subscribe again on the collection page.'));
    }
    const link = confirmed.slug
      ? p(`<a href="${escapeHtml(publicPageUrl(deps.publicUrl, confirmed.slug))}" style="color:#2563eb">Open ${escapeHtml(confirmed.title)}</a>`)
      : '';
    return page(
      reply,
      200,
      EMAIL_PAGE_TEXTS.confirmed,
      p(`You will receive an e-mail when new resources are added to <strong>${escapeHtml(confirmed.title)}</strong>.`) + link,
    );
  });

  // GET never unsubscribes (mail scanners fetch links): it shows a button that posts the form.
  api.get('/subscriptions/unsubscribe', pageSchema, async (req, reply) => {
    const { token } = req.query;
    const subscription = await subscriptionOfToken(db, deps.secret, token);
    if (!subscription) {
      return page(reply, 404, EMAIL_PAGE_TEXTS.unsubscribeInvalid, p('You may already be unsubscribed: you will not receive any more e-mails from this subscription.'));
    }
    return page(
      reply,
      200,
      EMAIL_PAGE_TEXTS.unsubscribeTitle,
      p(`Stop receiving e-mails about new resources in <strong>${escapeHtml(subscription.title)}</strong>?`) +
        button(`/subscriptions/unsubscribe?token=${encodeURIComponent(token)}`, 'Unsubscribe'),
    );
  });

  api.get('/digest/unsubscribe', pageSchema, async (req, reply) => {
    const { token } = req.query;
    if (!(await digestReaderOfToken(db, deps.secret, token))) {
      return page(reply, 404, EMAIL_PAGE_TEXTS.unsubscribeInvalid, p('Check that the whole link was used. You can also turn the digest off in your settings.'));
    }
    return page(
      reply,
      200,
      EMAIL_PAGE_TEXTS.digestUnsubscribeTitle,
      p('Stop the e-mail digest of what the curators and collections you follow publish?') +
        button(`/digest/unsubscribe?token=${encodeURIComponent(token)}`, 'Turn off my digest'),
    );
  });

  // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` (form-encoded) without cookies
  // or an Origin of ours; the token alone authorises it. The body is not needed, only accepted.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
      done(null, body),
    );
    zodRoutes(scope).post('/subscriptions/unsubscribe', pageSchema, async (req, reply) => {
      const { token } = req.query;
      const result = await unsubscribe(db, deps.secret, token);
      if (result === 'invalid') return page(reply, 400, EMAIL_PAGE_TEXTS.unsubscribeInvalid, p('Check that the whole link was used.'));
      return page(reply, 200, EMAIL_PAGE_TEXTS.unsubscribed, p('You will not receive any more e-mails from this subscription.'));
    });
    zodRoutes(scope).post('/digest/unsubscribe', pageSchema, async (req, reply) => {
      const result = await unsubscribeDigest(db, deps.secret, req.query.token);
      if (result === 'invalid') return page(reply, 400, EMAIL_PAGE_TEXTS.unsubscribeInvalid, p('Check that the whole link was used.'));
      return page(
        reply,
        200,
        EMAIL_PAGE_TEXTS.digestUnsubscribed,
        p(`You will not receive any more digest e-mails. You can turn it on again in your <a href="${paths.settings}" style="color:#2563eb">settings</a>.`),
      );
    });
  });

  /** Dashboard: the signed-in owner's collections' confirmed e-mail subscribers. No parameter names anyone else. */
  api.route({
    ...declared(apiRoutes.myEmailSubscribers, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      reply.header('cache-control', 'private, no-store');
      return ownerEmailSubscribers(db, viewer.id);
    },
  });
}
