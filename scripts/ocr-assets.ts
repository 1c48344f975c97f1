import { copyFileSync, createReadStream, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * The in-browser OCR engine's files, served from our own origin so that reading a
 * screenshot makes no request to any other: tesseract.js's worker script, the three LSTM-only
 * WebAssembly cores (plain, SIMD, relaxed SIMD; the worker picks the one the browser supports)
 * and the English trained data, gzipped (the worker gunzips it). Copied from their npm packages,
 * so the versions are the ones package-lock.json pins.
 *
 * URL paths (under the site root) → package files. web/features/import/ocr.ts uses the same paths.
 */
export const OCR_BASE = '/ocr';

/** A package's folder, resolved as `from` (a file) would resolve it. */
const packageDir = (name: string, from = import.meta.url) =>
  path.dirname(createRequire(from).resolve(`${name}/package.json`));

export function ocrAssetFiles(): Record<string, string> {
  const tesseract = packageDir('tesseract.js');
  // The core tesseract.js itself depends on.
  const core = packageDir('tesseract.js-core', path.join(tesseract, 'package.json'));
  const eng = packageDir('@tesseract.js-data/eng');
  return {
    'worker.min.js': path.join(tesseract, 'dist/worker.min.js'),
    'core/tesseract-core-lstm.wasm.js': path.join(core, 'tesseract-core-lstm.wasm.js'),
    'core/tesseract-core-simd-lstm.wasm.js': path.join(core, 'tesseract-core-simd-lstm.wasm.js'),
    'core/tesseract-core-relaxedsimd-lstm.wasm.js': path.join(core, 'tesseract-core-relaxedsimd-lstm.wasm.js'),
    'lang/eng.traineddata.gz': path.join(eng, '4.0.0_best_int/eng.traineddata.gz'),
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.gz': 'application/gzip',
};

/**
 * Vite plugin: `vite build` copies the OCR files to <outDir>/ocr/, and `vite dev` serves them at
 * /ocr/ straight from node_modules.
 */
export function ocrAssets(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'supercurate-ocr-assets',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      const files = ocrAssetFiles();
      server.middlewares.use((req, res, next) => {
        const pathname = (req.url ?? '').split('?')[0] ?? '';
        if (!pathname.startsWith(`${OCR_BASE}/`)) return next();
        const file = files[pathname.slice(OCR_BASE.length + 1)];
        if (!file) {
          res.statusCode = 404;
          res.end('Not found');
          return;
        }
        res.setHeader('content-type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
        res.setHeader('content-length', statSync(file).size);
        createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      if (config.command !== 'build') return;
      const outDir = path.resolve(config.root, config.build.outDir);
      for (const [name, source] of Object.entries(ocrAssetFiles())) {
        const target = path.join(outDir, OCR_BASE.slice(1), name);
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(source, target);
      }
    },
  };
}
