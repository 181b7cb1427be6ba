// The sign-in a user would write without us: openid-client for the protocol, and a one-shot
// node:http loopback listener on 127.0.0.1, with the same headless browser (emulator.openUrl).
import { createServer } from 'node:http';

const CALLBACK_TIMEOUT_MS = 15_000;

/** Listens on an ephemeral 127.0.0.1 port for one GET /callback; `callback` resolves with its full URL. */
function listenOnce() {
  return new Promise((resolveListening, rejectListening) => {
    let resolveCallback;
    let rejectCallback;
    const callback = new Promise((resolve, reject) => {
      resolveCallback = resolve;
      rejectCallback = reject;
    });
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${server.address().port}`);
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Not found');
        return;
      }
      // Answer first, then stop listening: the browser gets its page, nothing else gets in.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
      res.end('<!doctype html><title>Signed in</title><p>You can close this window and return to the game.</p>');
      clearTimeout(timer);
      server.close();
      resolveCallback(url);
    });
    const timer = setTimeout(() => {
      server.close();
      rejectCallback(new Error(`no redirect reached the loopback listener within ${CALLBACK_TIMEOUT_MS} ms`));
    }, CALLBACK_TIMEOUT_MS);
    server.once('error', (error) => {
      clearTimeout(timer);
      rejectListening(error);
    });
    server.listen(0, '127.0.0.1', () => resolveListening({ port: server.address().port, callback }));
  });
}

/**
 * Returns `signIn()` for the emulator: authorization code + PKCE with state and nonce, checked by
 * openid-client's authorizationCodeGrant, as openid-client's documentation shows it.
 */
export async function createReferenceSignIn(emulator, scope) {
  const oidc = await import('openid-client');
  // One Configuration for the app's lifetime, as an app would keep it; no discovery round trip.
  const config = new oidc.Configuration(
    {
      issuer: emulator.issuer,
      authorization_endpoint: `${emulator.webBase}/oauth2/authorize`,
      token_endpoint: `${emulator.apiBase}/oauth2/token`,
    },
    emulator.applicationId,
    undefined,
    oidc.None(),
  );
  // The emulator speaks plain http on 127.0.0.1; openid-client refuses that unless asked by name.
  oidc.allowInsecureRequests(config);

  return async function referenceSignIn() {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const { port, callback } = await listenOnce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `http://127.0.0.1:${port}/callback`,
      scope,
      state,
      nonce,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
    // Like our client, the sign-in does not wait on the browser, only on the redirect.
    const browsing = emulator.openUrl(url.href);
    const failedBrowser = browsing.then(
      () => new Promise(() => {}),
      (error) => Promise.reject(error),
    );
    const callbackUrl = await Promise.race([callback, failedBrowser]);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    await browsing;
    return tokens;
  };
}
