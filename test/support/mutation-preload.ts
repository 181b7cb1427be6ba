// The mutation runs' setup (vitest.mutation.config.mts): loads the module's mutated files before
// any test. Several are loaded on first use (the token endpoint with the first token request, the
// desktop checks with the first desktop call); loaded inside a test, their module-level constants
// (patterns, name lists, limits) count as covered by that one test, and Stryker reruns only it for
// their mutants, which then survive whatever the other tests check. Loaded here, outside every
// test, those mutants are static: run with every test of the module, or left out with --ignoreStatic.
import path from 'node:path';
import { beforeAll } from 'vitest';

beforeAll(async () => {
  for (const file of process.env.MUTATION_SOURCES?.split(',') ?? []) {
    if (file !== '') await import(path.resolve(file));
  }
});
