/**
 * Does package-lock.json let `npm ci` install on every platform? Packages that ship a binary per
 * platform (esbuild, rollup, tailwind's oxide, lightningcss, sharp...) list one optional package per
 * platform; npm only installs the ones the lock names, and refuses a lock that misses some
 * (npm/cli#4828). The native packages are read from the lock itself, not listed by hand.
 */

export interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

export interface Lockfile {
  packages: Record<string, LockEntry>;
}

export interface Target {
  os: string;
  cpu: string;
}

/** The platforms the project promises: Linux and Windows on x64, macOS on Apple silicon. */
export const requiredTargets: readonly Target[] = [
  { os: 'linux', cpu: 'x64' },
  { os: 'darwin', cpu: 'arm64' },
  { os: 'win32', cpu: 'x64' },
];

const platformName = /(darwin|linux|win32|freebsd|android)/;

/** Node's lookup from the package at `from` (a lock key such as node_modules/wxt/node_modules/esbuild). */
function resolve(lock: Lockfile, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!base) return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

function isPlatformPackage(entry: LockEntry | undefined): boolean {
  return Boolean(entry?.os || entry?.cpu);
}

/**
 * Lock keys of the packages that pick a binary per platform: not platform-bound themselves, with
 * optional dependencies for more than one operating system (vite's macOS-only fsevents is not one).
 */
export function nativePackages(lock: Lockfile): string[] {
  return Object.entries(lock.packages)
    .filter(([key, entry]) => {
      if (!key || isPlatformPackage(entry)) return false;
      const systems = new Set<string>();
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const found = resolve(lock, key, name);
        const os = found ? lock.packages[found]?.os : name.match(platformName)?.slice(1);
        for (const system of os ?? []) systems.add(system);
      }
      return systems.size > 1;
    })
    .map(([key]) => key);
}

function serves(entry: LockEntry, target: Target): boolean {
  return (
    (entry.os?.includes(target.os) ?? false) &&
    (entry.cpu?.includes(target.cpu) ?? false) &&
    (target.os !== 'linux' || !entry.libc || entry.libc.includes('glibc'))
  );
}

/** Every gap, as "<native package>: <what is missing>"; empty when the lock installs everywhere. */
export function lockfileGaps(lock: Lockfile): string[] {
  const gaps: string[] = [];
  for (const key of nativePackages(lock)) {
    const optional = Object.keys(lock.packages[key]?.optionalDependencies ?? {});
    const found = optional.map((name) => resolve(lock, key, name));
    optional.forEach((name, index) => {
      if (!found[index]) gaps.push(`${key}: ${name} is not in the lockfile`);
    });
    const entries = found.flatMap((found) => (found && lock.packages[found] ? [lock.packages[found]] : []));
    for (const target of requiredTargets) {
      if (!entries.some((entry) => serves(entry, target))) {
        gaps.push(`${key}: no package for ${target.os}-${target.cpu}`);
      }
    }
  }
  return gaps;
}
