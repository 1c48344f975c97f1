import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { langFact } from '../preview/metadata';
import { sanitiseArticle } from './sanitise';

/** A readable copy is at most this big, as sanitised HTML (issue 23). */
export const READABLE_COPY_MAX_BYTES = 2 * 1024 * 1024;

export interface ReadableCopy {
  /** Sanitised HTML (server/readable/sanitise.ts), at most READABLE_COPY_MAX_BYTES. */
  html: string;
  /** The plain text, paragraphs on lines of their own, for search and the word count. */
  text: string;
  wordCount: number;
  lang: string | null;
}

const BLOCKS = new Set(['P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'DT', 'DD', 'BLOCKQUOTE', 'PRE', 'TR', 'TD', 'TH', 'FIGCAPTION', 'CAPTION']);

/** The text of sanitised HTML, a line per block. */
function textOf(body: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) parts.push(child.nodeValue ?? '');
      else if (child.nodeType === 1) {
        walk(child);
        if (BLOCKS.has((child as Element).tagName)) parts.push('\n');
      }
    }
  };
  walk(body);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

const countWords = (text: string) => text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;

/** Cuts HTML to at most `max` UTF-8 bytes at a tag's start, the sanitiser then closing what is open. */
function cutHtml(html: string, max: number, base: URL): string {
  const bytes = Buffer.from(html, 'utf8');
  if (bytes.length <= max) return html;
  const head = bytes.subarray(0, max).toString('utf8');
  return sanitiseArticle(head.slice(0, Math.max(0, head.lastIndexOf('<'))), base);
}

/**
 * A copy made of an article's HTML that is already the readable part of a page (what the extension
 * extracted in the user's browser): sanitised, cut to size, its text read. Null when nothing
 * readable is left.
 */
export function copyOfArticle(articleHtml: string, pageUrl: URL, lang: string | null): ReadableCopy | null {
  const html = cutHtml(sanitiseArticle(articleHtml, pageUrl), READABLE_COPY_MAX_BYTES, pageUrl);
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const text = textOf(document.body as unknown as Element);
  if (!text) return null;
  return { html, text, wordCount: countWords(text), lang: langFact(lang) };
}

/** The readable copy of a whole page (Readability's article), or null when it finds none. */
export function extractReadable(pageHtml: string, pageUrl: URL): ReadableCopy | null {
  const { document } = parseHTML(pageHtml);
  const lang = document.documentElement?.getAttribute('lang') ?? null;
  let article: { content?: string | null; lang?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as Document, { charThreshold: 200, keepClasses: false }).parse();
  } catch {
    return null;
  }
  if (!article?.content) return null;
  return copyOfArticle(article.content, pageUrl, article.lang ?? lang);
}
