import { EventEmitter } from 'node:events';
import type { App, Event, Shell } from 'electron';

/**
 * Stand-ins for Electron's `app` and `shell`, because the `electron` binary cannot be downloaded
 * here. They follow the documented API (https://www.electronjs.org/docs/latest/api/app,
 * https://www.electronjs.org/docs/latest/tutorial/launch-app-from-url-in-another-app) and are
 * type-checked against electron's own declarations:
 * - `setAsDefaultProtocolClient(protocol[, path, args])`: `path` defaults to `process.execPath`
 *   and `args` to `[]`; on macOS only schemes declared in Info.plist can be registered;
 * - `removeAsDefaultProtocolClient` and `isDefaultProtocolClient` match the same path and args;
 * - `requestSingleInstanceLock()` is false when another instance holds the lock;
 * - start-up order: `will-finish-launching`, then (macOS) `open-url` for a URL that launched the
 *   app, then `ready`; `second-instance` is only emitted after `ready`.
 */
export class AppStandIn
  extends EventEmitter
  implements
    Pick<App, 'setAsDefaultProtocolClient' | 'removeAsDefaultProtocolClient' | 'isDefaultProtocolClient' | 'requestSingleInstanceLock' | 'quit' | 'isReady'>
{
  readonly platform: NodeJS.Platform;
  /** The OS table of scheme handlers this process wrote: scheme → command. */
  readonly handlers = new Map<string, { path: string; args: string[] }>();
  /** Every call of the protocol methods, in order, with the arguments as given. */
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  quitCalled = false;
  private readonly otherInstanceRunning: boolean;
  private readonly infoPlistSchemes: readonly string[] | undefined;
  private ready = false;

  constructor(options: { platform?: NodeJS.Platform; otherInstanceRunning?: boolean; infoPlistSchemes?: string[] } = {}) {
    super();
    this.platform = options.platform ?? 'win32';
    this.otherInstanceRunning = options.otherInstanceRunning ?? false;
    this.infoPlistSchemes = options.infoPlistSchemes;
  }

  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean {
    // eslint-disable-next-line prefer-rest-params -- records the arguments exactly as the caller passed them, how many included
    this.calls.push({ method: 'setAsDefaultProtocolClient', args: [...arguments] });
    if (this.platform === 'darwin' && this.infoPlistSchemes && !this.infoPlistSchemes.includes(protocol)) return false;
    this.handlers.set(protocol, { path: path ?? process.execPath, args: args ?? [] });
    return true;
  }

  removeAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean {
    // eslint-disable-next-line prefer-rest-params -- records the arguments exactly as the caller passed them, how many included
    this.calls.push({ method: 'removeAsDefaultProtocolClient', args: [...arguments] });
    if (!this.isDefaultProtocolClient(protocol, path, args)) return false;
    this.handlers.delete(protocol);
    return true;
  }

  isDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean {
    const handler = this.handlers.get(protocol);
    return handler !== undefined && handler.path === (path ?? process.execPath) && JSON.stringify(handler.args) === JSON.stringify(args ?? []);
  }

  requestSingleInstanceLock(_additionalData?: Record<any, any>): boolean {
    this.calls.push({ method: 'requestSingleInstanceLock', args: [] });
    return !this.otherInstanceRunning;
  }

  quit(): void {
    this.quitCalled = true;
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Runs Electron's start-up events; on macOS, `launchUrl` is the URL that launched the app. */
  launch(launchUrl?: string): void {
    this.emit('will-finish-launching');
    if (launchUrl !== undefined) this.openUrl(launchUrl);
    this.ready = true;
    this.emit('ready', makeEvent(), {});
  }

  /** macOS: the OS asks the running app to open `url`. Returns the event, to check `defaultPrevented`. */
  openUrl(url: string): Event {
    if (this.platform !== 'darwin') throw new Error('open-url is emitted on macOS only');
    const event = makeEvent();
    this.emit('open-url', event, url);
    return event;
  }

  /** Windows and Linux: a second instance started with `argv` called requestSingleInstanceLock. */
  secondInstance(argv: string[], workingDirectory = '/home/player', additionalData: unknown = {}): void {
    if (!this.ready) throw new Error("second-instance is only emitted after 'ready'");
    this.emit('second-instance', makeEvent(), argv, workingDirectory, additionalData);
  }
}

function makeEvent(): Event {
  let prevented = false;
  return {
    preventDefault: () => {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
  };
}

/**
 * The argv the primary instance sees for a second instance the OS started with `url`:
 * the executable, in development the app path, the URL, and switches Chromium appends
 * (Electron's docs name `--original-process-start-time`; order is not guaranteed).
 */
export function chromiumArgv(url: string, options: { appPath?: string } = {}): string[] {
  return [
    process.execPath,
    ...(options.appPath ? [options.appPath] : []),
    '--allow-file-access-from-files',
    url,
    '--original-process-start-time=13370000000000000',
  ];
}

/** A stand-in for Electron's `shell`: `openExternal` hands the URL to a "browser" and resolves, or rejects with `failWith`. */
export class ShellStandIn implements Pick<Shell, 'openExternal'> {
  readonly opened: string[] = [];
  constructor(
    private readonly browser: (url: string) => void = () => {},
    private readonly failWith?: Error,
  ) {}

  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
    if (this.failWith) throw this.failWith;
    // The browser runs on its own; openExternal resolves once it was started.
    this.browser(url);
  }
}
