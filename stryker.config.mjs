// Mutation testing (`npm run mutate`, not part of `npm test`): which mutants of the sign-in, token
// and redaction code survive the tests. Narrow a run with `npm run mutate -- --mutate src/redact.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.mts', related: true },
  coverageAnalysis: 'perTest',
  mutate: ['src/redact.ts', 'src/transport.ts', 'src/client.ts', 'src/args.ts', 'src/bearer-token.ts', 'src/schedule.ts', 'src/tokens/manager.ts', 'src/tokens/envelope.ts'],
  // The suites spawn child processes and Workers; two at a time fits this project's CI machines.
  concurrency: 2,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'build/mutation/report.json' },
  tempDirName: 'build/stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 75, break: null },
};
