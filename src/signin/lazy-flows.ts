/**
 * The client's requests (token calls, device and provisional flows, requests.ts), and the device
 * flow and provisional request themselves, loaded on first use: `require('social-sdk-auth')`
 * reads none of them, and a launcher that only signs in through the browser never reads the last
 * two. From the bundle they load as CommonJS, whose exports an `import()` may put under `default`.
 */
type DeviceModule = typeof import('./device.js');
type RequestsModule = typeof import('./requests.js');
type ProvisionalRequestModule = typeof import('./provisional-request.js');
let deviceModule: Promise<DeviceModule> | undefined;
let requestsModule: Promise<RequestsModule> | undefined;
let provisionalModule: Promise<ProvisionalRequestModule> | undefined;
function exportsOf<T extends object>(loaded: T | { default: T }, name: string): T {
  return name in loaded ? (loaded as T) : (loaded as { default: T }).default;
}
export function loadDevice(): Promise<DeviceModule> {
  deviceModule ??= import('./device.js').then((m) => exportsOf<DeviceModule>(m, 'runDeviceFlow'));
  return deviceModule;
}
export function loadProvisionalRequest(): Promise<ProvisionalRequestModule> {
  provisionalModule ??= import('./provisional-request.js').then((m) => exportsOf<ProvisionalRequestModule>(m, 'requestProvisionalToken'));
  return provisionalModule;
}

/** The client's requests: loaded by the first one, or ahead of it by {@link warmUpTokenRequest}. */
export function loadRequests(): Promise<RequestsModule> {
  requestsModule ??= import('./requests.js').then((m) => exportsOf<RequestsModule>(m, 'TokenCalls'));
  return requestsModule;
}

/**
 * While the player is in the browser: starts `fetch`'s set-up and loads what the token request
 * needs, so the request that follows pays for neither. Never fails, never waits, never keeps the
 * process alive (it opens no socket).
 */
export function warmUpTokenRequest(): void {
  if (!fetchWarmed) {
    fetchWarmed = true;
    fetch('data:,')
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  }
  loadRequests().catch(() => undefined); // the token request itself reports a load that failed
}
let fetchWarmed = false;
