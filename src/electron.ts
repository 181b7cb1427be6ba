/**
 * `social-sdk-auth/electron`: custom URI scheme sign-in for Electron launchers. Registers the
 * scheme with `app.setAsDefaultProtocolClient`, takes the single-instance lock, and hands every
 * redirect the OS delivers (`open-url` on macOS, `second-instance` on Windows and Linux, the
 * command line at a cold start) to `client.handleRedirect(url)`. It never imports `electron`:
 * the app passes its own `app` and `shell`, typed by the small interfaces below.
 */
import * as path from 'node:path';
import { inspect } from 'node:util';

import { checkBoolean, checkFunction, checkOptions } from './shared/check.js';
import { Client } from './signin/client.js';
import type { ClientOptions } from './signin/options.js';
import { argumentError, SocialSdkAuthError } from './shared/errors.js';
import { redact, redactedError } from './shared/redact.js';
import { findRedirectUrl } from './desktop/forward.js';
import { redirectUrlProblem, validateScheme } from './desktop/validate.js';

/** The event object of `open-url`; Electron's `Event` fits it. */
export interface OpenUrlEventLike {
  /** Tells Electron the app handled the URL. */
  preventDefault(): void;
}

/** Listener of Electron's `open-url` event (macOS). */
export type OpenUrlListener = (event: OpenUrlEventLike, url: string) => void;

/** Listener of Electron's `second-instance` event, in the primary instance. */
export type SecondInstanceListener = (event: unknown, argv: string[], workingDirectory: string, additionalData: unknown) => void;

/**
 * The members of Electron's `app` (main process) that this module uses, typed structurally so
 * that our declarations do not need `electron` installed. Pass `require('electron').app`.
 */
export interface ElectronAppLike {
  /** True when this process holds the single-instance lock, false in a second instance. */
  requestSingleInstanceLock(): boolean;
  /** Makes this executable the OS handler of `protocol`; `path` and `args` are used on Windows only. */
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  /** Undoes `setAsDefaultProtocolClient` called with the same arguments (macOS, Windows). */
  removeAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'open-url', listener: OpenUrlListener): unknown;
  on(event: 'second-instance', listener: SecondInstanceListener): unknown;
  removeListener(event: 'open-url', listener: OpenUrlListener): unknown;
  removeListener(event: 'second-instance', listener: SecondInstanceListener): unknown;
}

/** The member of Electron's `shell` that this module uses. Pass `require('electron').shell`. */
export interface ElectronShellLike {
  /** Opens `url` in the desktop's default browser; rejects when it cannot. */
  openExternal(url: string): Promise<void>;
}

/**
 * What receives the redirects: a `Client` of this package (in `redirect: 'customScheme'` mode, or
 * authorizing with `customSchemeParam`), or anything with the same `handleRedirect`.
 */
export interface RedirectHandler {
  /** True when the URL completed the pending sign-in; false, with no side effect, otherwise. */
  handleRedirect(url: string): boolean;
  /** The application id, used to derive the default scheme `discord-{applicationId}`. */
  getApplicationId?(): string | undefined;
}

/** How a redirect URL reached the app. */
export type RedirectUrlSource = 'open-url' | 'second-instance' | 'argv';

/** What `onUrl` learns about a URL of the scheme besides the URL itself. */
export interface RedirectUrlInfo {
  /**
   * True when `client.handleRedirect` completed the pending sign-in with it. False for a URL
   * no pending sign-in issued: a cold start after the app was closed mid sign-in, a wrong or
   * replayed `state`, or another path of the scheme (a deep link of the app's own).
   */
  consumed: boolean;
  /** `open-url` (macOS), `second-instance` (Windows, Linux) or `argv` (this process's command line). */
  source: RedirectUrlSource;
}

export interface RegisterAuthProtocolOptions {
  /**
   * The custom URI scheme, without `:`. It must be the scheme of the client's redirect URI.
   * Default: `discord-{applicationId}` of the client, which is what the client uses when
   * `customSchemeParam` is not set.
   */
  scheme?: string;
  /**
   * This process's command line, searched for a redirect at a cold start and, when
   * `process.defaultApp` is true, for the app path of the development registration.
   * Default: `process.argv`.
   */
  argv?: readonly string[];
  /**
   * Call `app.setAsDefaultProtocolClient` (and `removeAsDefaultProtocolClient` on `unregister`).
   * Set false when an installer or the app bundle registers the scheme. Default: `true`.
   */
  setAsDefault?: boolean;
  /**
   * Called with every URL of the scheme after `client.handleRedirect` saw it. Bring the window to
   * the front here (focus is the app's job), tell the player to sign in again when `consumed` is
   * false, or route the app's own deep links. The URL carries a single-use code: never log it.
   * Exceptions it throws are reported as a process warning. Default: none.
   */
  onUrl?: (url: string, info: RedirectUrlInfo) => void;
}

export interface AuthProtocolRegistration {
  /**
   * False in a second instance: Electron has already sent this process's command line to the
   * primary instance, nothing was registered, and the app should call `app.quit()` now.
   */
  readonly primary: boolean;
  /** The scheme, lower case. */
  readonly scheme: string;
  /** What `app.setAsDefaultProtocolClient` returned; false when it was not called. */
  readonly registered: boolean;
  /**
   * Removes the listeners this registration added and, when it registered the scheme, calls
   * `app.removeAsDefaultProtocolClient` with the same arguments. Idempotent.
   */
  unregister(): void;
  /** What `JSON.stringify` and `util.inspect` show: `{ primary, scheme, registered }`, nothing of the app or client. */
  toJSON(): { primary: boolean; scheme: string; registered: boolean };
}

export interface ElectronClientOptions extends Omit<ClientOptions, 'redirect' | 'openUrl'>, RegisterAuthProtocolOptions {}

export interface ElectronClient {
  /** A client in `redirect: 'customScheme'` mode that opens the browser with `shell.openExternal`. */
  client: Client;
  /** The protocol registration; check `primary` before going on. */
  registration: AuthProtocolRegistration;
}

const REGISTER = 'registerAuthProtocol';

/** Checks that only registerAuthProtocol makes registrations. */
const CONSTRUCT = Symbol('ProtocolRegistration');

interface RegistrationParts {
  primary: boolean;
  scheme: string;
  registered: boolean;
  /** Removes the listeners and the OS registration; called at most once. */
  release: () => void;
}

/**
 * What {@link registerAuthProtocol} returns. Its state (the app, the client, the listeners)
 * is private in fact, so neither inspection nor JSON can reach the client or a redirect URL.
 */
class ProtocolRegistration implements AuthProtocolRegistration {
  readonly #primary: boolean;
  readonly #scheme: string;
  readonly #registered: boolean;
  #release: (() => void) | undefined;

  constructor(key: symbol, parts: RegistrationParts) {
    if (key !== CONSTRUCT) throw new TypeError('AuthProtocolRegistration: use registerAuthProtocol() to make one.');
    this.#primary = parts.primary;
    this.#scheme = parts.scheme;
    this.#registered = parts.registered;
    this.#release = parts.release;
  }

  get primary(): boolean {
    return this.#primary;
  }

  get scheme(): string {
    return this.#scheme;
  }

  get registered(): boolean {
    return this.#registered;
  }

  unregister(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  toJSON(): { primary: boolean; scheme: string; registered: boolean } {
    return { primary: this.#primary, scheme: this.#scheme, registered: this.#registered };
  }

  [inspect.custom](): string {
    return `AuthProtocolRegistration ${inspect(this.toJSON())}`;
  }
}

/** Schemes registered per app object, so the same URL is not handled twice. */
const active = new WeakMap<object, Set<string>>();

function requireMethods(where: string, name: string, value: unknown, methods: readonly string[], expected: string): void {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    throw argumentError('type', where, name, expected, value);
  }
  for (const method of methods) {
    if (typeof (value as Record<string, unknown>)[method] !== 'function') {
      throw argumentError('type', where, `${name}.${method}`, `a function (${name} must be ${expected})`, (value as Record<string, unknown>)[method]);
    }
  }
}

function resolveScheme(where: string, client: RedirectHandler, scheme: unknown): string {
  if (scheme === undefined) {
    const id = typeof client.getApplicationId === 'function' ? client.getApplicationId() : undefined;
    if (id === undefined) {
      throw argumentError(
        'type',
        where,
        'options.scheme',
        'a URI scheme such as "mygame" (the client has no applicationId to derive "discord-{applicationId}" from)',
        scheme,
      );
    }
    scheme = `discord-${id}`;
  }
  if (typeof scheme !== 'string') throw argumentError('type', where, 'options.scheme', 'a URI scheme string such as "mygame"', scheme);
  return validateScheme(scheme, where, 'options.scheme');
}

/** The executable and arguments the OS runs for the scheme; empty means Electron's default (this executable). */
interface ProtocolCommand {
  path?: string;
  args?: string[];
}

function callWithCommand(
  app: ElectronAppLike,
  method: 'setAsDefaultProtocolClient' | 'removeAsDefaultProtocolClient',
  scheme: string,
  command: ProtocolCommand,
): boolean {
  // Arguments are left out rather than passed as undefined, exactly as Electron's documentation calls these.
  return command.path === undefined ? app[method](scheme) : app[method](scheme, command.path, command.args);
}

function isDefaultApp(): boolean {
  // Electron sets process.defaultApp when the app runs as `electron .` (development).
  return (process as { defaultApp?: unknown }).defaultApp === true;
}

/**
 * Wires a custom URI scheme to `client.handleRedirect` in Electron's main process. Call it
 * synchronously at the top of the main script, before `app`'s `ready` event, so that a macOS
 * `open-url` at launch is not missed.
 *
 * - Takes `app.requestSingleInstanceLock()`. When it returns false this is a second instance
 *   (started by the OS with the redirect, which Electron forwards to the primary instance): the
 *   function registers nothing and returns `{ primary: false }`; the app must `app.quit()`.
 * - Calls `app.setAsDefaultProtocolClient(scheme)`, or, when `process.defaultApp` is true (run as
 *   `electron .`), `setAsDefaultProtocolClient(scheme, process.execPath, [path.resolve(argv[1])])`
 *   as Electron's deep-link tutorial does; only Windows uses the path and arguments.
 * - Listens for `open-url` and `second-instance`, and looks for a redirect in `argv` (cold start).
 *
 * URLs of other schemes are ignored. A cold-start redirect can never complete a sign-in (the
 * PKCE verifier died with the process that started it): it reaches `onUrl` with `consumed: false`.
 */
export function registerAuthProtocol(app: ElectronAppLike, client: RedirectHandler, options: RegisterAuthProtocolOptions = {}): AuthProtocolRegistration {
  requireMethods(
    REGISTER,
    'app',
    app,
    ['requestSingleInstanceLock', 'setAsDefaultProtocolClient', 'removeAsDefaultProtocolClient', 'on', 'removeListener'],
    "Electron's app (require('electron').app in the main process)",
  );
  requireMethods(REGISTER, 'client', client, ['handleRedirect'], 'a social-sdk-auth Client');
  checkOptions(REGISTER, options);
  const scheme = resolveScheme(REGISTER, client, options.scheme);
  const argv = options.argv === undefined ? process.argv : options.argv;
  if (!Array.isArray(argv)) throw argumentError('type', REGISTER, 'options.argv', 'an array of strings such as process.argv', argv);
  const setAsDefault = checkBoolean(REGISTER, 'options.setAsDefault', options.setAsDefault, true);
  const onUrl = checkFunction<(url: string, info: RedirectUrlInfo) => void>(REGISTER, 'options.onUrl', options.onUrl);

  const schemes = active.get(app) ?? new Set<string>();
  if (schemes.has(scheme)) {
    throw new SocialSdkAuthError(
      'ERR_ALREADY_REGISTERED',
      `${REGISTER}: the scheme "${scheme}" is already registered on this app, so every redirect would be handled twice. ` +
        'Call unregister() on the earlier registration first, or keep using it.',
    );
  }

  if (!app.requestSingleInstanceLock()) {
    return new ProtocolRegistration(CONSTRUCT, { primary: false, scheme, registered: false, release: () => {} });
  }

  // Electron's deep-link tutorial: in development the executable is electron itself, so it needs the app path.
  let command: ProtocolCommand | undefined;
  if (setAsDefault) {
    if (!isDefaultApp()) command = {};
    else if (typeof argv[1] === 'string' && argv[1] !== '') command = { path: process.execPath, args: [path.resolve(argv[1])] };
  }
  const registered = command !== undefined && callWithCommand(app, 'setAsDefaultProtocolClient', scheme, command) === true;

  let closed = false;
  const deliver = (url: string, source: RedirectUrlSource) => {
    if (closed) return;
    let consumed = false;
    try {
      consumed = client.handleRedirect(url) === true;
    } catch {
      // a closed client cannot complete anything; the URL is reported as not consumed
    }
    if (!onUrl) return;
    try {
      onUrl(url, { consumed, source });
    } catch (error) {
      // The app's message may quote the URL, whose code and state must not reach a log.
      const message = redact((error as Error)?.message ?? String(error), [url]);
      process.emitWarning(`social-sdk-auth: the onUrl callback of ${REGISTER} threw: ${message}`, {
        code: 'SOCIAL_SDK_AUTH_ON_URL',
      });
    }
  };
  const onOpenUrl: OpenUrlListener = (event, url) => {
    if (typeof url !== 'string' || redirectUrlProblem(url, scheme) !== undefined) return;
    event?.preventDefault?.();
    deliver(url, 'open-url');
  };
  const onSecondInstance: SecondInstanceListener = (_event, secondArgv) => {
    const url = Array.isArray(secondArgv) ? findRedirectUrl(secondArgv as string[], scheme) : undefined;
    if (url !== undefined) deliver(url, 'second-instance');
  };
  app.on('open-url', onOpenUrl);
  app.on('second-instance', onSecondInstance);
  schemes.add(scheme);
  active.set(app, schemes);

  const coldStart = findRedirectUrl(argv, scheme);
  // After this call returns, so that onUrl can use the registration and run after the app's own setup.
  if (coldStart !== undefined) queueMicrotask(() => deliver(coldStart, 'argv'));

  return new ProtocolRegistration(CONSTRUCT, {
    primary: true,
    scheme,
    registered,
    release() {
      closed = true;
      app.removeListener('open-url', onOpenUrl);
      app.removeListener('second-instance', onSecondInstance);
      schemes.delete(scheme);
      if (command !== undefined) callWithCommand(app, 'removeAsDefaultProtocolClient', scheme, command);
    },
  });
}

/** Same as `registration.unregister()`. */
export function unregisterAuthProtocol(registration: AuthProtocolRegistration): void {
  requireMethods('unregisterAuthProtocol', 'registration', registration, ['unregister'], 'what registerAuthProtocol returned');
  registration.unregister();
}

/**
 * An `openUrl` for `new Client({ openUrl })` that opens the authorize URL with Electron's
 * `shell.openExternal`. Its failures reach the client's `onOpenUrlFailed` / `openUrlFailed`.
 */
export function electronOpener(shell: ElectronShellLike): (url: string) => Promise<void> {
  requireMethods('electronOpener', 'shell', shell, ['openExternal'], "Electron's shell (require('electron').shell)");
  // async, so that a synchronous throw becomes a rejection too
  return async (url: string) => {
    try {
      await shell.openExternal(url);
    } catch (error) {
      // Its message may quote a URL with a code or state: the client and the app see a redacted copy.
      throw redactedError(error);
    }
  };
}

/**
 * A client in custom-scheme mode that opens the browser with `shell.openExternal`, and its
 * protocol registration (see {@link registerAuthProtocol}). When `registration.primary` is false,
 * call `app.quit()` and do not use the client.
 */
export function createElectronClient(app: ElectronAppLike, shell: ElectronShellLike, options: ElectronClientOptions = {}): ElectronClient {
  const where = 'createElectronClient';
  checkOptions(where, options);
  const { scheme, argv, setAsDefault, onUrl, ...clientOptions } = options;
  // Checked before the client exists, so a bad scheme reads the same here as in registerAuthProtocol.
  if (scheme !== undefined) resolveScheme(where, { handleRedirect: () => false }, scheme);
  const client = new Client({
    ...clientOptions,
    customSchemeParam: clientOptions.customSchemeParam ?? scheme,
    redirect: 'customScheme',
    openUrl: electronOpener(shell),
  });
  try {
    const registration = registerAuthProtocol(app, client, {
      scheme: scheme ?? clientOptions.customSchemeParam,
      argv,
      setAsDefault,
      onUrl,
    });
    return { client, registration };
  } catch (error) {
    client.close();
    throw error;
  }
}
