import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from '../version';

/** The session cookie's scheme name in the document (signed-in routes name it in `security`). */
export const SESSION_SECURITY = 'session';
/** A personal access token's scheme name (`Authorization: Bearer …`), taken by signed-in routes too. */
export const TOKEN_SECURITY = 'token';

/**
 * The OpenAPI 3.1 document of the routes of the shared table (shared/api/routes.ts: those with
 * tags; pages, feeds and Better Auth's endpoints are left out) at /api/openapi.json, and its
 * reference page at /api/docs (Swagger UI, served from our origin: no CDN, scripts from files only).
 * Register before the routes: @fastify/swagger collects them as they are added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Supercurate API',
        version: APP_VERSION,
        description: 'Share, tag and curate links into collections. Errors are `{ error, code }` JSON with a user-facing message.',
      },
      components: {
        securitySchemes: {
          [SESSION_SECURITY]: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token', description: 'The session cookie set by signing in' },
          [TOKEN_SECURITY]: { type: 'http', scheme: 'bearer', description: 'A personal access token, made in Settings → API tokens' },
        },
      },
    },
    hideUntagged: true,
    transform: withBodyExamples,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { deepLinking: true },
  });
}

/** jsonSchemaTransform, with the route's `examples` (shared/api/routes.ts) on its body's JSON schema. */
const withBodyExamples: typeof jsonSchemaTransform = (route) => {
  const transformed = jsonSchemaTransform(route);
  if (!transformed.schema) return transformed;
  const { examples, ...schema } = transformed.schema as Record<string, unknown>;
  if (Array.isArray(examples) && schema.body) schema.body = { ...schema.body, examples };
  return { ...transformed, schema };
};
