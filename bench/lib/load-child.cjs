// Child of bench/pkce.mjs: times the first require of the package in a fresh process, so that
// process start-up is excluded. Prints one JSON line. argv: cjs|addon <path>.
const mode = process.argv[2];
const target = process.argv[3];
const t0 = process.hrtime.bigint();
let t1 = t0;
if (mode === 'cjs') {
  const pkg = require(target);
  t1 = process.hrtime.bigint();
  // The package loads the addon lazily: this first static getter is what loads it.
  if (typeof pkg.Client.defaultCommunicationScopes !== 'string') throw new Error('no scopes');
} else if (mode === 'addon') {
  require(target);
  t1 = process.hrtime.bigint();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const t2 = process.hrtime.bigint();
// Proves the measured step really mapped the native binary into this process.
const nativeLoaded = process.report.getReport().sharedObjects.some((file) => file.endsWith('.node'));
process.stdout.write(JSON.stringify({ totalMs: Number(t2 - t0) / 1e6, jsMs: Number(t1 - t0) / 1e6, nativeLoaded }) + '\n');
