import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';

const DEFAULT_SERVER = 'http://localhost:3000';

// Until the popup exists, the toolbar icon opens the user's Supercurate web app.
export default defineBackground(() => {
  browser.action.onClicked.addListener(async () => {
    const { serverUrl } = await browser.storage.local.get('serverUrl');
    await browser.tabs.create({ url: `${typeof serverUrl === 'string' ? serverUrl : DEFAULT_SERVER}/home` });
  });
});
