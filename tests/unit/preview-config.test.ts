import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'supercurate-config-'));

describe('preview configuration', () => {
  it('defaults to a 5 s preview timeout and private addresses refused', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ previewTimeoutMs: 5000, previewAllowPrivate: false });
  });

  it('reads PREVIEW_TIMEOUT_MS and PREVIEW_ALLOW_PRIVATE', () => {
    expect(
      loadConfig({ DATA_DIR: dataDir(), PREVIEW_TIMEOUT_MS: '1500', PREVIEW_ALLOW_PRIVATE: 'true' }),
    ).toMatchObject({ previewTimeoutMs: 1500, previewAllowPrivate: true });
  });

  it.each(['soon', '50', '60001', '1.5'])('refuses PREVIEW_TIMEOUT_MS=%s', (value) => {
    const load = () => loadConfig({ DATA_DIR: dataDir(), PREVIEW_TIMEOUT_MS: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/PREVIEW_TIMEOUT_MS/);
  });
});
