#!/usr/bin/env node
/**
 * The `social-sdk-auth` command. Each subcommand is an entry in COMMANDS; `runCli` parses the
 * command line, dispatches, and returns the exit code, so it can be tested in-process.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkSnowflake } from './shared/check.js';
import { forwardRedirectCommand, FORWARD_REDIRECT_USAGE } from './desktop/cli-forward.js';
import { DEFAULT_APPLICATION_ID, startEmulator, type Emulator } from './emulator/index.js';
import { INVALID_REQUEST_LIMIT } from './emulator/kernel/ratelimit.js';
import { openSystemBrowser } from './signin/opener.js';
import { flagsOfIntents, readWorldFile, type WorldCommand, type WorldFile } from './emulator/world-file.js';

/** Where a command writes, and what tells a long-running command to stop. */
export interface CliIo {
  /** Writes a line of normal output. */
  out: (line: string) => void;
  /** Writes a line of diagnostics. */
  err: (line: string) => void;
  /** Aborting it stops a long-running command such as `emulator`; `main` wires it to SIGINT and SIGTERM. */
  signal: AbortSignal;
  /** Opens a URL for `emulator --open`. Default: the system browser. */
  openUrl?: (url: string) => Promise<void>;
}

interface Command {
  summary: string;
  usage: string;
  /** Runs with the arguments after the command name; returns the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** Exit code for a command line that could not be understood. */
const USAGE_ERROR = 2;

class UsageError extends Error {}

/** Parses `args` against `options`, turning node:util errors into UsageError. */
function parseOptions<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be an integer from 0 to 65535; received "${value}".`);
  return port;
}

/** The ids of `--player`, each a user id given once. */
function checkPlayers(values: string[] | undefined): string[] {
  const players: string[] = [];
  for (const value of values ?? []) {
    let id: string;
    try {
      id = checkSnowflake('--player', 'its value', value);
    } catch {
      throw new UsageError(`--player must be a user id (decimal digits, 1 to 2^64 − 1) such as 80351110224678912; received "${value.slice(0, 40)}".`);
    }
    if (players.includes(id)) throw new UsageError(`--player ${id} is given twice; give each player once.`);
    players.push(id);
  }
  return players;
}

const REGISTER_TIMEOUT_MS = 10_000;

/** Registers a world file's commands as a deploy script would: one bulk overwrite per scope (global, or each guild_id), through the emulator's own route and its field checks. */
async function registerCommands(emulator: Emulator, commands: readonly WorldCommand[]): Promise<void> {
  const scopes = new Map<string | undefined, { index: number; body: Record<string, unknown> }[]>();
  commands.forEach((command, index) => {
    const { guild_id: guildId, ...body } = command;
    scopes.set(guildId, [...(scopes.get(guildId) ?? []), { index, body }]);
  });
  for (const [guildId, list] of scopes) {
    const path = guildId === undefined ? 'commands' : `guilds/${guildId}/commands`;
    const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/${path}`, {
      method: 'PUT',
      headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(list.map((c) => c.body)),
      // The emulator answers in-process; a hang here would be a fault of its own, said rather than waited out.
      signal: AbortSignal.timeout(REGISTER_TIMEOUT_MS),
    });
    if (res.status !== 200) {
      const answer = (await res.json().catch(() => ({}))) as { message?: unknown; errors?: unknown };
      const indexes = list.map((c) => c.index).join(', ');
      throw new Error(
        `commands ${indexes}${guildId === undefined ? '' : ` (guild ${guildId})`} were refused with ${res.status}: ${typeof answer.message === 'string' ? answer.message : ''} ${JSON.stringify(answer.errors ?? {})}`.trimEnd(),
      );
    }
  }
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

const COMMANDS: Record<string, Command> = {
  emulator: {
    summary: 'run the headless platform emulator until interrupted',
    usage: [
      'Usage: social-sdk-auth emulator [--world FILE] [--port N] [--application-id ID] [--redirect-uri URI ...]',
      '                                [--flags BITS] [--intents NAMES] [--data-dir DIR] [--rate-limits service|off]',
      '                                [--invalid-request-limit N]',
      '                                [--guild] [--gateway] [--interactions-url URL] [--desktop-client DIR]',
      '                                [--player ID ...] [--consent headless|page] [--allowed-host NAME ...]',
      '                                [--open]',
      '',
      'Starts the platform emulator on 127.0.0.1: OAuth (authorize, token, revoke, device flow,',
      'discovery, JWKS, userinfo), provisional accounts, lobbies, application commands and their',
      'permissions, guilds, channel messages and interactions. Prints its web base, API base,',
      'application id, bot token and public key. Stop it with Ctrl+C.',
      '',
      'Options:',
      '  --world FILE           start from a JSON file of startEmulator options (applications with',
      '                         flags and redirect URIs, users, guilds with channels and members,',
      '                         gateway, ...) plus "players" (user ids to print a token for) and',
      '                         "commands" (registered for the first application; "guild_id" makes',
      '                         one a guild command); the options below win over the file',
      '  --port N               port to listen on (default 0: an ephemeral port)',
      '  --application-id ID    the application id your game uses (default 1234567890123456789)',
      '  --redirect-uri URI     a redirect URI to register, e.g. mygame:/authorize/callback;',
      '                         repeatable (default: http://127.0.0.1/callback and',
      '                         discord-{application id}:/authorize/callback)',
      "  --flags BITS           the first application's flags, a decimal bit set",
      "  --intents NAMES        let the first application's bot use these privileged intents: a",
      '                         comma-separated list of GuildPresences, GuildMembers, MessageContent',
      '  --data-dir DIR         keep lobbies, messages, sign-ins and the bot token in an SQLite',
      '                         database in DIR (needs the optional dependency libsql); a',
      '                         restart with the same DIR resumes (default: state in memory)',
      "  --rate-limits MODE     service: enforce the service's rate limits on the lobby",
      '                         interface; off: none (default service)',
      '  --invalid-request-limit N',
      '                         block an address for an hour at its Nth 401, 403 or 429 answer in',
      "                         10 minutes, from 1 to 10000 (default 10000, the service's): try a",
      "                         client's handling of the block without sending thousands",
      '  --guild                create a guild (the first user owns it, with a #general channel)',
      '                         and print its id, to register guild commands against',
      '  --gateway              also serve the gateway (WebSocket events for bots; needs the',
      '                         optional dependency ws) and print its URL',
      "  --interactions-url URL set the application's interactions endpoint; the emulator checks",
      '                         it first with signed PINGs, as the service does',
      '  --desktop-client DIR   also play the desktop client on DIR/discord-ipc-0, for sign-ins',
      "                         through local IPC (point the game's desktopClientSocketDir at DIR)",
      '  --player ID            a player with this user id, and print a Bearer token of theirs',
      '                         (scopes openid sdk.social_layer) for the player routes, e.g.',
      '                         PUT /lobbies; repeatable; the first is the one who signs in',
      '                         (default: one user, 80351110224678912, and no token printed);',
      '                         with --world, a user of the file',
      '  --consent MODE         headless: sign-ins are approved as the signed-in user with no page;',
      '                         page: the authorize URL shows a consent page to choose the account,',
      '                         authorize or cancel (default headless, or page with --open)',
      '  --allowed-host NAME    also answer requests for this host name (or name:port), e.g. a',
      "                         name in /etc/hosts or a reverse proxy's; repeatable (default:",
      '                         127.0.0.1, localhost and [::1] with the port only)',
      '  --open                 open the web client (the printed web client URL) in the system',
      '                         browser, to play the player: commands, components, modals',
      '  -h, --help             show this help',
    ].join('\n'),
    async run(args, io) {
      const { values } = parseOptions(args, {
        world: { type: 'string' },
        port: { type: 'string' },
        'application-id': { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        flags: { type: 'string' },
        intents: { type: 'string' },
        'data-dir': { type: 'string' },
        'rate-limits': { type: 'string' },
        'invalid-request-limit': { type: 'string' },
        guild: { type: 'boolean' },
        gateway: { type: 'boolean' },
        'interactions-url': { type: 'string' },
        'desktop-client': { type: 'string' },
        player: { type: 'string', multiple: true },
        consent: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        open: { type: 'boolean' },
      });
      if (values.help === true) {
        io.out(this.usage);
        return 0;
      }
      const worldPath = values.world as string | undefined;
      let world: WorldFile = { options: {}, players: [], commands: [] };
      if (worldPath !== undefined) {
        try {
          world = readWorldFile(worldPath);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
      }
      const port = values.port === undefined ? (world.options.port ?? 0) : parsePort(values.port as string);
      const rateLimits = values['rate-limits'] as string | undefined;
      if (rateLimits !== undefined && rateLimits !== 'service' && rateLimits !== 'off')
        throw new UsageError(`--rate-limits must be "service" or "off"; received "${rateLimits}".`);
      const invalidArg = values['invalid-request-limit'] as string | undefined;
      let invalidRequestLimit: number | undefined;
      if (invalidArg !== undefined) {
        invalidRequestLimit = /^\d{1,5}$/.test(invalidArg) ? Number(invalidArg) : NaN;
        if (!(invalidRequestLimit >= 1 && invalidRequestLimit <= INVALID_REQUEST_LIMIT))
          throw new UsageError(`--invalid-request-limit must be a whole number from 1 to ${INVALID_REQUEST_LIMIT}; received "${invalidArg.slice(0, 40)}".`);
      }
      const consent = values.consent as string | undefined;
      if (consent !== undefined && consent !== 'headless' && consent !== 'page')
        throw new UsageError(`--consent must be "headless" or "page"; received "${consent}".`);
      const flagsArg = values.flags as string | undefined;
      if (flagsArg !== undefined && !/^\d{1,20}$/.test(flagsArg))
        throw new UsageError(`--flags must be the application's flags as a decimal bit set, e.g. 278528; received "${flagsArg.slice(0, 40)}".`);
      let extraFlags = flagsArg === undefined ? 0n : BigInt(flagsArg);
      if (values.intents !== undefined) {
        try {
          extraFlags |= flagsOfIntents('social-sdk-auth emulator', values.intents as string);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
      }
      const cliPlayers = checkPlayers(values.player as string[] | undefined);
      const worldUsers = world.options.users;
      const players = [...world.players, ...cliPlayers.filter((id) => !world.players.includes(id))];
      const known = worldUsers?.map((u) => (u as { id?: unknown } | null)?.id);
      const stranger = known === undefined ? undefined : players.find((userId) => !known.includes(userId));
      if (stranger !== undefined) throw new UsageError(`--player ${stranger} is not a user of ${worldPath}; list it in its "users".`);
      let emulator;
      try {
        const id = values['application-id'] as string | undefined;
        const redirectUris = values['redirect-uri'] as string[] | undefined;
        if (world.options.applications !== undefined && (id !== undefined || redirectUris !== undefined)) {
          throw new UsageError('--application-id and --redirect-uri cannot change the applications of --world; edit them in the file.');
        }
        // Only build an application when asked, so the emulator's own defaults stay the defaults.
        let applications =
          world.options.applications ??
          (id !== undefined || redirectUris !== undefined || values.flags !== undefined || values.intents !== undefined
            ? [{ id: id ?? DEFAULT_APPLICATION_ID, ...(redirectUris ? { redirectUris } : {}) }]
            : undefined);
        if (applications !== undefined && extraFlags !== 0n) {
          const [first, ...rest] = applications;
          const own = first?.flags;
          const base = typeof own === 'bigint' ? own : typeof own === 'string' && /^\d{1,20}$/.test(own) ? BigInt(own) : own === undefined ? 0n : undefined;
          // A malformed flags value in the file is left for startEmulator to name.
          applications = [{ ...first!, ...(base === undefined ? {} : { flags: base | extraFlags }) }, ...rest];
        }
        const dataDir = (values['data-dir'] as string | undefined) ?? world.options.dataDir;
        const allowedHosts = values['allowed-host'] as string[] | undefined;
        emulator = await startEmulator({
          ...world.options,
          port,
          ...(applications ? { applications } : {}),
          ...(dataDir !== undefined ? { dataDir } : {}),
          ...(rateLimits !== undefined ? { rateLimits } : {}),
          ...(invalidRequestLimit !== undefined ? { invalidRequestLimit } : {}),
          ...(values.gateway === true ? { gateway: true } : {}),
          ...(allowedHosts !== undefined ? { allowedHosts } : {}),
          consent: consent ?? (values.open === true ? 'page' : 'headless'),
          ...(worldUsers === undefined && players.length > 0 ? { users: players.map((id, i) => ({ id, username: `player${i + 1}` })) } : {}),
        });
      } catch (err) {
        if (err instanceof UsageError) throw err;
        const code = (err as { code?: unknown }).code;
        // A bad --application-id, --redirect-uri, --allowed-host or world file is the caller's mistake: a usage error.
        if (code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_OUT_OF_RANGE')
          throw new UsageError(worldPath === undefined ? (err as Error).message : `--world ${worldPath}: ${(err as Error).message}`);
        io.err(`social-sdk-auth emulator: could not start: ${(err as Error).message}`);
        return 1;
      }
      try {
        await registerCommands(emulator, world.commands);
      } catch (err) {
        await emulator.close();
        throw new UsageError(`--world ${worldPath}: ${(err as Error).message}`);
      }
      io.out(`Platform emulator listening on ${emulator.webBase}`);
      io.out(`  web base:       ${emulator.webBase}`);
      io.out(`  api base:       ${emulator.apiBase}`);
      if (values.gateway === true || (world.options.gateway !== undefined && world.options.gateway !== false))
        io.out(`  gateway:        ${emulator.gatewayUrl}`);
      io.out(`  web client:     ${emulator.uiUrl}`);
      io.out(`  application id: ${emulator.applicationId}`);
      // A local test double's credential: printed so a backend under test can be configured with it.
      io.out(`  bot token:      ${emulator.botToken}`);
      io.out(`  public key:     ${emulator.publicKey}`);
      // Tokens a sign-in would issue, so the player routes can be tried with curl.
      for (const userId of players) io.out(`  player token:   ${emulator.createAccessToken({ userId }).accessToken} (user ${userId})`);
      try {
        if (values.guild === true) io.out(`  guild id:       ${(await emulator.createGuild()).id}`);
        const desktopDir = values['desktop-client'] as string | undefined;
        if (desktopDir !== undefined) {
          const desktop = await emulator.startDesktopClient({ dir: path.resolve(desktopDir) });
          io.out(`  desktop client: ${desktop.path}`);
        }
        const interactionsUrl = values['interactions-url'] as string | undefined;
        if (interactionsUrl !== undefined) {
          try {
            await emulator.setInteractionsEndpoint(interactionsUrl);
            io.out(`  interactions:   ${interactionsUrl}`);
          } catch (err) {
            // The service refuses an endpoint that fails its check; the emulator keeps running without one.
            if ((err as { code?: unknown }).code !== 'ERR_EMULATOR_INTERACTION') throw err;
            io.err(`social-sdk-auth emulator: ${(err as Error).message} Start the endpoint first, verifying signatures with the public key above.`);
          }
        }
      } catch (err) {
        await emulator.close();
        const code = (err as { code?: unknown }).code;
        if (code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_OUT_OF_RANGE') throw new UsageError((err as Error).message);
        io.err(`social-sdk-auth emulator: could not start: ${(err as Error).message}`);
        return 1;
      }
      if (values.open === true) {
        // A static import: a dynamic one would make the sign-in chunk carry a module namespace (and the bundler's runtime file).
        const open = io.openUrl ?? openSystemBrowser;
        // The emulator serves on without a browser: the URL is printed above.
        await open(emulator.uiUrl).catch((err: unknown) =>
          io.err(`social-sdk-auth emulator: could not open the web client (${(err as Error).message}); open ${emulator.uiUrl} yourself.`),
        );
      }
      io.out('Press Ctrl+C to stop.');
      await waitForAbort(io.signal);
      await emulator.close();
      io.out('Platform emulator stopped.');
      return 0;
    },
  },
  'forward-redirect': {
    summary: 'hand a custom-scheme redirect URL to the running game',
    usage: FORWARD_REDIRECT_USAGE.trimEnd(),
    run(args, io) {
      // The desktop module writes raw text; adapt it to the line-based CLI output.
      const lines = (write: (line: string) => void) => ({
        write: (text: string) => {
          for (const line of text.replace(/\n$/, '').split('\n')) write(line);
          return true;
        },
      });
      return forwardRedirectCommand(args, { stdout: lines(io.out), stderr: lines(io.err) });
    },
  },
};

/**
 * The version in the package's own package.json: the nearest parent folder of this file whose
 * package.json is named social-sdk-auth (src/ in development, dist/cjs/ once built).
 */
function packageVersion(): string {
  let dir = __dirname;
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'social-sdk-auth' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // No readable package.json here; keep going up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: social-sdk-auth <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  -v, --version  print the version of social-sdk-auth',
    '  -h, --help     show this help',
    '',
    'Run "social-sdk-auth <command> --help" for the options of a command.',
  ].join('\n');
}

/** Runs the command line `argv` (without node and the script path); resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    if (rest.length > 0) {
      io.err(`social-sdk-auth: --version takes no arguments.\n\n${usage()}`);
      return USAGE_ERROR;
    }
    io.out(packageVersion());
    return 0;
  }
  if (name === undefined) {
    io.err(usage());
    return USAGE_ERROR;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.err(`social-sdk-auth: unknown command "${name}".\n\n${usage()}`);
    return USAGE_ERROR;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`social-sdk-auth ${name}: ${err.message}\n\n${command.usage}`);
    return USAGE_ERROR;
  }
}

/** The bin entry: real stdout/stderr, SIGINT/SIGTERM stop long-running commands. */
async function main(): Promise<void> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    process.exitCode = await runCli(process.argv.slice(2), {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      signal: controller.signal,
    });
  } catch (err) {
    process.stderr.write(`social-sdk-auth: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

// Run only as the bin, not when imported (tests import runCli).
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) void main();
