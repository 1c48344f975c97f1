import { type Browser, browser as wxtBrowser } from 'wxt/browser';

/**
 * WXT's `browser` (Chrome's `chrome`, Firefox's `browser`), typed with the plain extension API
 * types: WXT's own typing of `runtime.getURL` and `scripting.executeScript({ files })` relies on
 * paths generated into .wxt/, which the project's tsconfig does not include.
 */
export const browser = wxtBrowser as unknown as typeof Browser;
export type { Browser };
