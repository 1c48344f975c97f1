import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { capturePage } from '../lib/capture';

/**
 * Injected on demand into the page the user shares (scripting.executeScript with this file, under
 * activeTab): reads its live DOM and returns the capture, which executeScript hands back. It adds
 * no listener and leaves nothing running in the page.
 */
export default defineUnlistedScript(() => capturePage(document));
