// Child of bench/signin.mjs: one whole first sign-in in a fresh process, timed from before the
// library is loaded to tokens in hand. argv: ours|reference <emulator JSON> [think ms]. The
// emulator runs in the parent; here a minimal headless browser (node:http, following the 302 to
// the loopback listener) stands in for the system browser, the same for both contenders. With a
// think time, the browser waits that long before it asks for the authorize page: the player
// reading it and clicking Authorize.
import { get } from 'node:http';
import { createRequire } from 'node:module';

const t0 = process.hrtime.bigint();
const [mode, emulatorJson, think = '0'] = process.argv.slice(2);
const thinkMs = Number(think);
const emulator = JSON.parse(emulatorJson);
const SCOPE = 'openid sdk.social_layer';

async function browse(url, hops = 0) {
  if (hops === 0 && thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
  return new Promise((resolve, reject) => {
    if (hops > 5) return reject(new Error('too many redirects'));
    get(url, (res) => {
      res.resume();
      const location = res.headers.location;
      res.on('end', () => {
        if (location) browse(new URL(location, url).href, hops + 1).then(resolve, reject);
        else resolve(res.statusCode);
      });
    }).on('error', reject);
  });
}
emulator.openUrl = (url) => browse(url);

let tokens;
if (mode === 'ours') {
  const { Client } = createRequire(import.meta.url)(emulator.packagePath);
  const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: (url) => browse(url) });
  tokens = await client.signIn({ scopes: SCOPE });
  client.close();
} else if (mode === 'reference') {
  const { createReferenceSignIn } = await import('./reference.mjs');
  tokens = await (await createReferenceSignIn(emulator, SCOPE))();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (!(tokens.accessToken ?? tokens.access_token) || !(tokens.idToken ?? tokens.id_token)) throw new Error('no tokens');
process.stdout.write(JSON.stringify({ ms }) + '\n');
