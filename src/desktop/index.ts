/**
 * `social-sdk-auth/desktop`: custom URI scheme registration and single-instance hand-off for
 * plain Node games. It delivers redirect URL strings to a callback; the client's
 * `handleRedirect(url)` consumes them.
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
export { redirectEndpoint, endpointDirectory, type EndpointOptions } from './endpoint.js';
export { validateScheme, defaultScheme, customSchemeRedirectUri, MAX_URL_BYTES } from './validate.js';
export { desktopExecLine, quoteExecArgument, windowsCommandLine, quoteWindowsArgument } from './command-line.js';
export { desktopEntry, desktopFileId } from './linux.js';
export {
  buildRegAddInvocations,
  buildRegDeleteInvocation,
  buildRegQueryInvocation,
  schemeRegistryKey,
  type RegInvocation,
} from './windows.js';
export { forwardRedirectCommand, type CommandIo } from './cli-forward.js';
export * from './errors.js';
