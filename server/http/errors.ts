import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { type ApiErrorBody, MSG } from '../../shared/domain';

/** An expected failure with a user-facing message (SPEC §8 wording where it has one). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** More fields of the error body, e.g. the index of a refused batch item. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const unauthorized = (message: string) => new HttpError(401, message, 'UNAUTHORIZED');
export const forbidden = (message: string) => new HttpError(403, message, 'FORBIDDEN');
export const notFound = (message: string) => new HttpError(404, message, 'NOT_FOUND');

export function zodErrorBody(err: ZodError): ApiErrorBody {
  return {
    error: err.issues[0]?.message ?? 'Invalid input',
    code: 'VALIDATION_ERROR',
    issues: err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}

/** Every failure leaves as `{ error, code }` JSON; unexpected ones are logged and never leak detail. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).send({ ...err.details, error: err.message, code: err.code } satisfies ApiErrorBody);
    }
    if (err instanceof ZodError) return reply.status(400).send(zodErrorBody(err));
    // PostgreSQL's text cannot hold U+0000 (SQLite's can): a NUL in an id, a query or a cursor fails
    // there as "invalid byte sequence" (22021). The input is at fault, and the failed statement wrote nothing.
    if ('code' in err && err.code === '22021') {
      return reply.status(400).send({ error: MSG.nulCharacter, code: 'INVALID_CHARACTERS' } satisfies ApiErrorBody);
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'BAD_REQUEST';
      const message = status === 413 ? 'Request body is too large' : err.message;
      return reply.status(status).send({ error: message, code } satisfies ApiErrorBody);
    }
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'Something went wrong. Please try again.', code: 'INTERNAL' });
  });
}
