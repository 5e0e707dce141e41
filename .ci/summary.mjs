// Adds up what .ci/run ran: each step, every unit/integration test (vitest) and every browser
// test (Playwright), and prints the one summary line CI reads.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.ENCORE_REPORT_DIR ?? 'reports';
let passed = 0;
let failed = 0;
let skipped = 0;

const steps = existsSync(path.join(dir, 'steps.txt')) ? readFileSync(path.join(dir, 'steps.txt'), 'utf8').trim().split('\n').filter(Boolean) : [];
for (const line of steps) {
  if (line.endsWith(' passed')) passed += 1;
  else failed += 1;
}

const vitestFile = path.join(dir, 'vitest.json');
if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

const playwrightFile = path.join(dir, 'playwright.json');
if (existsSync(playwrightFile)) {
  const { stats } = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  console.log(`playwright: ${stats.expected} passed, ${stats.unexpected} failed`);
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
