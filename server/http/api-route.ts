import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { ApiRoute } from '../../shared/api/routes';
import { SESSION_SECURITY, TOKEN_SECURITY } from './api-docs';
import type { SessionReader } from './session';

/** Routes registered through this get their handler's input typed from the route's zod schemas. */
export const zodRoutes = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/**
 * Validates a request part with the route's zod schema. A request without a body is validated as `{}`;
 * a failure is the ZodError itself, which the error handler answers as `{ error, code, issues }`.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    return result.success ? { value: result.data } : { error: result.error };
  };

/**
 * Fastify options of a route of the shared table (handler to add). A signed-in route checks the
 * session before its input is validated: a visitor gets the route's 401, never a 400 about the input.
 */
export function declared<const R extends ApiRoute>({ auth, sessionOnly, schema, ...route }: R, session: SessionReader) {
  const preValidation = auth
    ? async (req: FastifyRequest) => {
        await session.requireViewer(req, auth);
        if (sessionOnly) await session.requireSessionViewer(req, sessionOnly);
      }
    : undefined;
  const security: Record<string, string[]>[] = !auth ? [] : sessionOnly ? [{ [SESSION_SECURITY]: [] }] : [{ [SESSION_SECURITY]: [] }, { [TOKEN_SECURITY]: [] }];
  return { ...route, schema: { ...schema, security } as R['schema'] & { security: typeof security }, preValidation };
}
