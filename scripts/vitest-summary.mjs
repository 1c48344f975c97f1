// `node scripts/vitest-summary.mjs <vitest json report>`: prints "N passed, M failed".
// Files that failed to load count as failures, and so does a missing or unreadable report.
import { readFileSync } from 'node:fs';

let report = {};
try {
  report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
} catch {
  // counted below
}
const passed = report.numPassedTests ?? 0;
const broken = (report.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
const failed = (report.numFailedTests ?? 0) + broken + (report.numTotalTests === undefined ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
