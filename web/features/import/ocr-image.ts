/**
 * Preparing a screenshot for tesseract.js: pure pixel work on RGBA data, so the app
 * (ocr.ts) and the bench (bench/import.ts, which bundles this file into its page) prepare images
 * the same way.
 *
 *  1. a dark-mode screenshot (median luma below the middle) is inverted, so the text is dark on
 *     light as tesseract's models were trained (and it reads two to four times faster);
 *  2. grey levels that keep coloured text dark (textLevels);
 *  3. the grey range is stretched to 0..255 (STRETCH_TAIL clipped), so faint text gains contrast;
 *  4. the image is drawn at the factor that brings its text lines near OCR_TARGET_LINE_HEIGHT
 *     (measured from the rows that cross glyph edges), within the size limits below.
 */

/** No image is scaled up beyond this width: recognition time grows with pixels. */
export const OCR_MAX_WIDTH = 4000;
/** And no image is drawn with more pixels than this (very long scrolling screenshots). */
export const OCR_MAX_PIXELS = 24_000_000;
/**
 * The text line height (ink, ascenders to descenders) images are scaled towards: 56 px, an
 * x-height near 28 px, at the top of tesseract's sweet spot, but never more than OCR_MAX_SCALE.
 * Desktop screenshots (14-30 px fonts, lines of 10-28 px) are drawn at 2x, phone screenshots (3x
 * pixel density) at about 1.2x. Measured: scaling beyond 2x (2.3-3x on the bench's screenshots)
 * recognised no better and took twice as long; scaling 30 px text by only 1.3x (a 36 px target)
 * misread 'ocr' as 'oct' where 2x read it right.
 */
export const OCR_TARGET_LINE_HEIGHT = 56;
/** Scale factors are kept within these. */
export const OCR_MIN_SCALE = 0.5;
export const OCR_MAX_SCALE = 2;
/** The scale when no text line can be measured. */
export const OCR_DEFAULT_SCALE = 2;

/** Luma of each pixel of RGBA data, composited on white (transparent pixels would read as black). */
export function greyLevels(rgba: Uint8ClampedArray): Uint8Array {
  const grey = new Uint8Array(rgba.length / 4);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const a = rgba[i + 3]! / 255;
    const luma = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    grey[p] = Math.round(luma * a + 255 * (1 - a));
  }
  return grey;
}

/**
 * Grey levels for recognition, text dark on light: on a light background each pixel's darkest
 * channel, on a dark one 255 minus its brightest. Coloured text (links) then stands out as much as
 * black or white text does; luma would leave a blue link mid-grey on a dark card.
 */
export function textLevels(rgba: Uint8ClampedArray, dark: boolean): Uint8Array {
  const grey = new Uint8Array(rgba.length / 4);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const a = rgba[i + 3]! / 255;
    const r = rgba[i]!;
    const g = rgba[i + 1]!;
    const b = rgba[i + 2]!;
    const level = dark ? 255 - Math.max(r, g, b) : Math.min(r, g, b);
    // Transparent pixels are taken as the background.
    grey[p] = Math.round(level * a + 255 * (1 - a));
  }
  return grey;
}

export function histogram(grey: Uint8Array): Uint32Array {
  const hist = new Uint32Array(256);
  for (const g of grey) hist[g]!++;
  return hist;
}

/**
 * True when the background is dark (light text on it): the median grey level, which the
 * background dominates, is below the middle. (Otsu's split would not do: on a chat screenshot it
 * can fall between the white page and its light grey bubbles.)
 */
export function isDarkBackground(hist: Uint32Array): boolean {
  return percentileLevel(hist, 0.5) < 128;
}

function percentileLevel(hist: Uint32Array, fraction: number): number {
  let total = 0;
  for (const n of hist) total += n;
  const target = total * fraction;
  let seen = 0;
  for (let g = 0; g < 256; g++) {
    seen += hist[g]!;
    if (seen > target) return g;
  }
  return 255;
}

/**
 * The share of pixels at each end of the grey range that the stretch lets clip. Small: text can be
 * well under 1% of a screenshot, and a larger tail would stretch a chat bubble's tint to black.
 */
const STRETCH_TAIL = 0.0005;

/** Stretches the grey range to 0..255 (STRETCH_TAIL clipped at each end). */
export function stretchContrast(grey: Uint8Array): Uint8Array {
  const hist = histogram(grey);
  const low = percentileLevel(hist, STRETCH_TAIL);
  const high = percentileLevel(hist, 1 - STRETCH_TAIL);
  const span = Math.max(1, high - low);
  const lut = new Uint8Array(256);
  for (let g = 0; g < 256; g++) lut[g] = Math.max(0, Math.min(255, Math.round(((g - low) * 255) / span)));
  const out = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = lut[grey[i]!]!;
  return out;
}

/** RGBA pixels to grey levels ready for recognition: dark text on light, contrast stretched. */
export function normalisePixels(rgba: Uint8ClampedArray): { grey: Uint8Array; inverted: boolean } {
  const inverted = isDarkBackground(histogram(greyLevels(rgba)));
  return { grey: stretchContrast(textLevels(rgba, inverted)), inverted };
}

/** A step between neighbouring pixels at least this large is a glyph's edge. */
const EDGE_STEP = 64;
/** A row crossing this many edges crosses text (a bubble's or a rule's row crosses a few). */
const TEXT_ROW_EDGES = 6;

/**
 * The median height of the text lines: runs of rows crossing many sharp edges (glyph strokes), so
 * that filled bubbles, cards and rules, of any tint, don't count. Runs shorter than 5 px are not
 * text that can be measured. Null when there are none.
 */
export function medianLineHeight(grey: Uint8Array, width: number, height: number): number | null {
  const runs: number[] = [];
  let run = 0;
  for (let y = 0; y <= height; y++) {
    let edges = 0;
    if (y < height) {
      const row = y * width;
      for (let x = 1; x < width; x++) if (Math.abs(grey[row + x]! - grey[row + x - 1]!) >= EDGE_STEP) edges++;
    }
    if (edges >= TEXT_ROW_EDGES) {
      run++;
    } else {
      if (run >= 5) runs.push(run);
      run = 0;
    }
  }
  if (runs.length === 0) return null;
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

/**
 * The factor an image is drawn at before recognition: the one that brings its median text line to
 * OCR_TARGET_LINE_HEIGHT, or OCR_DEFAULT_SCALE without a measured line, within the scale and
 * size limits.
 */
export function ocrScale(width: number, height: number, lineHeight: number | null = null): number {
  let scale = lineHeight ? OCR_TARGET_LINE_HEIGHT / lineHeight : OCR_DEFAULT_SCALE;
  scale = Math.max(OCR_MIN_SCALE, Math.min(OCR_MAX_SCALE, scale));
  if (scale > 1 && width * scale > OCR_MAX_WIDTH) scale = Math.max(1, OCR_MAX_WIDTH / width);
  const pixels = width * scale * height * scale;
  if (pixels > OCR_MAX_PIXELS) scale *= Math.sqrt(OCR_MAX_PIXELS / pixels);
  return scale;
}

/** Grey levels back to RGBA (opaque). */
export function toRgba(grey: Uint8Array, rgba: Uint8ClampedArray): void {
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    rgba[i] = rgba[i + 1] = rgba[i + 2] = grey[p]!;
    rgba[i + 3] = 255;
  }
}

/**
 * The image prepared for recognition on a canvas: grey, dark text on light, contrast stretched,
 * drawn at ocrScale. Browser only (document canvas).
 */
export function prepareForOcr(bitmap: ImageBitmap): HTMLCanvasElement {
  const source = document.createElement('canvas');
  source.width = bitmap.width;
  source.height = bitmap.height;
  const sourceContext = source.getContext('2d', { willReadFrequently: true });
  if (!sourceContext) throw new Error('no 2d canvas');
  sourceContext.drawImage(bitmap, 0, 0);
  const pixels = sourceContext.getImageData(0, 0, source.width, source.height);
  const { grey } = normalisePixels(pixels.data);
  toRgba(grey, pixels.data);
  sourceContext.putImageData(pixels, 0, 0);

  const scale = ocrScale(bitmap.width, bitmap.height, medianLineHeight(grey, bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/*
 * Tried on the bench's 24 screenshots and left out: Otsu binarisation before recognition (recall
 * 88% → 79%: anti-aliased strokes and tinted bubbles lose detail tesseract's own thresholding
 * keeps), nearest-neighbour upscaling (79%), inverting dark mode by luma (88%), Sauvola
 * thresholding (thresholding_method 2), page segmentation mode 6, the larger 4.0.0 English data,
 * and disabling the dictionaries (load_system_dawg, load_freq_dawg): no URL more or fewer.
 */
