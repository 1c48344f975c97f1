import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** Text formats worth compressing; images and the gzipped OCR data are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
/** Below this a compressed copy saves less than its headers and a lookup cost. */
export const PRECOMPRESS_MIN_BYTES = 1024;
/**
 * Brotli's best quality (11) costs ~8 s per 4 MB OCR core on this machine for 12% fewer bytes
 * than quality 9; the app's own files are far smaller and get 11.
 */
const LARGE_FILE_BYTES = 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes `<file>.br` and `<file>.gz` next to each compressible file of `dir` (when smaller). */
export async function precompressDir(dir: string): Promise<void> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.has(path.extname(file)));
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file);
      if (source.length < PRECOMPRESS_MIN_BYTES) return;
      const quality = source.length > LARGE_FILE_BYTES ? 9 : constants.BROTLI_MAX_QUALITY;
      const [br, gz] = await Promise.all([
        brotli(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
        gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < source.length) await writeFile(`${file}.br`, br);
      if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}

/**
 * Vite plugin: after `vite build` has written everything (other plugins' copies included), each
 * text file of the output gets brotli and gzip siblings, which the server sends as they are
 * (@fastify/static `preCompressed`). Source maps are left to on-the-fly compression: only
 * developer tools fetch them.
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'supercurate-precompress',
    // The browser's build only: a server bundle is read from disk, never sent.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      async handler() {
        await precompressDir(path.resolve(config.root, config.build.outDir));
      },
    },
  };
}
