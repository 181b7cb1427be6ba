// Dependency rules of the TypeScript sources (docs: /work/shared/DESIGN.md, "Dependency rules").
// Checked by test/architecture.test.ts on every `npm test`: `npx depcruise src --config`.

// Known exceptions in other areas' code go in a rule's `from.pathNot`, each with a comment
// saying whose it is and when it goes.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycles',
      comment: 'No import cycles between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No import cycles between folders.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'hosts-use-the-public-api',
      comment: 'src/electron.ts and src/desktop/ reach the addon only through the public API, never src/signin/native.ts.',
      severity: 'error',
      from: { path: '^src/(electron\\.ts|desktop/)' },
      to: { path: '^src/signin/native\\.ts$' },
    },
    {
      name: 'sign-in-stays-small',
      comment:
        'The sign-in entry loads only sign-in code: never the emulator, the backend API client, the token lifecycle ' +
        '(social-sdk-auth/tokens), command and component validation, the spec rules or the desktop and Electron hosts.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/((emulator|api|tokens|commands|components|rules|desktop)/|electron\\.ts$)', reachable: true },
    },
    {
      name: 'sign-in-skips-interactions',
      comment: 'The sign-in entry never loads social-sdk-auth/interactions (verifying and answering interactions is backend code).',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/interactions/', reachable: true },
    },
    {
      name: 'emulator-is-independent',
      comment: "The emulator does not reuse the client's protocol code: it stays an independent check of it.",
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(signin|api)/' },
    },
    {
      name: 'entry-points-are-roots',
      comment: 'The entry points (src/index.ts, src/electron.ts, src/cli.ts) are what users load; no other file imports one.',
      severity: 'error',
      from: {},
      to: { path: '^src/(index|electron|cli)\\.ts$' },
    },
    {
      name: 'helpers-live-in-folders',
      comment:
        'The root of src/ holds only the entry points: a helper lives in the folder of its part, or in src/shared/ ' +
        'when every part uses it, so no file imports a file at the root of src/.',
      severity: 'error',
      from: {},
      to: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(index|electron|cli)\\.ts$' },
    },
    {
      name: 'shared-is-a-leaf',
      comment: 'src/shared/ holds helpers every part uses, so it imports nothing of the parts (only itself and node:).',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'ws-loads-lazily',
      comment:
        'The optional dependency ws is loaded only when an emulator starts with the gateway: never by a static import ' +
        '(a type-only import is fine), so nothing else, and never the sign-in path, loads it.',
      severity: 'error',
      from: {},
      to: { path: '(^|/)node_modules/ws/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'web-client-stays-in-the-emulator',
      comment: "The emulator's web client (src/emulator/web/) is reached only through the emulator's server: no other code loads it.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/emulator/' },
      to: { path: '^src/emulator/web/' },
    },
    {
      name: 'rules-are-pure',
      comment: "src/rules/ holds only the spec's rules: no I/O, so no node: module.",
      severity: 'error',
      from: { path: '^src/rules/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'emulator-kernel-is-the-bottom',
      comment:
        "The emulator's kernel (src/emulator/kernel/: the context, HTTP plumbing, errors, ids, the pipeline, the body " +
        'reader, the caller, rate limits) imports nothing of the emulator above it: an area adds what it owns to the ' +
        "context and the options by declaration merging, and keeps its other state in the context's slots.",
      severity: 'error',
      from: { path: '^src/emulator/kernel/' },
      to: { path: '^src/emulator/', pathNot: '^src/emulator/kernel/' },
    },
    {
      name: 'emulator-root-is-the-top',
      comment:
        "The emulator's root (index.ts, server.ts, options.ts, types.ts) is the wiring and the public options and types: " +
        'no file in a folder of the emulator imports it. An area declares the public types it owns in its own folder; ' +
        'types.ts re-exports them.',
      severity: 'error',
      from: { path: '^src/emulator/[^/]+/' },
      to: { path: '^src/emulator/[^/]+\\.ts$' },
    },
    {
      name: 'emulator-shared-state-is-below-the-areas',
      comment:
        'The world (guilds, channels, roles, members) and the state stores are shared by the areas, so they import ' +
        'no area: only the kernel, each other and src/rules/.',
      severity: 'error',
      from: { path: '^src/emulator/(world|state)/' },
      to: { path: '^src/emulator/(oauth|commands|device|interactions|lobbies|messages|provisional|gateway|web|desktop-client)/' },
    },
    {
      name: 'emulator-oauth-imports-no-area',
      comment:
        'The OAuth area is the base the device flow and provisional accounts build on: it imports no other area. What ' +
        'they add to its endpoints (the device grant, merging on sign-in, their users) reaches it through ctx.oauthHooks, wired by the root.',
      severity: 'error',
      from: { path: '^src/emulator/oauth/' },
      to: { path: '^src/emulator/(commands|device|interactions|lobbies|messages|provisional|gateway|web|desktop-client)/' },
    },
    {
      name: 'emulator-areas-are-separate',
      comment:
        "No emulator area imports another area's internals: what two areas share lives in the kernel " +
        '(src/emulator/kernel/), the world, state or rate-limit folders, or src/rules/.',
      severity: 'error',
      from: {
        // web/ is not an area but a front end: like the Emulator object (index.ts) it composes the
        // areas' operations (invokeCommand, clickComponent, the stores it shows), so it is not listed here.
        path: '^src/emulator/(commands|device|interactions|lobbies|messages|provisional|gateway)/',
        // Known exception (emulator kernel work, issue 20): interactions/emulate.ts finds the invoked
        // command through commands/access.ts and commands/store.ts; it goes when command lookup
        // moves into the kernel's shared world.
        pathNot: '^src/emulator/interactions/emulate\\.ts$',
      },
      to: {
        path: '^src/emulator/(commands|device|interactions|lobbies|messages|provisional|gateway|web)/',
        // gateway/events.ts is the gateway's one door for the events other areas raise.
        pathNot: ['^src/emulator/$1/', '^src/emulator/gateway/events\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
