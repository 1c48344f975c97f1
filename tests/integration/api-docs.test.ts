import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { apiRoutes } from '../../shared/api/routes';
import { http } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

type Media = { example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = { tags?: string[]; security?: unknown[]; requestBody?: { content: Record<string, Media> } };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
};

describeEachDatabase('API reference: OpenAPI document and docs page', (ctx) => {
  it('GET /api/openapi.json is a valid OpenAPI 3.1 document of every route of the shared table', async () => {
    const res = await http(`${ctx.server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Document;
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect([result.valid, validator.version]).toEqual([true, '3.1']);

    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const table = Object.values(apiRoutes).map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual(table.sort());

    // Signed-in routes take the session cookie or a personal token; managing tokens takes the
    // session only; public routes need nothing.
    expect(doc.paths['/api/links']?.get?.security).toEqual([{ session: [] }, { token: [] }]);
    expect(doc.paths['/api/me/tokens']?.post?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/me/tokens']?.get?.security).toEqual([{ session: [] }, { token: [] }]);
    expect(doc.components?.securitySchemes?.token).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/directory']?.get?.security).toEqual([]);
    // Examples of the main calls.
    const media = (path: string) => doc.paths[path]?.post?.requestBody?.content['application/json'];
    expect(media('/api/links')?.example).toEqual(apiRoutes.createLink.schema.examples[0]);
    expect(media('/api/links/batch')?.example).toEqual(apiRoutes.shareLinks.schema.examples[0]);
    expect(Object.values(media('/api/supercurations/{id}/resources')?.examples ?? {}).map((e) => e.value)).toEqual(apiRoutes.addResource.schema.examples);
    for (const { schema } of [apiRoutes.createLink, apiRoutes.shareLinks, apiRoutes.addResource]) {
      for (const example of schema.examples) expect(schema.body.safeParse(example).error).toBeUndefined();
    }
  });

  it('GET /api/docs is the reference page, its scripts served from our origin under the app CSP', async () => {
    const res = await http(`${ctx.server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await res.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await http(new URL(src, `${ctx.server.url}/api/docs`).href);
      expect([src, script.status]).toEqual([src, 200]);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      // Read to the end: a response left unread holds its connection, and the server's close waits for it.
      expect((await script.text()).length).toBeGreaterThan(0);
    }
  });
});
