// Child of bench/pkce.mjs: times the first ESM import of the package (or of openid-client, for
// reference) in a fresh process, start-up excluded. Prints one JSON line. argv: esm|openid <path>.
import { pathToFileURL } from 'node:url';

const [mode, target] = process.argv.slice(2);
const t0 = process.hrtime.bigint();
let t1 = t0;
if (mode === 'esm') {
  const { Client } = await import(pathToFileURL(target).href);
  t1 = process.hrtime.bigint();
  // The package loads the addon lazily: this first static getter is what loads it.
  if (typeof Client.defaultCommunicationScopes !== 'string') throw new Error('no scopes');
} else if (mode === 'openid') {
  await import(pathToFileURL(target).href);
  t1 = process.hrtime.bigint();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const t2 = process.hrtime.bigint();
// Proves the measured step really mapped the native binary into this process.
const nativeLoaded = process.report.getReport().sharedObjects.some((file) => file.endsWith('.node'));
process.stdout.write(JSON.stringify({ totalMs: Number(t2 - t0) / 1e6, jsMs: Number(t1 - t0) / 1e6, nativeLoaded }) + '\n');
