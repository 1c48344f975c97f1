#!/usr/bin/env bash
# `npm run lockfile`: rewrite package-lock.json so that `npm ci` works on every platform.
#
# npm leaves other platforms' optional binaries (esbuild, rollup, tailwind oxide, lightningcss, sharp)
# out of the lockfile when it resolves next to an installed node_modules (npm/cli#4828). So the lock
# is resolved in an empty temporary folder holding only package.json (and, by default, the current
# lock, so every version already locked stays as it is and only what is missing is added).
#   npm run lockfile            keep the locked versions, add what package.json or a platform lacks
#   npm run lockfile -- --fresh resolve everything anew (newest versions the ranges allow)
# Your node_modules is not touched.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp package.json "$work/"
[ -f .npmrc ] && cp .npmrc "$work/"
if [ "${1:-}" != "--fresh" ] && [ -f package-lock.json ]; then cp package-lock.json "$work/"; fi

(cd "$work" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund)
cp "$work/package-lock.json" package-lock.json
echo "package-lock.json rewritten; check it with: npm ci && npx vitest run tests/unit/lockfile.test.ts"
