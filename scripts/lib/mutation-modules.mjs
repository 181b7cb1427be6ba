// The mutation modules of `npm run mutate` (scripts/mutate.mjs): which files each mutates and
// which test files run them. The equivalents' check (test/mutation-score.test.ts) reads it too.

/**
 * Module → the files Stryker mutates (globs) and the test files that run them in-process. Tests
 * that reach a module only through a child process or a Worker load dist/, never the mutant, so
 * they are left out.
 */
export const MODULES = {
  // redactKnown is reached through PlatformApi's error bodies, against the emulator; redactedError
  // through the errors of failing URL openers.
  'shared/redact': {
    mutate: ['src/shared/redact.ts'],
    tests: ['test/redact.test.ts', 'test/api/error-redaction.test.ts', 'test/privacy/opener-errors.test.ts', 'test/privacy/opener-error-copy.test.ts'],
  },
  'shared/snowflake': { mutate: ['src/shared/snowflake.ts'], tests: ['test/args.test.ts', 'test/lobbies/rules.test.ts'] },
  'shared/check': { mutate: ['src/shared/check.ts'], tests: ['test/args.test.ts', 'test/shared/check.test.ts'] },
  'rules/lobbies': { mutate: ['src/rules/lobbies.ts'], tests: ['test/lobbies/rules.test.ts'] },
  // The permission-overwrite checks are reached through validateCommandPermissions (permissions.test.ts).
  'rules/commands': {
    mutate: ['src/rules/commands.ts'],
    tests: [
      'test/commands/table.test.ts',
      'test/commands/permissions.test.ts',
      'test/commands/codes.test.ts',
      'test/commands/builders.test.ts',
      'test/api/commands-checks.test.ts',
    ],
  },
  'rules/components': {
    mutate: ['src/rules/components.ts'],
    tests: ['test/components/table.test.ts', 'test/components/builders.test.ts', 'test/components/ids.test.ts'],
  },
  // The command table reaches MAX_PERMISSION_SET through validateCommand (default_member_permissions).
  'rules/permissions': {
    mutate: ['src/rules/permissions.ts'],
    tests: ['test/commands/permissions.test.ts', 'test/emulator/commands-permissions.test.ts', 'test/commands/table.test.ts'],
  },
  // The request core of the API client, split by job: the class, preparing a request, one attempt,
  // the classifier, the retry loop, the store steps, cancellation and the application lookup; with
  // the bounded body reader and Retry-After parser it shares with the sign-in.
  'api/core': {
    mutate: [
      ...['core', 'prepare', 'attempt', 'classify', 'retry', 'store-steps', 'cancellation', 'call', 'application'].map((name) => `src/api/${name}.ts`),
      'src/shared/bounded-body.ts',
      'src/shared/retry-after.ts',
    ],
    tests: [
      'test/api/client.test.ts',
      'test/api/core-answers.test.ts',
      'test/api/core-calls.test.ts',
      'test/api/global-limit.test.ts',
      'test/api/store-stall.test.ts',
      // undici failing to load, or a call aborted while it loads (the dependency replaced): the slot given back unsent.
      'test/api/undici-load.test.ts',
      'test/api/composed.test.ts',
      'test/api/messages.test.ts',
      'test/hostile/platform-api.test.ts',
      'test/lobbies/server-errors.test.ts',
      // The sign-in's reads of a token answer: the shared body bound and Retry-After parser.
      'test/hostile/token-endpoint.test.ts',
    ],
  },
  'api/stores': {
    mutate: ['src/api/memory-store.ts', 'src/api/redis-store.ts'],
    tests: [
      'test/api/stores.test.ts',
      'test/api/store-contract.test.ts',
      'test/api/memory-store.test.ts',
      'test/api/redis-store.test.ts',
      'test/api/redis-store-client.test.ts',
      'test/api/redis-store-missing.test.ts',
      'test/api/store-stall.test.ts',
      // PlatformApi on the default store (its synchronous steps, one store per service) and on
      // stores of the caller's own that extend it. client.test.ts is left out: its calls run
      // through the default store too, but assert nothing of it, and took 13 s of every run.
      'test/api/core-calls.test.ts',
      'test/api/core-answers.test.ts',
    ],
  },
  'emulator/kernel': {
    mutate: ['src/emulator/kernel/**/*.ts', '!src/emulator/kernel/ratelimit.ts'],
    tests: [
      'test/emulator/kernel.test.ts',
      // The pipeline's steps through a studio's routes over HTTP: buckets, 429s, what counts as invalid, faults, bodies, upgrades.
      'test/emulator/pipeline.test.ts',
      'test/emulator/route-table.test.ts',
      'test/emulator/body-limits.test.ts',
      'test/emulator/faults.test.ts',
      'test/emulator/request-target.test.ts',
      'test/emulator/path-ids.test.ts',
      'test/lobbies/rate-limits.test.ts',
      'test/emulator/guard.test.ts',
      'test/lobbies/credentials.test.ts',
      'test/lobbies/body-arrival.test.ts',
      'test/lobbies/hostile.test.ts',
      'test/emulator/oauth-limits.test.ts',
      'test/emulator/ids.test.ts',
      'test/emulator/reset.test.ts',
      'test/emulator/channel-events.test.ts',
      // Injected server errors (counted down, Retry-After, a dropped connection) and the authorize error page.
      'test/lobbies/server-errors.test.ts',
      'test/emulator/authorize.test.ts',
      // The typed errors (closed, openUrl with and without a cause, damaged dataDir, no gateway) and the endpoint URL check.
      'test/emulator/open-url.test.ts',
      'test/emulator/state-damage.test.ts',
      'test/gateway/protocol.test.ts',
      'test/emulator/endpoint-urls.test.ts',
    ],
  },
  // The limits' edges with small numbers and a moved clock; rate-limits-full.test.ts (thousands of
  // requests each) stays out: a mutant of the counters would rerun it for a minute.
  'emulator/ratelimit': {
    mutate: ['src/emulator/kernel/ratelimit.ts'],
    tests: ['test/lobbies/rate-limits.test.ts', 'test/emulator/oauth-limits.test.ts', 'test/emulator/kernel.test.ts'],
  },
  'signin/token-endpoint': {
    mutate: ['src/signin/token-endpoint.ts'],
    tests: [
      'test/hostile/token-endpoint.test.ts',
      // The device flow and provisional tokens read their answers through boundedFetch and readTokenResponse.
      'test/hostile/device-provisional.test.ts',
      // A device-flow token answer whose body stops coming: the timeout's sentence through openid-client.
      'test/hostile/device.test.ts',
      'test/device/missing-openid-client.test.ts',
      'test/token-responses.test.ts',
      'test/transport-errors.test.ts',
      'test/client-tokens.test.ts',
      'test/emulator/faults.test.ts',
      'test/tokens/manager-retry.test.ts',
    ],
  },
  'interactions/verify': { mutate: ['src/interactions/verify.ts'], tests: ['test/interactions/verify.test.ts', 'test/hostile/validators.test.ts'] },
  'desktop/validate': { mutate: ['src/desktop/validate.ts'], tests: ['test/args.test.ts', 'test/desktop/validate.test.ts'] },
};

/** A glob of `*` and `**` as Stryker reads it, for checking that it matches something. */
export function globToRegExp(glob) {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether a module mutates a file: one of its globs matches it and none of its `!` globs does. */
export function mutates(moduleName, file) {
  const globs = MODULES[moduleName]?.mutate ?? [];
  const excluded = globs.filter((glob) => glob.startsWith('!')).some((glob) => globToRegExp(glob.slice(1)).test(file));
  return !excluded && globs.some((glob) => !glob.startsWith('!') && globToRegExp(glob).test(file));
}

/**
 * The files of `sources` a module mutates, in their order: what a run gives Stryker as `--mutate`
 * and loads before its tests. Files, not the table's globs: Stryker is told exactly what the
 * table means (a `!` glob included), and a glob whose file has gone simply names nothing.
 */
export function mutatedFiles(moduleName, sources) {
  return sources.filter((file) => file.endsWith('.ts') && mutates(moduleName, file));
}
