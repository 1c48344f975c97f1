#!/usr/bin/env bash
# `npm test`: unit, integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is set) and
# end-to-end tests in Debian's Chromium and Firefox ESR. Ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

# The end-to-end tests drive Debian's Chromium and Firefox ESR (never a downloaded browser), and
# put two servers behind Debian's HAProxy (tests/e2e/load-balancer.test.ts).
missing=()
command -v "${CHROMIUM_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || missing+=(chromium)
command -v "${FIREFOX_PATH:-/usr/bin/firefox-esr}" >/dev/null 2>&1 || missing+=(firefox-esr)
command -v "${HAPROXY_PATH:-/usr/sbin/haproxy}" >/dev/null 2>&1 || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} from Debian (needed by the end-to-end tests)..."
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null \
    || { echo "Could not install ${missing[*]}"; echo "0 passed, 1 failed"; exit 1; }
fi

echo "Building the web app..."
npm run --silent build || { echo "Build failed"; echo "0 passed, 1 failed"; exit 1; }

report=$(mktemp)
solo=$(mktemp)
trap 'rm -f "$report" "$solo"' EXIT
npx vitest run --project unit --project integration --project e2e --reporter=default --reporter=json --outputFile.json="$report"
status=$?
# The tests that bound a latency (or a heavy run's time), with the machine to themselves: when another run of tests goes on
# beside this one (.ci/run's Node 24 run), they wait until it lets go of SOLO_AFTER_LOCK.
[ -n "${SOLO_AFTER_LOCK:-}" ] && flock "$SOLO_AFTER_LOCK" true
npx vitest run --project solo --reporter=default --reporter=json --outputFile.json="$solo"
solo_status=$?
[ "$status" = 0 ] && status=$solo_status

node scripts/vitest-summary.mjs "$report" "$solo"
exit $status
