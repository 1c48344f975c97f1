/**
 * The store listing's text. The summary is also the manifest's `description`, which the
 * Chrome Web Store shows as the listing's summary (at most 132 characters) and AMO offers as its
 * summary (at most 250). `npm run store:assets` writes both texts into `.output/store/`.
 * What the permissions paragraph says must stay true of `wxt.config.ts`.
 */

/** The Chrome Web Store's limit on the summary (the manifest's description). */
export const STORE_SUMMARY_MAX_LENGTH = 132;

export const STORE_SUMMARY =
  'Internet. Curated. Share the page you are on to your own Supercurate server in one click, and file it into your collections.';

/** Plain text (both stores accept it): paragraphs and "• " lists, no markup. */
export const STORE_DESCRIPTION = `Supercurate is a link-curation app you run on your own server. This extension is its shortcut in the browser: share the page you are reading, tag it, and file it into your collections without leaving the tab.

Internet. Curated.
Choosing well among too many links is the whole point. In Supercurate you share links with a title, a description and a thumbnail, tag them with a format (article, video, podcast, newsletter, tool, tutorial…) and topics, and group them into supercurations: named collections, private or public, that you can curate together with collaborators. Visitors browse your public collections and can subscribe to them by e-mail.

What the extension does
• Preview & Share in one click: the toolbar button (or Alt+Shift+S) opens a form already filled from the page itself — its title, description, image and canonical address, with a guessed format. Pick topics and collections, then Share.
• Shared it before? The popup says so and edits that link instead of posting it twice, and the toolbar button shows ✓ on pages you shared.
• Add to supercuration: right-click a page or a link and pick one of your collections, or one you collaborate on. A notification confirms it.
• One account everywhere: signing in from the extension signs you in to your Supercurate web app too.

Your data goes to your server, and nowhere else
The extension talks to one server only: the address you enter in its options, where you run Supercurate. No analytics, no ads, no third-party services.
• What it sends, to your server only: your e-mail and password when you sign in, and the pages you choose to share (their address, title, description or opening text, and image).
• It reads a page only when you ask: when you click its button, press the shortcut or use its menu on that page. No script of ours runs on the pages you browse.
• Optional, off unless you turn it on: "Mark every page I already shared" lets the ✓ check each page you visit against your server, which means sending your server the address of those pages. The browser asks for your permission first, and you can turn it off at any time.

Permissions, and why
• activeTab and scripting: read the page you invoke Supercurate on, only then.
• contextMenus: the "Add to supercuration" menu.
• notifications: confirm what the menu added.
• storage: your server's address and the account you signed in with.
• Your server's address (asked for when you save it in the options), and, only if you turn on "Mark every page I already shared", tabs.

You need a Supercurate server
Supercurate is self-hosted: one Node.js server, with SQLite or PostgreSQL. Once it runs, open the extension's options, enter the address you open Supercurate at, and sign in with your account.`;
