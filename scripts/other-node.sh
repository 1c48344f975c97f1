#!/usr/bin/env bash
# Unit and integration tests under another Node major, fetched from the npm registry (the `node`
# package), without touching this checkout's node_modules:
#   bash scripts/other-node.sh prepare 24 DIR   Node 24 into DIR/runtime; a copy of the project into
#                                               DIR/app with better-sqlite3 compiled for it
#   bash scripts/other-node.sh test DIR [ARGS]  vitest's unit and integration projects there (ARGS
#                                               go to vitest); ends with "N passed, M failed"
#   npm run test:node24                         both, in a temporary folder
# better-sqlite3 is the one addon built against one Node's ABI (sharp, rollup, oxide, lightningcss
# use N-API), so the copy's node_modules is hard links to this one's except better-sqlite3, a real
# copy rebuilt from source (no prebuilt download) against the new Node's headers. Both Nodes can
# then run side by side. Vitest's cache is left out of the copy: it is rewritten in place.
# On Node 24 it is compiled against the headers of Node 24.18.1, as better-sqlite3 12's prebuilt
# binaries for Node 24 are: built against 24.19 or later, its Statement destructor aborts the
# process when a GC finalises it (nodejs/node#65446; docs/decisions.md, "Installs").
set -uo pipefail

# The Node release whose headers better-sqlite3 is built against, by major (default: the runtime's own).
headers_release() {
  case $1 in
    24) echo 24.18.1 ;;
  esac
}
cd "$(dirname "$0")/.."

prepare() {
  local major=$1 dir=$2
  mkdir -p "$dir/runtime" "$dir/app" || return 1
  npm install --prefix "$dir/runtime" --no-save --no-package-lock --no-audit --no-fund "node@$major" >/dev/null \
    || { echo "Could not install node@$major from the npm registry"; return 1; }
  local runtime=$dir/runtime/node_modules/node
  local from=$runtime release
  release=$(headers_release "$major")
  if [ -n "$release" ]; then
    npm install --prefix "$dir/headers" --no-save --no-package-lock --no-audit --no-fund "node@$release" >/dev/null \
      || { echo "Could not install node@$release (its headers) from the npm registry"; return 1; }
    from=$dir/headers/node_modules/node
  fi
  local headers
  headers=$(dirname "$(find "$from/node_modules" -maxdepth 4 -path '*/include/node/node_version.h' | head -1)")
  headers=${headers%/include/node}

  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$dir/app" || return 1
  cp -al node_modules "$dir/app/node_modules" 2>/dev/null || cp -a node_modules "$dir/app/node_modules" || return 1
  rm -rf "$dir/app/node_modules/.vite" "$dir/app/node_modules/.vitest" "$dir/app/node_modules/better-sqlite3"
  cp -r node_modules/better-sqlite3 "$dir/app/node_modules/better-sqlite3" || return 1
  rm -rf "$dir/app/node_modules/better-sqlite3/build"
  local gyp
  gyp=$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js
  (cd "$dir/app/node_modules/better-sqlite3" && "$runtime/bin/node" "$gyp" rebuild --release --nodedir="$headers" >"$dir/gyp.log" 2>&1) \
    || { tail -30 "$dir/gyp.log"; echo "Could not build better-sqlite3 for Node $major"; return 1; }
  "$runtime/bin/node" -e 'new (require(process.argv[1]))(":memory:").close()' "$dir/app/node_modules/better-sqlite3" || return 1
  echo "Node $("$runtime/bin/node" -v) ready in $dir"
}

run_tests() {
  local dir=$1; shift
  local runtime=$dir/runtime/node_modules/node
  local report=$dir/report.json
  rm -f "$report"
  (cd "$dir/app" && PATH="$runtime/bin:$PATH" node node_modules/vitest/vitest.mjs run --project unit --project integration \
    --reporter=default --reporter=json --outputFile.json="$report" "$@")
  local status=$?
  echo "(Node $("$runtime/bin/node" -v))"
  node scripts/vitest-summary.mjs "$report"
  return $status
}

case "${1:-}" in
  prepare) prepare "$2" "$3" ;;
  test) shift; run_tests "$@" ;;
  *)
    major=${1:-24}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/supercurate-node$major.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    prepare "$major" "$dir" || { echo "0 passed, 1 failed"; exit 1; }
    run_tests "$dir"
    ;;
esac
