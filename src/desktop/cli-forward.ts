/**
 * `social-sdk-auth forward-redirect --scheme S URL`: hands a redirect URL to the running game
 * from a shell, a launcher script or a program written in another language.
 * Exit status: 0 delivered, 1 not delivered (no instance, refused, timed out), 2 usage error.
 */
import { errorCodeOf } from './errors.js';
import { forwardRedirect } from './forward.js';
import { validateScheme } from './validate.js';

export interface CommandIo {
  /** Where the confirmation goes. */
  stdout: { write(text: string): unknown };
  /** Where errors and usage go. */
  stderr: { write(text: string): unknown };
}

export const FORWARD_REDIRECT_USAGE = `Usage: social-sdk-auth forward-redirect --scheme <scheme> [--endpoint <path>] [--timeout <ms>] <url>

Hands a sign-in redirect URL of <scheme> to the game instance that is waiting for it.

Options:
  --scheme <scheme>    the registered URI scheme, e.g. discord-1234567890 (required)
  --endpoint <path>    socket path or pipe name to use (default: derived from the scheme)
  --timeout <ms>       how long to wait for the game to answer (default: 5000)
  -h, --help           show this help

Exit status: 0 delivered, 1 not delivered, 2 usage error.
`;

type Parsed = { help: true } | { help: false; scheme: string; url: string; endpoint?: string; timeoutMs?: number };

class UsageError extends Error {}

function parse(argv: readonly string[]): Parsed {
  let scheme: string | undefined;
  let endpoint: string | undefined;
  let timeout: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const match = /^--(scheme|endpoint|timeout)(?:=(.*))?$/.exec(arg);
    if (match) {
      const value = match[2] ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`--${match[1]} needs a value.`);
      if (match[1] === 'scheme') scheme = value;
      else if (match[1] === 'endpoint') endpoint = value;
      else timeout = value;
      continue;
    }
    if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}.`);
    positionals.push(arg);
  }
  if (scheme === undefined) throw new UsageError('--scheme is required.');
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'The redirect URL is missing.' : 'Give exactly one redirect URL.');
  }
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    timeoutMs = Number(timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError('--timeout must be a positive whole number of milliseconds.');
  }
  return {
    help: false,
    scheme,
    url: positionals[0] as string,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/** Runs the subcommand with the arguments that follow `forward-redirect`; resolves with the exit status. */
export async function forwardRedirectCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
    if (!parsed.help) validateScheme(parsed.scheme, 'forward-redirect', '--scheme');
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${FORWARD_REDIRECT_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(FORWARD_REDIRECT_USAGE);
    return 0;
  }
  try {
    await forwardRedirect(parsed.url, {
      scheme: parsed.scheme,
      ...(parsed.endpoint !== undefined ? { endpoint: parsed.endpoint } : {}),
      ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
    });
  } catch (error) {
    const code = errorCodeOf(error);
    io.stderr.write(`${(error as Error).message}\n`);
    // A URL that is not of the scheme, or an option out of range, is a usage mistake, not a delivery failure.
    return code === 'ERR_INVALID_REDIRECT_URL' || code === 'ERR_OUT_OF_RANGE' || code === 'ERR_INVALID_ARG_TYPE' ? 2 : 1;
  }
  io.stdout.write('Redirect delivered to the running game.\n');
  return 0;
}
