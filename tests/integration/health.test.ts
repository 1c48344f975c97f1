import { expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { LATEST_SCHEMA } from '../../server/db/migrate';
import { http } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

describeEachDatabase('health and HTTP hygiene', (ctx) => {
  it('GET /api/health checks the database and names the app version and the schema it is at', async () => {
    const res = await http(`${ctx.server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      database: ctx.server.db.dialect,
      version: packageJson.version,
      schema: LATEST_SCHEMA,
    });
    expect(LATEST_SCHEMA).toMatch(/^\d{4}_/);
  });

  it('GET /api/health answers 503 when the database is gone', async () => {
    await ctx.server.db.close();
    const res = await http(`${ctx.server.url}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'error' });
    ctx.server = await ctx.server.restart();
  });

  it('sends a strict Content-Security-Policy and the usual security headers', async () => {
    const res = await http(`${ctx.server.url}/api/health`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers unknown API routes with JSON 404, never the web app', async () => {
    const res = await http(`${ctx.server.url}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses JSON bodies over 1 MB with 413', async () => {
    const res = await http(`${ctx.server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.server.url },
      body: JSON.stringify({ name: 'x'.repeat(1_100_000), email: 'big@example.com', password: 'long-enough' }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'Request body is too large' });
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await http(`${ctx.server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.server.url },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
  });
});
