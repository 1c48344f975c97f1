import { browser } from './browser';
import type { PageCapture } from './capture';

/** Why a tab cannot be shared, or null when it can (an http(s) page). */
export function whyNotShareable(url: string | undefined): string | null {
  if (!url) return "Supercurate can't read this tab. Open it from the toolbar button on the page you want to share.";
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return CANNOT_SHARE;
  }
  if (protocol === 'http:' || protocol === 'https:') return null;
  if (protocol === 'file:') return "Files on your computer can't be shared: only web pages (http or https) can.";
  return CANNOT_SHARE;
}

/** Browser pages (chrome://, about:, the extension gallery...), local files, data: and blob: URLs. */
export const CANNOT_SHARE = "This page can't be shared: only web pages (http or https) can.";

/**
 * Reads the tab's live DOM with the capture script (extension/entrypoints/capture.ts), injected on
 * demand with scripting.executeScript — the page keeps no content script of ours. Null when the
 * page can't be scripted (browser pages, the PDF viewer, the web store) or gave nothing back.
 */
export async function captureTab(tabId: number): Promise<PageCapture | null> {
  try {
    const [frame] = await browser.scripting.executeScript({ target: { tabId }, files: ['/capture.js'] });
    const result = frame?.result as PageCapture | undefined;
    return result && typeof result.url === 'string' ? result : null;
  } catch {
    return null;
  }
}

/** The last segment of a URL's path (a PDF's file name), decoded, or ''. */
export function fileNameOf(url: string): string {
  try {
    const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
