/**
 * The token endpoint's transport, the device flow and provisional requests, loaded on first use:
 * `require('social-sdk-auth')` reads none of them, and a launcher that only signs in through the
 * browser never reads the last two. From the bundle they load as CommonJS, whose exports an
 * `import()` may put under `default`.
 */
type DeviceModule = typeof import('./device.js');
type TokenEndpointModule = typeof import('./token-endpoint.js');
type ProvisionalRequestModule = typeof import('./provisional-request.js');
/** A lazily loaded module's exports: from the bundle a CommonJS chunk, which `import()` may put under `default`. */
export function exportsOf<T extends object>(loaded: T | { default: T }, name: string): T {
  return name in loaded ? (loaded as T) : (loaded as { default: T }).default;
}
/**
 * A module loaded by the first call that needs it and kept once loaded. A load that failed (a
 * file the system could not read just then) is forgotten: the call reports it, and the next call
 * tries again rather than failing the same way for the rest of the process.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
export const loadDevice = loadOnce(() => import('./device.js').then((m) => exportsOf<DeviceModule>(m, 'runDeviceFlow')));
export const loadProvisionalRequest = loadOnce(() =>
  import('./provisional-request.js').then((m) => exportsOf<ProvisionalRequestModule>(m, 'requestProvisionalToken')),
);

/** The token endpoint's transport: loaded by the first token request, or ahead of it by {@link warmUpTokenRequest}. */
export const loadTokenEndpoint = loadOnce(() => import('./token-endpoint.js').then((m) => exportsOf<TokenEndpointModule>(m, 'TokenTransport')));

/**
 * While the player is in the browser: starts `fetch`'s set-up and loads the token endpoint's
 * transport, so the token request that follows pays for neither. Never fails, never waits, never
 * keeps the process alive (it opens no socket).
 */
export function warmUpTokenRequest(): void {
  if (!fetchWarmed) {
    fetchWarmed = true;
    fetch('data:,')
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  }
  loadTokenEndpoint().catch(() => undefined); // the token request itself reports a load that failed
}
let fetchWarmed = false;
