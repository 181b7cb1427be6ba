// Bundles each entry point of the CommonJS build into as few files as loading needs: one file
// per entry plus chunks for code two entries share, so `require('social-sdk-auth')` reads a
// handful of files instead of dozens, and classes stay one instance across entry points
// (an error thrown by social-sdk-auth/tokens is `instanceof` the main entry's class).
// tsc still writes dist/cjs first: its declarations (.d.ts) are what TypeScript users read.
// Then the ESM entry points: small wrappers that load the same CommonJS modules through
// createRequire, so ESM and CommonJS users share one module instance (one addon load).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

import { plainExports } from './lib/plain-exports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const cjsDir = path.join(root, 'dist', 'cjs');

// Every entry point the package exports, from package.json: "./dist/cjs/X.js" is built from src/X.ts.
const entries = {};
const addEntry = (target) => {
  const match = /^\.\/dist\/cjs\/(.+)\.js$/.exec(target ?? '');
  if (match) entries[match[1]] = path.join(root, 'src', `${match[1]}.ts`);
};
for (const value of Object.values(pkg.exports)) if (typeof value === 'object') addEntry(value.require);
for (const bin of Object.values(pkg.bin ?? {})) addEntry(bin);

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const inputOptions = {
  platform: 'node',
  // Dependencies and optional peers are loaded from node_modules at run time, never inlined.
  external: (id) => builtins.has(id) || !(id.startsWith('.') || path.isAbsolute(id)),
  logLevel: 'warn',
  plugins: [plainExports],
};
const outputOptions = {
  format: 'cjs',
  // Strict mode, as the sources are written (ES modules are strict) and as the tests run them:
  // without the directive, CommonJS code runs sloppy, and a write to a frozen object, say, is
  // silently dropped in the package where the tests see it throw.
  strict: true,
  // Keep `import('openid-client')` a real dynamic import: it is an ES module.
  dynamicImportInCjs: true,
  sourcemap: false,
  // The published JavaScript carries no comments (the .d.ts files keep the JSDoc): a third of
  // the sign-in chunk was comment text the parser had to scan at every start-up.
  comments: false,
  // Nor indentation, and local names are short: V8 reads every byte of a file it loads, and this
  // takes a quarter off the sign-in chunk's compile time. No code is rewritten (compress is off),
  // and functions and classes keep their names, so stack traces and error names read as in src/.
  minify: { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true } },
  // Non-ASCII characters (a "≥" or "…" in a message) as escapes: one such character makes V8
  // hold the whole file as a two-byte string and scan it as UTF-16, which costs more than all
  // the scanning of a file in plain ASCII.
  charset: 'ascii',
};

// The sign-in entry's own modules go into one chunk, so a launcher's first require reads two
// files (entry and chunk; no bundler runtime, since the sign-in code imports node: modules by
// name rather than by default import); other entries add chunks of their own.
const probe = await rolldown({ ...inputOptions, input: { index: entries.index } });
// Modules the main entry only imports dynamically (the client's requests, the device flow,
// provisional requests) stay out of it: they get chunks of their own, read when first called.
// So the sign-in chunk holds what the entry reaches through static imports alone; a chunk that
// only dynamically loaded chunks share is not part of it.
const probeChunks = new Map((await probe.generate(outputOptions)).output.filter((chunk) => chunk.type === 'chunk').map((chunk) => [chunk.fileName, chunk]));
const mainModules = new Set();
const reached = new Set();
const reach = (fileName) => {
  const chunk = probeChunks.get(fileName);
  if (!chunk || reached.has(fileName)) return;
  reached.add(fileName);
  for (const id of chunk.moduleIds ?? []) mainModules.add(id);
  for (const imported of chunk.imports) reach(imported);
};
for (const chunk of probeChunks.values()) if (chunk.isEntry) reach(chunk.fileName);
await probe.close();

const bundle = await rolldown({ ...inputOptions, input: entries });
const { output } = await bundle.write({
  ...outputOptions,
  dir: cjsDir,
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  manualChunks: (id) => (mainModules.has(id) ? 'sign-in' : undefined),
});
await bundle.close();

// The main entry and the sign-in chunk as one file: `require('social-sdk-auth')` then resolves,
// reads and compiles one module instead of two, which took 1 M instructions (about 0.4 ms) off
// every start-up. index.js runs the chunk's code with the chunk's exports gathered on one object,
// kept on a symbol-keyed property the other files read (so `Object.keys` of the package shows its
// public names only), then exports its own names from it. The files that required the chunk
// require index.js instead.
const SIGN_IN_EXPORTS = 'Symbol.for("social-sdk-auth.sign-in")';
const signInChunk = output.find((file) => file.type === 'chunk' && file.name === 'sign-in' && !file.isEntry);
if (!signInChunk) throw new Error('bundle: no sign-in chunk was written');
const signInPath = path.join(cjsDir, signInChunk.fileName);
const indexPath = path.join(cjsDir, 'index.js');
/** `require(...)` of `file`, written in a file of the folder `fromDir`. */
const requireOf = (fromDir, file) => {
  const spec = path.relative(fromDir, file).split(path.sep).join('/');
  return `require(${JSON.stringify(spec.startsWith('.') ? spec : `./${spec}`)})`;
};
/** `require("./x")` of one folder's file, as the same file is named from another folder. */
const moveRequires = (code, from, to) => code.replace(/require\("(\.\.?\/[^"]+)"\)/g, (whole, spec) => requireOf(to, path.resolve(from, spec)));
// The entry's "use strict" goes first in the file, where it is a directive for all of it.
const STRICT = '"use strict";';
const entryFile = readFileSync(indexPath, 'utf8');
const entryCode = entryFile.startsWith(STRICT) ? entryFile.slice(STRICT.length) : entryFile;
const chunkRequire = `require("./${signInChunk.fileName}")`;
if (!entryCode.includes(chunkRequire)) throw new Error(`bundle: dist/cjs/index.js does not load ${signInChunk.fileName} as expected`);
const chunkCode = moveRequires(readFileSync(signInPath, 'utf8'), path.dirname(signInPath), cjsDir);
writeFileSync(
  indexPath,
  `${STRICT}const signIn={};(function(exports){${chunkCode}\n})(signIn);Object.defineProperty(exports,${SIGN_IN_EXPORTS},{value:signIn});` +
    entryCode.replace(chunkRequire, 'signIn'),
);
rmSync(signInPath);
for (const file of output) {
  const full = path.join(cjsDir, file.fileName);
  if (file.type !== 'chunk' || full === indexPath || full === signInPath) continue;
  const code = readFileSync(full, 'utf8');
  const required = requireOf(path.dirname(full), signInPath);
  if (!code.includes(required)) continue;
  writeFileSync(full, code.replaceAll(required, `${requireOf(path.dirname(full), indexPath)}[${SIGN_IN_EXPORTS}]`));
}

// tsc's per-file JavaScript is now dead weight in the tarball: keep the bundles and the .d.ts files.
const written = new Set(output.filter((file) => file !== signInChunk).map((file) => path.join(cjsDir, file.fileName)));
function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(full);
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
    } else if (entry.name.endsWith('.js') && !written.has(full)) {
      rmSync(full);
    }
  }
}
prune(cjsDir);

// Every JavaScript file the bundle left names only files that exist. A change in the bundler's
// output the rewrites above do not recognise (other quotes, a second require of the sign-in
// chunk) fails the build here, not the first call that reaches the missing file.
for (const full of written) {
  const code = readFileSync(full, 'utf8');
  const name = path.relative(root, full);
  if (!code.replace(/^#!.*\n/, '').startsWith(STRICT)) throw new Error(`bundle: ${name} does not start with ${STRICT}: the bundler's output changed`);
  if (code.includes(path.basename(signInPath))) throw new Error(`bundle: ${name} still names ${path.basename(signInPath)}, which index.js now holds`);
  for (const [, spec] of code.matchAll(/require\(\s*["'`](\.\.?\/[^"'`]+)["'`]\s*\)/g)) {
    if (!existsSync(path.resolve(path.dirname(full), spec))) throw new Error(`bundle: ${name} requires ${spec}, which was not written`);
  }
}

// The emulator's web client: its hand-written assets are served as they are, from dist/web.
rmSync(path.join(root, 'dist', 'web'), { recursive: true, force: true });
cpSync(path.join(root, 'src', 'emulator', 'web', 'assets'), path.join(root, 'dist', 'web'), { recursive: true });

// ESM wrappers: explicit export names (the CommonJS lexer is not involved), one shared instance.
const require = createRequire(import.meta.url);
for (const [entry] of Object.entries(entries)) {
  if (entry === 'cli') continue;
  const cjs = path.join(cjsDir, `${entry}.js`);
  const out = path.join(root, 'dist', 'esm', `${entry}.mjs`);
  mkdirSync(path.dirname(out), { recursive: true });
  const rel = path.relative(path.dirname(out), cjs).split(path.sep).join('/');
  const names = Object.keys(require(cjs)).filter((n) => n !== 'default' && n !== '__esModule');
  writeFileSync(
    out,
    "import { createRequire } from 'node:module';\n" +
      `const cjs = createRequire(import.meta.url)('./${rel}');\n` +
      (names.length ? `export const { ${names.join(', ')} } = cjs;\n` : '') +
      'export default cjs;\n',
  );
}
if (!existsSync(path.join(cjsDir, 'index.js')) || statSync(path.join(cjsDir, 'index.js')).size === 0) {
  throw new Error('bundle: dist/cjs/index.js was not written');
}
