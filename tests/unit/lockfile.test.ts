import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Lockfile, lockfileGaps, nativePackages } from '../../scripts/lockfile-platforms';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;

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
