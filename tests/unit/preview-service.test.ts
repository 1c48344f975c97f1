import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { authOptions } from '../../server/auth';
import { loadConfig } from '../../server/config';
import { NO_LINK_FACTS } from '../../shared/domain';
import { deleteExpiredPreviews, readCachedPreview } from '../../server/preview/cache';
import { type FetchedPage, FetchFailedError, FetchRefusedError } from '../../server/preview/safe-fetch';
import {
  FALLBACK_TTL_MS,
  PREVIEW_TTL_MS,
  PreviewRefusedError,
  createPreviewService,
  userAgent,
} from '../../server/preview/service';

const URL_A = 'https://site.example/a';

function html(body: string, status = 200, url = URL_A): FetchedPage {
  return {
    url: new URL(url),
    status,
    mediaType: 'text/html',
    contentType: 'text/html; charset=utf-8',
    headers: {},
    redirects: 0,
    body: Buffer.from(body),
    truncated: false,
  };
}

/** A preview with no facts and no suggested format. */
const NONE = { ...NO_LINK_FACTS, format: null };

const OG = '<meta property="og:title" content="Hello"><meta property="og:description" content="World">';

describe('preview service (cache and in-flight sharing)', () => {
  let dir: string;
  let db: Db;
  let clock: Date;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'supercurate-preview-'));
    db = openDatabase({ dataDir: dir });
    await migrate(db, authOptions(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), db));
    clock = new Date('2025-01-01T00:00:00Z');
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (fetchPage: (url: string) => Promise<FetchedPage>, log = { warn: vi.fn() }) =>
    createPreviewService({
      db,
      allowPrivate: false,
      timeoutMs: 5000,
      publicUrl: 'https://curate.example',
      now: () => clock,
      fetchPage,
      log,
    });
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it('shares one fetch between concurrent requests for the same URL', async () => {
    let release!: (page: FetchedPage) => void;
    const fetchPage = vi.fn(() => new Promise<FetchedPage>((resolve) => (release = resolve)));
    const previews = service(fetchPage);
    const all = Promise.all([previews.get(URL_A), previews.get(URL_A), previews.get(URL_A)]);
    await vi.waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(1));
    release(html(OG));
    const results = await all;
    expect(results).toEqual(Array(3).fill({ url: URL_A, title: 'Hello', description: 'World', thumbnailUrl: null, ...NONE }));
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('ignores the fragment for fetching and caching, and answers the URL as asked', async () => {
    const fetchPage = vi.fn(async () => html(OG));
    const previews = service(fetchPage);
    expect(await previews.get(`${URL_A}#one`)).toMatchObject({ url: `${URL_A}#one`, title: 'Hello' });
    expect(await previews.get(`${URL_A}#two`)).toMatchObject({ url: `${URL_A}#two`, title: 'Hello' });
    expect(await previews.get(URL_A)).toMatchObject({ url: URL_A, title: 'Hello' });
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(fetchPage).toHaveBeenCalledWith(URL_A, 'page');
  });

  it('keeps a real preview 24 h in the database, shared by every service instance', async () => {
    const fetchPage = vi.fn(async () => html(OG));
    await service(fetchPage).get(URL_A);
    // Another process: a new service on the same database.
    const other = service(fetchPage);
    later(PREVIEW_TTL_MS - 1000);
    expect(await other.get(URL_A)).toMatchObject({ title: 'Hello' });
    expect(fetchPage).toHaveBeenCalledTimes(1);
    later(2000);
    await other.get(URL_A);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('keeps a fallback only 10 minutes', async () => {
    const fetchPage = vi.fn(async () => {
      throw new FetchFailedError('Timed out');
    });
    const previews = service(fetchPage);
    expect(await previews.get(URL_A)).toEqual({
      url: URL_A,
      title: 'site.example',
      description: 'No preview available',
      thumbnailUrl: null,
      ...NONE,
    });
    later(FALLBACK_TTL_MS - 1000);
    await previews.get(URL_A);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    later(2000);
    await previews.get(URL_A);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('refuses without caching, and lets the next request try again', async () => {
    const fetchPage = vi.fn(async (): Promise<FetchedPage> => {
      throw new FetchRefusedError('http://169.254.169.254/');
    });
    const previews = service(fetchPage);
    await expect(previews.get(URL_A)).rejects.toBeInstanceOf(PreviewRefusedError);
    await expect(previews.get(URL_A)).rejects.toBeInstanceOf(PreviewRefusedError);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(await readCachedPreview(db, URL_A, clock)).toBeNull();
  });

  it('answers the fallback for error statuses, non-HTML and pages with nothing; images preview themselves', async () => {
    const pages: Record<string, FetchedPage> = {
      'https://site.example/404': html(OG, 404),
      'https://site.example/500': html(OG, 500),
      'https://site.example/empty': html('<p>nothing here</p>'),
      'https://site.example/doc.pdf': { ...html(''), mediaType: 'application/pdf' },
      'https://site.example/pic': { ...html('', 200, 'https://cdn.example/pic.png'), mediaType: 'image/png' },
    };
    const previews = service(async (url) => pages[url] as FetchedPage);
    for (const url of ['https://site.example/404', 'https://site.example/500', 'https://site.example/empty']) {
      expect(await previews.get(url)).toEqual({ url, title: 'site.example', description: 'No preview available', thumbnailUrl: null, ...NONE });
    }
    expect(await previews.get('https://site.example/doc.pdf')).toMatchObject({ thumbnailUrl: null });
    expect(await previews.get('https://site.example/pic')).toEqual({
      url: 'https://site.example/pic',
      title: 'site.example',
      description: 'No preview available',
      thumbnailUrl: 'https://cdn.example/pic.png',
      ...NONE,
    });
  });

  it('logs unexpected fetch errors and still answers the fallback', async () => {
    const log = { warn: vi.fn() };
    const previews = service(async () => {
      throw new TypeError('boom');
    }, log);
    expect(await previews.get(URL_A)).toMatchObject({ title: 'site.example' });
    expect(log.warn).toHaveBeenCalledOnce();
  });

  it('sweeps expired rows', async () => {
    await service(async () => html(OG)).get(URL_A);
    expect(await deleteExpiredPreviews(db, clock)).toBe(0);
    later(PREVIEW_TTL_MS + 1);
    expect(await deleteExpiredPreviews(db, clock)).toBe(1);
  });

  it('names itself with a real User-Agent pointing at this server', () => {
    expect(userAgent('https://curate.example')).toBe(
      'Mozilla/5.0 (compatible; SupercurateBot/1.0; +https://curate.example)',
    );
  });
});
