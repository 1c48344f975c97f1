/**
 * From tesseract's recognised page to the text the import searches for URLs, with two
 * repairs of what its English model gets wrong in links. Pure (the pixels come in as a function),
 * so the app (ocr.ts) and the bench (bench/import.ts) build the text the same way.
 *
 *  - Underscores: the model drops most of them, so 'Canvas_API' comes out as the two words
 *    'Canvas API'. Where the space between two words of a line is empty in the x-height band but
 *    has a thin stroke below the baseline that does not run on under the neighbouring letters (an
 *    underline would), the words are joined by '_' (underscoreBetween).
 *  - Hexadecimal ids: 'l', 'I' or '|' (for 1) and 'o' or 'O' (for 0) between two hex digits of a
 *    token that is otherwise hexadecimal, with at least six characters and three digits, are read
 *    as the digit ('7d3b2cla' → '7d3b2c1a'; repairHexIds). Words are not touched: 'decal' has no
 *    digits, and 'fall2024' keeps its 'l's, which don't sit between hex digits.
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The parts of tesseract.js's blocks output (recognize(…, { blocks: true })) read here. */
export interface OcrWord {
  text: string;
  bbox: Box;
  symbols: { bbox: Box }[];
}
export interface OcrLine {
  words: OcrWord[];
  bbox: Box;
  baseline: Box;
}
export interface OcrBlock {
  paragraphs: { lines: OcrLine[] }[];
}

/** True where the prepared image (dark text on light) has ink. */
export type Ink = (x: number, y: number) => boolean;

/**
 * Grey levels below this are ink. Not the middle: a 1 px underscore, scaled up with smoothing,
 * comes out mid-grey (130-160); backgrounds, tinted bubbles included, are stretched above 220.
 */
const INK_LEVEL = 192;

/** Ink of RGBA pixels of an image prepared by prepareForOcr (grey, dark text on light). */
export function inkOf(rgba: Uint8ClampedArray, width: number, height: number): Ink {
  return (x, y) => x >= 0 && y >= 0 && x < width && y < height && rgba[(y * width + x) * 4]! < INK_LEVEL;
}

/** An underscore's stroke spans at least this share of the space it sits in. */
const STROKE_SHARE = 0.5;
/** Pixels a stroke may reach past the space (anti-aliasing); an underline runs on much further. */
const STROKE_SPILL = 2;

function baselineAt(line: OcrLine, x: number): number {
  const { x0, y0, x1, y1 } = line.baseline;
  return x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/**
 * The widest run of columns in [from, to) with no ink in rows [top, bottom], or null.
 */
function emptyColumns(ink: Ink, from: number, to: number, top: number, bottom: number): [number, number] | null {
  let best: [number, number] | null = null;
  let start = -1;
  for (let x = from; x <= to; x++) {
    let empty = x < to;
    for (let y = top; empty && y <= bottom; y++) if (ink(x, y)) empty = false;
    if (empty && start < 0) start = x;
    if (!empty && start >= 0) {
      if (!best || x - start > best[1] - best[0]) best = [start, x];
      start = -1;
    }
  }
  return best;
}

/**
 * Whether row y has an underscore's stroke in the space [left, right): a run of ink at least
 * STROKE_SHARE of its width that stays within it (an underline runs on under the letters).
 */
function strokeIn(ink: Ink, y: number, left: number, right: number): boolean {
  let x = left;
  while (x < right) {
    if (!ink(x, y)) {
      x++;
      continue;
    }
    let start = x;
    while (ink(start - 1, y) && left - start < STROKE_SPILL + 1) start--;
    let end = x;
    while (ink(end, y) && end - right < STROKE_SPILL + 1) end++;
    if (left - start <= STROKE_SPILL && end - right <= STROKE_SPILL && end - start >= STROKE_SHARE * (right - left)) return true;
    x = end;
  }
  return false;
}

/** Whether the space between words `a` and `b` of `line` holds an underscore tesseract dropped. */
export function underscoreBetween(line: OcrLine, a: OcrWord, b: OcrWord, ink: Ink): boolean {
  const from = a.symbols.at(-1)?.bbox.x0 ?? a.bbox.x0;
  const to = b.symbols[0]?.bbox.x1 ?? b.bbox.x1;
  if (to <= from) return false;
  const base = Math.round(baselineAt(line, (from + to) / 2));
  const body = base - line.bbox.y0;
  if (body < 6) return false;
  // The space itself: columns with nothing in the x-height band.
  const gap = emptyColumns(ink, from, to, base - Math.round(body * 0.5), base - 2);
  if (!gap || gap[1] - gap[0] < 3) return false;
  let strokeRows = 0;
  for (let y = base + 1; y <= base + Math.max(3, Math.round(body * 0.45)); y++) {
    if (strokeIn(ink, y, gap[0], gap[1])) strokeRows++;
  }
  // Thin: a box or a thick bar below the line is something else.
  return strokeRows > 0 && strokeRows <= Math.max(4, body * 0.3);
}

const HEX_TOKEN = /[0-9A-Za-z|]{6,}/g;
const CONFUSED: Record<string, string> = { l: '1', I: '1', '|': '1', o: '0', O: '0' };
const isHex = (ch: string | undefined) => ch !== undefined && /[0-9a-fA-F]/.test(ch);

/** Misread digits of hexadecimal ids put back ('7d3b2cla' → '7d3b2c1a'); see the module comment. */
export function repairHexIds(text: string): string {
  return text.replace(HEX_TOKEN, (token) => {
    const chars = [...token];
    if (!chars.every((ch) => isHex(ch) || ch in CONFUSED)) return token;
    if (chars.filter((ch) => /[0-9]/.test(ch)).length < 3) return token;
    return chars
      .map((ch, i) => (ch in CONFUSED && isHex(chars[i - 1]) && isHex(chars[i + 1]) ? CONFUSED[ch] : ch))
      .join('');
  });
}

/** The page's text (paragraphs apart by a blank line, as tesseract's own text), both repairs made. */
export function ocrPageText(blocks: OcrBlock[], ink: Ink): string {
  const paragraphs = blocks.flatMap((block) =>
    block.paragraphs.map((paragraph) =>
      paragraph.lines
        .map((line) =>
          line.words
            .map((word, i) => {
              const previous = line.words[i - 1];
              if (!previous) return word.text;
              if (!underscoreBetween(line, previous, word, ink)) return ` ${word.text}`;
              return previous.text.endsWith('_') ? word.text : `_${word.text}`;
            })
            .join(''),
        )
        .join('\n'),
    ),
  );
  return repairHexIds(paragraphs.join('\n\n'));
}

/** The part of a tesseract.js worker used here. */
export interface TextRecogniser {
  recognize(
    image: HTMLCanvasElement,
    options: object,
    output: { text: boolean; blocks: boolean },
  ): Promise<{ data: { blocks: OcrBlock[] | null } }>;
}

/** The text in an image prepared by prepareForOcr, read by `worker`. Browser only (canvas). */
export async function recognisePrepared(worker: TextRecogniser, canvas: HTMLCanvasElement): Promise<string> {
  const { data } = await worker.recognize(canvas, {}, { text: false, blocks: true });
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  return ocrPageText(data.blocks ?? [], inkOf(pixels.data, canvas.width, canvas.height));
}
