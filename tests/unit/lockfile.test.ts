import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { type Lockfile, lockfileGaps, nativePackages } from '../../scripts/lockfile-platforms';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;
const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

describe('package-lock.json installs on every platform', () => {
  it('finds the packages that ship a binary per platform', () => {
    const native = nativePackages(lock);
    for (const name of ['esbuild', 'rollup', 'lightningcss', '@tailwindcss/oxide', 'sharp']) {
      expect(native).toContain(`node_modules/${name}`);
    }
  });

  it('holds every optional binary of each, linux-x64, darwin-arm64 and win32-x64 included', () => {
    expect(lockfileGaps(lock)).toEqual([]);
  });

  it('names what a lock written next to node_modules leaves out', () => {
    const packages = Object.fromEntries(
      Object.entries(lock.packages).filter(([key]) => key !== 'node_modules/@esbuild/darwin-arm64'),
    );
    expect(lockfileGaps({ packages })).toContain('node_modules/esbuild: @esbuild/darwin-arm64 is not in the lockfile');
    expect(lockfileGaps({ packages })).toContain('node_modules/esbuild: no package for darwin-arm64');
  });
});

describe('package-lock.json on every Node the project supports', () => {
  // The oldest release of each line package.json's engines names (20.19.0, 22.13.0, 24.0.0).
  const oldest = engines.node.split('||').map((range) => semver.minVersion(range.trim())?.version as string);

  it('names Node 20.19, 22 and 24 as supported', () => {
    expect(oldest.map((version) => semver.major(version))).toEqual([20, 22, 24]);
    expect(oldest[0]).toBe('20.19.0');
  });

  it.each(oldest)('has no package whose engines refuse Node %s (no EBADENGINE warning at install)', (version) => {
    const refused = Object.entries(lock.packages)
      .filter(([, entry]) => {
        const range = (entry as { engines?: { node?: string } }).engines?.node;
        // Other platforms' binaries are never installed here.
        return range && !entry.os && !entry.cpu && !semver.satisfies(version, range);
      })
      .map(([key, entry]) => `${key}@${entry.version}`);
    expect(refused).toEqual([]);
  });
});
