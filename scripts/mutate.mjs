#!/usr/bin/env node
// npm run mutate -- <module> [stryker flags]: mutation-tests one module of the table in
// scripts/lib/mutation-modules.mjs with only the test files that exercise it, per-test coverage.
//   npm run mutate -- shared/redact
//   npm run mutate -- emulator/ratelimit --concurrency 2
//   npm run mutate -- rules/lobbies --mutate src/rules/lobbies.ts:300-451   (a line range of it)
//   npm run mutate -- --list                                                (the modules)
//   npm run mutate -- --score build/mutation/emulator-kernel.json [--entries]  (score a report again)
// A module's run ends with its score without the mutants listed as equivalent
// (docs/mutation-equivalents.json) and the survivors that are neither killed nor listed.
// With no module (or flags only) it runs stryker.config.mjs as it is: the sign-in and token set.
// The test files reach vitest.mutation.config.mts through MUTATION_TEST_FILES; the mutated files
// go to Stryker as --mutate; the JSON report lands in build/mutation/<module>.json. See
// docs/testing.md "Mutation testing".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODULES, mutatedFiles, mutates } from './lib/mutation-modules.mjs';
import { entriesFor, formatScore, readEquivalents, scoreReport } from './lib/mutation-score.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function usage() {
  return `Usage: npm run mutate -- <module> [stryker flags], where <module> is one of:\n${Object.entries(MODULES)
    .map(([name, { mutate }]) => `  ${name.padEnd(24)}${mutate.join(', ')}`)
    .join('\n')}`;
}

function run(args, env) {
  const stryker = path.join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const result = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs', ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** The module a report is of: the one whose files it mutated, or the slug of its file name. */
function moduleOfReport(reportPath, report) {
  const slug = path.basename(reportPath, '.json');
  const byName = Object.keys(MODULES).find((name) => name.replace(/\//g, '-') === slug);
  if (byName !== undefined) return byName;
  const files = Object.keys(report.files);
  return Object.keys(MODULES).find((name) => files.length > 0 && files.every((file) => mutates(name, file))) ?? slug;
}

/** Prints a report's score without the listed equivalents (and, with `entries`, the JSON entries for its unlisted survivors). */
function printScore(reportPath, { entries = false, moduleName } = {}) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const name = moduleName ?? moduleOfReport(reportPath, report);
  const result = scoreReport(report, readEquivalents());
  console.log(`\n${formatScore(name, result)}`);
  if (entries && result.unlisted.length > 0) {
    console.log('\nEntries for docs/mutation-equivalents.json (only for mutants you have shown equivalent, with the reason in docs/mutation-equivalents.md):');
    console.log(JSON.stringify(entriesFor(name, result), null, 2));
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--list' || first === '--help' || first === '-h') {
  console.log(usage());
  process.exit(0);
}
if (first === '--score') {
  const reportPath = rest.find((arg) => !arg.startsWith('--'));
  if (reportPath === undefined || !existsSync(reportPath)) {
    console.error(
      `--score needs the path of a report Stryker wrote (build/mutation/<module>.json)${reportPath === undefined ? '' : `; there is no file ${reportPath}`}.`,
    );
    process.exit(2);
  }
  printScore(reportPath, { entries: rest.includes('--entries') });
  process.exit(0);
}
if (first === undefined || first.startsWith('-')) process.exit(run(process.argv.slice(2), {}));

const moduleName = first.replace(/^src\//, '').replace(/\.ts$/, '');
const entry = MODULES[moduleName];
if (entry === undefined) {
  console.error(`There is no mutation module '${first}'.\n${usage()}`);
  process.exit(2);
}
const tests = entry.tests.filter((file) => existsSync(path.join(root, file)));
const missing = entry.tests.filter((file) => !tests.includes(file));
if (missing.length > 0) console.warn(`Left out (no such test file): ${missing.join(', ')}`);
const sources = readdirSync(path.join(root, 'src'), { recursive: true }).map((file) => `src/${String(file).split(path.sep).join('/')}`);
const mutated = mutatedFiles(moduleName, sources);
if (mutated.length === 0) {
  console.error(`None of ${entry.mutate.join(', ')} matches a file: update the table in scripts/lib/mutation-modules.mjs.`);
  process.exit(2);
}
// A --mutate among the flags narrows the run (to a line range, say); otherwise the module's files.
const flags = rest.includes('--mutate') ? rest : ['--mutate', mutated.join(','), ...rest];
const slug = moduleName.replace(/\//g, '-');
const reportPath = path.join(root, 'build', 'mutation', `${slug}.json`);
const status = run(flags, {
  MUTATION_TEST_FILES: tests.join(','),
  // Loaded by the tests' setup before any test (test/support/mutation-preload.ts).
  MUTATION_SOURCES: mutated.join(','),
  MUTATION_REPORT: reportPath,
  MUTATION_TEMP_DIR: `build/stryker-tmp-${slug}`,
});
if (status === 0 && existsSync(reportPath)) printScore(reportPath, { moduleName });
process.exit(status);
