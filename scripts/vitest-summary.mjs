// `node scripts/vitest-summary.mjs <vitest json report>...`: prints the slowest test files (to
// plan CI's time), then "N passed, M failed" over the reports as its last line.
// Files that failed to load count as failures, and so does a missing or unreadable report.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SLOWEST = 12;
let passed = 0;
let failed = 0;
const files = [];
for (const file of process.argv.slice(2)) {
  let report = {};
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // counted below
  }
  const results = report.testResults ?? [];
  const broken = results.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + broken + (report.numTotalTests === undefined ? 1 : 0);
  for (const f of results) {
    if (f.startTime && f.endTime) files.push({ name: path.relative(process.cwd(), f.name), s: (f.endTime - f.startTime) / 1000 });
  }
}
if (files.length > 0) {
  console.log(`Slowest test files (of ${files.length}):`);
  for (const f of files.sort((a, b) => b.s - a.s).slice(0, SLOWEST)) console.log(`  ${f.s.toFixed(0).padStart(5)} s  ${f.name}`);
}
console.log(`${passed} passed, ${failed} failed`);
