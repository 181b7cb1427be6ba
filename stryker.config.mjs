// Mutation testing (`npm run mutate`, not part of `npm test`): which mutants of the sign-in, token
// and redaction code survive the tests. Narrow a run to a file, a line range and the suites that
// exercise it, e.g.
//   npm run mutate -- --mutate src/shared/schedule.ts:20-60 --testFiles test/client-tokens.test.ts
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const addon = path.join(root, 'build', 'Release', 'social_sdk_auth.node');
if (!existsSync(addon)) throw new Error(`npm run mutate needs the addon at ${addon}: run npm run build first.`);
// The sandboxes copy the sources and dist/, not build/: every test process loads this worktree's addon.
process.env.SOCIAL_SDK_AUTH_NATIVE = addon;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.mts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/shared/redact.ts',
    'src/signin/token-endpoint.ts',
    'src/signin/client.ts',
    'src/signin/authorize-flow.ts',
    'src/signin/token-calls.ts',
    'src/signin/account-flows.ts',
    'src/signin/args.ts',
    'src/signin/bearer-token.ts',
    'src/shared/schedule.ts',
    'src/tokens/manager.ts',
    'src/tokens/envelope.ts',
  ],
  ignorePatterns: ['build', 'prebuilds', 'coverage', 'native', 'bench', 'examples'],
  // Each mutant run is a whole vitest run with live loopback servers; one at a time on two cores.
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'json'],
  // `npm run mutate -- <module>` names both per module, so runs of two modules can share a machine.
  jsonReporter: { fileName: process.env.MUTATION_REPORT ?? 'build/mutation/report.json' },
  tempDirName: process.env.MUTATION_TEMP_DIR ?? 'build/stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 75, break: null },
};
