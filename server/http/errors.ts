import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { type ApiErrorBody, MSG } from '../../shared/domain';
import { HttpError } from '../errors';

/** The body of an expected failure (server/errors.ts). */
export const httpErrorBody = (err: HttpError): ApiErrorBody => ({ ...err.details, error: err.message, code: err.code });

export function zodErrorBody(err: ZodError): ApiErrorBody {
  return {
    error: err.issues[0]?.message ?? 'Invalid input',
    code: 'VALIDATION_ERROR',
    issues: err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}

// @fastify/multipart's own errors for a request that is not a complete multipart body (it answers
// 406 for some, a status meant for the Accept header).
const MALFORMED_MULTIPART_CODES = new Set(['FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_INVALID_JSON_FIELD_ERROR', 'FST_MP_PREMATURE_CLOSE']);
// Its parser (@fastify/busboy) throws plain Errors, known by their messages: no or a too long boundary
// in the Content-Type, a body that ends before its closing boundary.
const MALFORMED_MULTIPART_MESSAGES = /^(Multipart: Boundary not found|The needle cannot .*|(Part|Preamble) terminated early due to unexpected end of multipart data|Unexpected end of multipart data)$/;

function isMalformedMultipart(err: Error): boolean {
  const code = 'code' in err ? err.code : undefined;
  return (typeof code === 'string' && MALFORMED_MULTIPART_CODES.has(code)) || (code === undefined && MALFORMED_MULTIPART_MESSAGES.test(err.message));
}

/** Every failure leaves as `{ error, code }` JSON; unexpected ones are logged and never leak detail. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).send(httpErrorBody(err));
    }
    if (err instanceof ZodError) return reply.status(400).send(zodErrorBody(err));
    if (isMalformedMultipart(err)) {
      return reply.status(400).send({ error: MSG.malformedMultipart, code: 'MALFORMED_MULTIPART' } satisfies ApiErrorBody);
    }
    // PostgreSQL's text cannot hold U+0000 (SQLite's can): a NUL in an id, a query or a cursor fails
    // there as "invalid byte sequence" (22021). The input is at fault, and the failed statement wrote nothing.
    if ('code' in err && err.code === '22021') {
      return reply.status(400).send({ error: MSG.nulCharacter, code: 'INVALID_CHARACTERS' } satisfies ApiErrorBody);
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    // A body over a limit of Fastify or @fastify/multipart (size, parts, fields, files).
    if (status === 413) return reply.status(413).send({ error: MSG.bodyTooLarge, code: 'PAYLOAD_TOO_LARGE' } satisfies ApiErrorBody);
    if (status >= 400 && status < 500) {
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'BAD_REQUEST';
      return reply.status(status).send({ error: err.message, code } satisfies ApiErrorBody);
    }
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'Something went wrong. Please try again.', code: 'INTERNAL' });
  });
}
