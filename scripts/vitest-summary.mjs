// `node scripts/vitest-summary.mjs <vitest json report>...`: prints "N passed, M failed" over them.
// Files that failed to load count as failures, and so does a missing or unreadable report.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  let report = {};
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // counted below
  }
  const broken = (report.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + broken + (report.numTotalTests === undefined ? 1 : 0);
}
console.log(`${passed} passed, ${failed} failed`);
