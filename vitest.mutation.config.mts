// The vitest config Stryker runs (stryker.config.mjs): the in-process suites of the mutated files
// only. Suites that spawn child processes or Workers load the built package, never the mutant, and
// the sandbox has a copy of dist/ but no addon build, so the global setup (which would rebuild there) is left out.
// `npm run mutate -- <module>` (scripts/mutate.mjs) names the module's test files in
// MUTATION_TEST_FILES; without it, the suites of the sign-in and token set below.
import { defineConfig } from 'vitest/config';

const moduleTests = process.env.MUTATION_TEST_FILES?.split(',').filter((file) => file !== '');
// The module's mutated files, loaded before any test (test/support/mutation-preload.ts says why).
const preload = process.env.MUTATION_SOURCES ? ['test/support/mutation-preload.ts'] : [];

export default defineConfig({
  test: {
    include: moduleTests ?? [
      'test/redact.test.ts',
      'test/args.test.ts',
      'test/pkce.test.ts',
      'test/signin.test.ts',
      'test/client-tokens.test.ts',
      'test/device/device-flow.test.ts',
      'test/provisional/provisional.test.ts',
      'test/token-responses.test.ts',
      'test/privacy/client.test.ts',
      'test/fuzz/redirect.test.ts',
      'test/fuzz/loopback.test.ts',
      'test/emulator/faults.test.ts',
      'test/hostile/listener.test.ts',
      'test/hostile/token-endpoint.test.ts',
      'test/transport-errors.test.ts',
      'test/tokens/envelope.test.ts',
      'test/tokens/manager.test.ts',
      'test/tokens/manager-retry.test.ts',
      'test/tokens/manager-lifetime.test.ts',
      'test/tokens/privacy.test.ts',
      'test/tokens/memory-store.test.ts',
    ],
    setupFiles: preload,
    // Mutants that hang a loopback server or a wait are reported as timed out, not left running.
    teardownTimeout: 10_000,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
