/**
 * The default UrlOpener: the platform's handler for http(s) URLs. It never throws; a failure
 * is reported through the returned promise so the client can hand the URL to the application.
 */
import type { ChildProcess } from 'node:child_process';

/** How long to wait for the opener to report failure before assuming it worked. */
const SETTLE_MS = 3000;

export function openSystemBrowser(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      reject(new Error('the URL is not valid'));
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      reject(new Error('only http and https URLs are opened'));
      return;
    }
    // No shell anywhere: the URL is one argument, never parsed as a command line.
    const [command, args] =
      process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
    let child: ChildProcess;
    try {
      // Loaded here, not at import: most runs never open a browser, and loading it costs start-up time.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { spawn } = require('node:child_process') as typeof import('node:child_process');
      child = spawn(command, args, { stdio: 'ignore', detached: process.platform !== 'win32' });
    } catch (error) {
      reject(error as Error);
      return;
    }
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, SETTLE_MS);
    timer.unref();
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not be started (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with status ${code}`));
    });
    child.unref();
  });
}
