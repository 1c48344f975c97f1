import { describe, expect, it } from 'vitest';
import { type Box, type Ink, type OcrLine, type OcrWord, ocrPageText, repairHexIds } from '../../web/features/import/ocr-text';

// A line as tesseract reports it: letters between y 10 (ascenders) and 30 (the baseline).
const BASELINE = 30;
const box = (x0: number, x1: number, y0 = 10, y1 = BASELINE): Box => ({ x0, y0, x1, y1 });
const word = (text: string, x0: number, x1: number): OcrWord => ({ text, bbox: box(x0, x1), symbols: [{ bbox: box(x0, x0 + 8) }, { bbox: box(x1 - 8, x1) }] });
const line = (...words: OcrWord[]): OcrLine => ({ words, bbox: box(words[0]!.bbox.x0, words.at(-1)!.bbox.x1, 10, 40), baseline: box(0, 200, BASELINE, BASELINE) });

/** Ink: the words' letters fill their boxes in the x-height band; `marks` adds strokes below. */
function inkWith(words: OcrWord[], marks: Box[] = []): Ink {
  const rects = [...words.map((w) => box(w.bbox.x0, w.bbox.x1, 18, BASELINE)), ...marks];
  return (x, y) => rects.some((r) => x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
}

const page = (l: OcrLine) => [{ paragraphs: [{ lines: [l] }] }];

describe('reading the underscores tesseract drops', () => {
  const canvas = word('https://developer.mozilla.org/en-US/docs/Web/API/Canvas', 0, 40);
  const api = word('API', 60, 100);

  it("joins two words by '_' when a thin stroke lies under the space between them", () => {
    const underscore = box(44, 57, 34, 36);
    expect(ocrPageText(page(line(canvas, api)), inkWith([canvas, api], [underscore]))).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API',
    );
  });

  it('keeps the space when nothing is under it', () => {
    expect(ocrPageText(page(line(canvas, api)), inkWith([canvas, api]))).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/API/Canvas API',
    );
  });

  it('keeps the space under an underline, which runs on under the letters', () => {
    const underline = box(0, 100, 34, 36);
    expect(ocrPageText(page(line(canvas, api)), inkWith([canvas, api], [underline]))).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/API/Canvas API',
    );
  });

  it('keeps the space over a thick bar (a box, not an underscore)', () => {
    const bar = box(44, 57, 31, 45);
    expect(ocrPageText(page(line(canvas, api)), inkWith([canvas, api], [bar]))).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/API/Canvas API',
    );
  });

  it("does not double an underscore tesseract did read ('Canvas_ API')", () => {
    const withUnderscore = word('https://developer.mozilla.org/en-US/docs/Web/API/Canvas_', 0, 40);
    expect(ocrPageText(page(line(withUnderscore, api)), inkWith([withUnderscore, api], [box(44, 57, 34, 36)]))).toBe(
      'https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API',
    );
  });

  it('sets lines apart by a line break and paragraphs by a blank line, as tesseract does', () => {
    const a = line(word('look', 0, 40), word('here', 60, 100));
    const b = line(word('github.com/naptha/tesseract.js', 0, 100));
    const blocks = [{ paragraphs: [{ lines: [a, b] }, { lines: [b] }] }];
    expect(ocrPageText(blocks, () => false)).toBe('look here\ngithub.com/naptha/tesseract.js\n\ngithub.com/naptha/tesseract.js');
  });
});

describe('repairing misread digits of hexadecimal ids', () => {
  it.each([
    ['www.ft.com/content/7d3b2cla-retail-china', 'www.ft.com/content/7d3b2c1a-retail-china'],
    ['commit 9fce2Ib0 landed', 'commit 9fce21b0 landed'],
    ['id 5f0bOa9e', 'id 5f0b0a9e'],
    ['a|b2c3d4', 'a1b2c3d4'],
  ])('%s → %s', (text, repaired) => {
    expect(repairHexIds(text)).toBe(repaired);
  });

  it.each([
    'blog.example.com/fall2024-deals', // the 'l's are not between hex digits
    'decaf-coffee-decal', // no digits
    'hello123', // 'h' is not hexadecimal
    'a1b2cl', // 'l' at the end of the token
    'ab1lcd', // one digit: not an id
    'example.com/llm-tools',
  ])('leaves %s alone', (text) => {
    expect(repairHexIds(text)).toBe(text);
  });
});
