/**
 * Expected failures, thrown by services and routes alike and answered by the error handler
 * (server/http/errors.ts) as `{ error, code }`. They live outside server/http so that services
 * never import the transport.
 */

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

export const badRequest = (message: string, code = 'BAD_REQUEST', details?: Record<string, unknown>) =>
  new HttpError(400, message, code, details);
export const unauthorized = (message: string) => new HttpError(401, message, 'UNAUTHORIZED');
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, message, code);
export const notFound = (message: string) => new HttpError(404, message, 'NOT_FOUND');
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, message, code);
export const fileTooLarge = (message: string) => new HttpError(413, message, 'FILE_TOO_LARGE');
export const tooManyRequests = (message: string) => new HttpError(429, message, 'RATE_LIMITED');
