// `node scripts/vitest-summary.mjs <vitest json report>...`: prints the slowest test files (to
// plan CI's time), each failed test with the first line of its message (so that a log's tail says
// what failed), then "N passed, M failed" over the reports as its last line.
// Files that failed to load count as failures, and so does a missing or unreadable report.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SLOWEST = 12;
let passed = 0;
let failed = 0;
const files = [];
const failures = [];
for (const file of process.argv.slice(2)) {
  let report = {};
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // counted below
  }
  const results = report.testResults ?? [];
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numTotalTests === undefined ? 1 : 0);
  for (const f of results) {
    const name = path.relative(process.cwd(), f.name);
    if (f.startTime && f.endTime) files.push({ name, s: (f.endTime - f.startTime) / 1000 });
    // A file that failed to load has no tests of its own: it counts as one failure.
    if (f.status === 'failed' && f.assertionResults.length === 0) {
      failed += 1;
      failures.push(`${name}: ${firstLine(f.message)}`);
    }
    for (const t of f.assertionResults) {
      if (t.status === 'failed') failures.push(`${name} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
}
if (files.length > 0) {
  console.log(`Slowest test files (of ${files.length}):`);
  for (const f of files.sort((a, b) => b.s - a.s).slice(0, SLOWEST)) console.log(`  ${f.s.toFixed(0).padStart(5)} s  ${f.name}`);
}
if (failures.length > 0) {
  console.log(`Failed tests (${failures.length}):`);
  for (const f of failures) console.log(`  FAILED ${f}`);
}
console.log(`${passed} passed, ${failed} failed`);

function firstLine(message) {
  return (message ?? '').split('\n')[0].slice(0, 300);
}
