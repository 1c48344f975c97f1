import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, trustedOriginMatcher } from '../../server/config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'supercurate-origins-'));

describe('origins allowed to make signed-in writes (the browser extension)', () => {
  it('trusts any Chrome or Firefox extension by default, besides PUBLIC_URL and TRUSTED_ORIGINS', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), TRUSTED_ORIGINS: 'https://admin.example' });
    expect(config.extensionOrigins).toEqual(['chrome-extension://*', 'moz-extension://*']);
    const trusted = trustedOriginMatcher(config);
    expect(trusted('http://localhost:3000')).toBe(true);
    expect(trusted('https://admin.example')).toBe(true);
    expect(trusted('chrome-extension://abcdefghijklmnopabcdefghijklmnop')).toBe(true);
    expect(trusted('moz-extension://0f7d2c4e-1b2a-4c3d-9e8f-123456789abc')).toBe(true);
    for (const origin of ['https://evil.example', 'chrome-extension://', 'chrome-extension://a/b', 'chrome-extension://a.b', 'null', 'safari-web-extension://x']) {
      expect(trusted(origin), origin).toBe(false);
    }
  });

  it('can pin one extension id, or trust none', () => {
    const pinned = trustedOriginMatcher(
      loadConfig({ DATA_DIR: dataDir(), EXTENSION_ORIGINS: 'chrome-extension://pinnedid, safari-web-extension://*' }),
    );
    expect(pinned('chrome-extension://pinnedid')).toBe(true);
    expect(pinned('chrome-extension://otherid')).toBe(false);
    expect(pinned('moz-extension://0f7d2c4e')).toBe(false);
    expect(pinned('safari-web-extension://ABC-123')).toBe(true);
    const none = loadConfig({ DATA_DIR: dataDir(), EXTENSION_ORIGINS: 'none' });
    expect(none.extensionOrigins).toEqual([]);
    expect(trustedOriginMatcher(none)('chrome-extension://abc')).toBe(false);
  });

  it('refuses anything but extension origins in EXTENSION_ORIGINS', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), EXTENSION_ORIGINS: 'https://evil.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), EXTENSION_ORIGINS: 'chrome-extension://a/b' })).toThrow(/EXTENSION_ORIGINS/);
  });
});
