// Runs the vitest suites under an outside time limit (a hung test cannot time itself out) and
// ends with one plain summary line, "vitest: N passed, N failed", for CI logs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'build', 'vitest-results.json');
const limitMs = Number(process.env.SOCIAL_SDK_AUTH_TEST_LIMIT_MS ?? 30 * 60 * 1000);

rmSync(results, { force: true });
const child = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', detached: process.platform !== 'win32' },
);
const timer = setTimeout(() => {
  console.error(`vitest ran longer than ${limitMs} ms: stopping it.`);
  try {
    process.kill(-Number(child.pid), 'SIGKILL'); // the whole process group
  } catch {
    child.kill('SIGKILL');
  }
}, limitMs);
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(results)) {
    const report = JSON.parse(readFileSync(results, 'utf8'));
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed to load has no failed tests of its own: count the file.
    if ((report.numFailedTestSuites ?? 0) > 0 && failed === 0) failed = report.numFailedTestSuites;
  } else if (code === 0) {
    console.error('vitest left no results file.');
  }
  const exitCode = code === 0 && !signal && failed === 0 ? 0 : 1;
  if (exitCode !== 0 && failed === 0) failed = 1;
  console.log(`vitest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(exitCode);
});
