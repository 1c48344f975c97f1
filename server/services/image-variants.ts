import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS, type ImageWidth } from '../../shared/domain';
import { imageWidth, reencodeImage } from './images';
import { limiter } from './limiter';

/**
 * Thumbnails resized for `srcset` (`?w=` on the image proxy and on uploaded images): a WebP of
 * one of IMAGE_WIDTHS, never enlarged, made from the image we already keep (the proxy's WebP,
 * the re-encoded upload) and cached on disk. The cache is derived data: any file of it may go at
 * any time, and it is kept under a size limit by removing the least recently used files.
 */

/** DATA_DIR/cache/images: the cache's folder (one per DATA_DIR, shared by the server processes). */
export const imageCacheDir = (config: { dataDir: string }) => path.join(config.dataDir, 'cache', 'images');

export const INVALID_IMAGE_WIDTH = {
  error: `Image width must be one of ${IMAGE_WIDTHS.join(', ')}`,
  code: 'INVALID_IMAGE_WIDTH',
} as const;

/** A `w` query parameter: undefined when absent, the width when allowed, else 'invalid'. */
export function parseImageWidth(raw: unknown): ImageWidth | undefined | 'invalid' {
  if (raw === undefined) return undefined;
  return IMAGE_WIDTHS.find((width) => String(width) === raw) ?? 'invalid';
}

/** Resizes running at once (sharp uses a thread per core of its own besides). */
export const VARIANT_CONCURRENCY = 2;
/** Reading a cached file renews its place in the eviction order at most this often (one write per hour). */
export const VARIANT_TOUCH_AFTER_MS = 60 * 60 * 1000;
/** Over the limit, the oldest files go until the cache is down to this share of it. */
export const VARIANT_SWEEP_TO = 0.8;

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface ImageVariantsOptions {
  dir: string;
  /** Size limit of the cache's files. Each process counts its own writes and sweeps past the limit. */
  maxBytes: number;
  log?: Logger;
  now?: () => number;
}

/** The file a variant is kept in: <dir>/<2 hex>/<sha256 of the source's storage key>-<width>.webp. */
export function imageVariantFile(dir: string, sourceKey: string, width: ImageWidth): string {
  const hash = createHash('sha256').update(sourceKey).digest('hex');
  return path.join(dir, hash.slice(0, 2), `${hash}-${width}.webp`);
}

export interface ImageVariants {
  /** The cached variant, or null (never made, or evicted). */
  cached(sourceKey: string, width: ImageWidth): Promise<Buffer | null>;
  /**
   * `source` (the image kept under `sourceKey`) as a WebP `width` px wide, then cached. A source
   * no wider than that is returned as it is, and nothing is cached. Requests for a variant being
   * made share that work.
   */
  resized(sourceKey: string, width: ImageWidth, source: Buffer): Promise<Buffer>;
  /** Resolves when no sweep is running (for tests). */
  settled(): Promise<void>;
}

interface Entry {
  file: string;
  size: number;
  mtimeMs: number;
}

export function createImageVariants(opts: ImageVariantsOptions): ImageVariants {
  const now = opts.now ?? Date.now;
  const limit = limiter(VARIANT_CONCURRENCY);
  const inFlight = new Map<string, Promise<Buffer>>();
  /** Bytes in the cache as this process knows them: counted by the last sweep plus its own writes since. */
  let bytes: number | null = null;
  let sweeping: Promise<void> | null = null;

  const file = (sourceKey: string, width: ImageWidth) => imageVariantFile(opts.dir, sourceKey, width);

  async function entries(): Promise<Entry[]> {
    const found: Entry[] = [];
    for (const sub of await listing(opts.dir)) {
      for (const name of await listing(path.join(opts.dir, sub))) {
        const at = path.join(opts.dir, sub, name);
        const info = await stat(at).catch(() => null);
        if (info?.isFile()) found.push({ file: at, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
    return found;
  }

  /** Counts the cache's files and, past the limit, removes the least recently used ones. */
  async function sweep() {
    const found = await entries();
    let total = found.reduce((sum, e) => sum + e.size, 0);
    if (total > opts.maxBytes) {
      found.sort((a, b) => a.mtimeMs - b.mtimeMs);
      for (const entry of found) {
        if (total <= opts.maxBytes * VARIANT_SWEEP_TO) break;
        await rm(entry.file, { force: true });
        total -= entry.size;
      }
    }
    bytes = total;
  }

  function added(size: number) {
    if (bytes !== null) bytes += size;
    if (sweeping || (bytes !== null && bytes <= opts.maxBytes)) return;
    sweeping = sweep()
      .catch((err: unknown) => opts.log?.warn({ err, dir: opts.dir }, 'image variants: sweep failed'))
      .finally(() => (sweeping = null));
  }

  async function store(at: string, image: Buffer) {
    await mkdir(path.dirname(at), { recursive: true });
    // Written aside and renamed: a reader (another process too) never sees half a file.
    const temporary = `${at}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, image);
      await rename(temporary, at);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    added(image.length);
  }

  async function make(at: string, width: ImageWidth, source: Buffer): Promise<Buffer> {
    if ((await imageWidth(source)) <= width) return source;
    const image = await reencodeImage(source, { width, withoutEnlargement: true });
    try {
      await store(at, image);
    } catch (err) {
      // The image is still good; only the cache missed out.
      opts.log?.warn({ err, file: at }, 'image variants: cache write failed');
    }
    return image;
  }

  return {
    async cached(sourceKey, width) {
      const at = file(sourceKey, width);
      const handle = await open(at, 'r').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (!handle) return null;
      try {
        const [info, image] = [await handle.stat(), await handle.readFile()];
        if (now() - info.mtimeMs > VARIANT_TOUCH_AFTER_MS) {
          const time = new Date(now());
          void utimes(at, time, time).catch(() => {});
        }
        return image.length > 0 ? image : null;
      } finally {
        await handle.close();
      }
    },
    resized(sourceKey, width, source) {
      const at = file(sourceKey, width);
      let started = inFlight.get(at);
      if (!started) {
        started = limit(() => make(at, width, source)).finally(() => inFlight.delete(at));
        inFlight.set(at, started);
      }
      return started;
    },
    async settled() {
      await sweeping;
    },
  };
}

/** The names in a folder; none when it does not exist (yet). */
async function listing(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}
