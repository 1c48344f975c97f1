import type Tesseract from 'tesseract.js';
import { prepareForOcr } from './ocr-image';
import { recognisePrepared } from './ocr-text';

/**
 * In-browser OCR with tesseract.js. Its worker script, WebAssembly core and English
 * data are served by our server under OCR_BASE (copied there by scripts/ocr-assets.ts at build
 * time), so reading an image makes no request to any other origin. tesseract.js itself is a
 * separate chunk, loaded only when the user opens the image tab. How images are prepared for it:
 * ocr-image.ts; how its page becomes text: ocr-text.ts.
 */
export const OCR_BASE = '/ocr';

export type OcrProgress = { stage: 'loading' } | { stage: 'recognising'; percent: number };

/** Starts fetching the tesseract.js chunk (a few tens of kB); the engine itself loads on first use. */
export function preloadOcr(): void {
  void import('tesseract.js').catch(() => {});
}

let engine: Promise<Tesseract.Worker> | null = null;
let listener: ((progress: OcrProgress) => void) | null = null;

function startEngine(): Promise<Tesseract.Worker> {
  if (engine) return engine;
  const origin = window.location.origin;
  const starting = import('tesseract.js').then(({ default: tesseract }) =>
    tesseract.createWorker('eng', undefined, {
      workerPath: `${origin}${OCR_BASE}/worker.min.js`,
      corePath: `${origin}${OCR_BASE}/core`,
      langPath: `${origin}${OCR_BASE}/lang`,
      gzip: true,
      // A blob: worker would importScripts our worker file; a same-origin worker is simpler for the CSP.
      workerBlobURL: false,
      logger: (message) => {
        if (message.status === 'recognizing text') listener?.({ stage: 'recognising', percent: message.progress * 100 });
      },
    }),
  );
  engine = starting;
  // A failed start is forgotten, so the next image tries again.
  starting.catch(() => {
    if (engine === starting) engine = null;
  });
  return starting;
}

/** Stops the engine (the import panel closed); the next recognition starts a new one. */
export function stopOcr(): void {
  const running = engine;
  engine = null;
  void running?.then((worker) => worker.terminate()).catch(() => {});
}

/** The image prepared for recognition (prepareForOcr: dark text on light, contrast, scale). */
async function prepareImage(image: Blob): Promise<HTMLCanvasElement> {
  const bitmap = await createImageBitmap(image);
  try {
    return prepareForOcr(bitmap);
  } finally {
    bitmap.close();
  }
}

/** The text in an image. Reports 'loading' until the engine is up, then the recognition's percent. */
export async function recogniseImage(image: Blob, onProgress: (progress: OcrProgress) => void): Promise<string> {
  listener = onProgress;
  try {
    onProgress({ stage: 'loading' });
    const [worker, prepared] = await Promise.all([startEngine(), prepareImage(image)]);
    onProgress({ stage: 'recognising', percent: 0 });
    return await recognisePrepared(worker, prepared);
  } finally {
    if (listener === onProgress) listener = null;
  }
}
