/**
 * `social-sdk-auth/desktop`: custom URI scheme registration and single-instance hand-off for
 * plain Node games. It delivers redirect URL strings to a callback; the client's
 * `handleRedirect(url)` consumes them. Only the documented API is exported here; the modules
 * behind it are internal.
 */
export {
  registerUriScheme,
  unregisterUriScheme,
  defaultHandlerCommand,
  type RegisterUriSchemeOptions,
  type RegisteredScheme,
  type UnregisterUriSchemeOptions,
} from './scheme.js';
export { listenForRedirects, type ListenForRedirectsOptions, type RedirectListener } from './listener.js';
export { forwardRedirect, findRedirectUrl, type ForwardRedirectOptions } from './forward.js';
export { handOffOrListen, type HandOffOrListenOptions, type HandOffOrListenResult } from './handoff.js';
export { redirectEndpoint, type EndpointOptions } from './endpoint.js';
export { validateScheme, defaultScheme, customSchemeRedirectUri } from './validate.js';
export { windowsCommandLine } from './command-line.js';
export { desktopEntry, type DesktopEntryInput } from './linux.js';
export { openSchemeUrl, type OpenSchemeUrlOptions, type OpenSchemeUrlResult } from './open-scheme.js';
export {
  DesktopError,
  type DesktopErrorCode,
  type DesktopErrorDetails,
  InvalidSchemeError,
  InvalidRedirectUrlError,
  UnsupportedPlatformError,
  MissingToolError,
  CommandFailedError,
  InstanceRunningError,
  NoInstanceError,
  RedirectRejectedError,
  HandoffTimeoutError,
  HandoffError,
  UnsafeEndpointError,
  DesktopAbortError,
} from './errors.js';
