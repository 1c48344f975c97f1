import type { FastifyInstance } from 'fastify';
import { JSON_MAX_DEPTH, MSG } from '../../shared/domain';
import { badRequest } from '../errors';
import { jsonNestedDeeperThan } from '../services/json-depth';

/**
 * Replaces Fastify's JSON body parser (application/json with any parameters; the server's body
 * limit) by the same parser, prototype-poisoning checks included, behind the depth check: a body nested deeper than
 * JSON_MAX_DEPTH is refused with 400 before anything (JSON.stringify when forwarding to Better
 * Auth, zod, our services) walks it recursively.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonNestedDeeperThan(body as string, JSON_MAX_DEPTH)) {
      done(badRequest(MSG.jsonTooDeep, 'JSON_TOO_DEEP'), undefined);
      return;
    }
    parse(req, body as string, done);
  });
}
