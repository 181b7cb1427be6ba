/**
 * The device flow and provisional requests, loaded on first use: a launcher that only signs in
 * through the browser never reads them. From the bundle they load as CommonJS, whose exports an
 * `import()` may put under `default`.
 */
type DeviceModule = typeof import('./device.js');
type ProvisionalRequestModule = typeof import('./provisional-request.js');
let deviceModule: Promise<DeviceModule> | undefined;
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
