import type Tesseract from 'tesseract.js';

/**
 * In-browser OCR with tesseract.js (issue 6). Its worker script, WebAssembly core and English
 * data are served by our server under OCR_BASE (copied there by scripts/ocr-assets.ts at build
 * time), so reading an image makes no request to any other origin. tesseract.js itself is a
 * separate chunk, loaded only when the user opens the image tab.
 */
export const OCR_BASE = '/ocr';

/** Wider images are scaled down to this width: recognition time grows with pixels, accuracy doesn't. */
export const OCR_MAX_WIDTH = 2500;
/**
 * Narrower images are scaled up 2x: small text reads better larger. Up to 1600 px wide, so desktop
 * screenshots (1280x800) are included: URL recall on the bench's 24 screenshots rose from 66% to
 * 89% that way, for about 1 s more recognition.
 */
export const OCR_UPSCALE_BELOW = 1600;
/** And no image is drawn with more pixels than this (very long scrolling screenshots). */
export const OCR_MAX_PIXELS = 24_000_000;

export type OcrProgress = { stage: 'loading' } | { stage: 'recognising'; percent: number };

/** The factor an image of this size is drawn at before recognition. */
export function ocrScale(width: number, height: number): number {
  let scale = width > OCR_MAX_WIDTH ? OCR_MAX_WIDTH / width : width < OCR_UPSCALE_BELOW ? 2 : 1;
  const pixels = width * scale * height * scale;
  if (pixels > OCR_MAX_PIXELS) scale *= Math.sqrt(OCR_MAX_PIXELS / pixels);
  return scale;
}

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

/** The image drawn on a white canvas at ocrScale, as a PNG. */
async function prepareImage(image: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(image);
  try {
    const scale = ocrScale(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    // Transparent pixels would read as black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas export failed'))), 'image/png'),
    );
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
    const { data } = await worker.recognize(prepared);
    return data.text;
  } finally {
    if (listener === onProgress) listener = null;
  }
}
