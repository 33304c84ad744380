// Prints the plain closing line CI reads ("N passed, N failed[, N skipped]") from vitest's JSON report.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`ciSummary: cannot read ${file} (${error.message}); did vitest run?`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A suite that fails to load has no failed test of its own: count it once so the line never reads green.
const failed = Math.max(report.numFailedTests ?? 0, report.success === false ? 1 : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
