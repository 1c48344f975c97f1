import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, projectRoot } from '../../server/config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'supercurate-config-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      previewAllowPrivate: false,
      authRateLimit: 10,
      imageCacheMb: 256,
    });
  });

  it('serves the web app built into <project>/dist/web unless WEB_DIR names another folder, from sources or bundled', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(loadConfig({ DATA_DIR: dataDir() }).webDir).toBe(path.join(root, 'dist', 'web'));
    expect(loadConfig({ DATA_DIR: dataDir(), WEB_DIR: '/srv/web' }).webDir).toBe('/srv/web');
    // Where the code runs from: server/ (tsx) and dist/chunks/ (the bundle of npm start).
    expect(projectRoot(path.join(root, 'server'))).toBe(root);
    expect(projectRoot(path.join(root, 'dist', 'chunks'))).toBe(root);
  });

  it('IMAGE_CACHE_MB is a whole number of MB, at least 1', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), IMAGE_CACHE_MB: '64' }).imageCacheMb).toBe(64);
    for (const value of ['0', '1.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), IMAGE_CACHE_MB: value })).toThrow(/IMAGE_CACHE_MB/);
    }
  });

  it('REDIS_URL must be a redis or rediss URL; keys get a prefix', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'supercurate:' });
    expect(loadConfig({ DATA_DIR: dir, REDIS_URL: 'rediss://cache.internal:6380/2' }).redisUrl).toBe('rediss://cache.internal:6380/2');
    expect(() => loadConfig({ DATA_DIR: dir, REDIS_URL: 'http://cache.internal' })).toThrow(/REDIS_URL must be a redis or rediss URL/);
    expect(() => loadConfig({ DATA_DIR: dir, REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/);
  });

  it('keeps uploads in DATA_DIR/uploads unless UPLOADS_DIR names another folder', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).uploadsDir).toBe(path.join(dir, 'uploads'));
    expect(loadConfig({ DATA_DIR: dir, UPLOADS_DIR: '/srv/shared/uploads' }).uploadsDir).toBe('/srv/shared/uploads');
  });

  it('WORKERS is one server process per core by default, at most 8; 1 to 64 when set', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).workers).toBe(Math.min(availableParallelism(), 8));
    expect(loadConfig({ DATA_DIR: dataDir(), WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir(), WORKERS: '12' }).workers).toBe(12);
    for (const [value, message] of [
      ['two', 'WORKERS must be a number'],
      ['0', 'WORKERS must be at least 1 (1 runs one server process, without a cluster)'],
      ['1.5', 'WORKERS must be a whole number of processes'],
      ['65', 'WORKERS must be at most 64'],
    ] as const) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), WORKERS: value })).toThrow(`Invalid configuration:\n  WORKERS: ${message}`);
    }
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://curate.example/' }).publicUrl).toBe(
      'https://curate.example',
    );
  });

  it('lists every bad variable in one clear message', () => {
    const load = () =>
      loadConfig({
        DATA_DIR: dataDir(),
        PORT: 'eighty',
        PUBLIC_URL: 'ftp://x',
        DATABASE_URL: 'mysql://db',
        PREVIEW_ALLOW_PRIVATE: 'maybe',
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/PORT: PORT must be a number/);
    expect(load).toThrow(/PUBLIC_URL: PUBLIC_URL must be a http or https URL/);
    expect(load).toThrow(/DATABASE_URL: DATABASE_URL must be a postgres or postgresql URL/);
    expect(load).toThrow(/PREVIEW_ALLOW_PRIVATE/);
  });

  it('generates the auth secret once, keeps it private in DATA_DIR, and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first);
    const file = path.join(dir, 'secrets', 'auth-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir() }).authSecret).not.toBe(first);
  });

  it('PREVIEW_ALLOW_PRIVATE is off unless explicitly true', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PREVIEW_ALLOW_PRIVATE: 'true' }).previewAllowPrivate).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), PREVIEW_ALLOW_PRIVATE: 'false' }).previewAllowPrivate).toBe(false);
  });

  it('FEDERATION is on when PUBLIC_URL is https, unless set either way', () => {
    const federation = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env }).federation;
    expect(federation({ PUBLIC_URL: 'https://curate.example.org' })).toBe(true);
    expect(federation({ PUBLIC_URL: 'http://localhost:3000' })).toBe(false);
    expect(federation({})).toBe(false);
    expect(federation({ PUBLIC_URL: 'https://curate.example.org', FEDERATION: 'false' })).toBe(false);
    expect(federation({ PUBLIC_URL: 'http://127.0.0.1:3000', FEDERATION: 'true' })).toBe(true);
    expect(() => federation({ FEDERATION: 'yes' })).toThrow(/FEDERATION/);
  });
});
