#!/usr/bin/env node
// Registers the game's commands (commands.js) with the platform, globally or in one guild. It
// compares them with what is registered and sends one bulk overwrite only when something
// differs, so running it on every release is safe and usually sends nothing.
// Run with --emulator to try it offline against the package's platform emulator.
'use strict';

const { PlatformApi, deployCommands } = require('social-sdk-auth/api');
const commands = require('./commands.js');

const USAGE = `Usage: node deploy.js [--emulator] [--guild ID] [--dry-run]

  --emulator   deploy to a local platform emulator (twice, to show the second run sends nothing)
  --guild ID   deploy to this guild (instant; handy while developing) instead of globally
  --dry-run    print what would change, send nothing

Without --emulator, BOT_TOKEN and APPLICATION_ID come from the environment.`;

function parseArgs(argv) {
  const options = { emulator: false, guildId: undefined, dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--emulator') options.emulator = true;
    else if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--guild' && i + 1 < argv.length) options.guildId = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      console.error(`Unknown argument: ${arg}\n\n${USAGE}`);
      process.exit(2);
    }
  }
  return options;
}

const names = (list) => (list.length === 0 ? '-' : list.map((c) => c.name).join(', '));

async function deploy(api, applicationId, options) {
  const report = await deployCommands(commands, {
    api,
    applicationId,
    guildId: options.guildId,
    dryRun: options.dryRun,
    timeoutMs: 60_000,
  });
  const where = options.guildId === undefined ? 'global commands' : `commands of guild ${options.guildId}`;
  console.log(`${options.dryRun ? 'Would change' : 'Deployed'} the ${where}:`);
  console.log(`  created:   ${names(report.created)}`);
  console.log(`  updated:   ${names(report.updated)}`);
  console.log(`  deleted:   ${names(report.deleted)}`);
  console.log(`  unchanged: ${names(report.unchanged)}`);
  console.log(report.overwritten ? `  sent one bulk overwrite; ${report.commands.length} commands registered.` : '  sent no overwrite.');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!options.emulator) {
    const { BOT_TOKEN, APPLICATION_ID } = process.env;
    if (!BOT_TOKEN || !APPLICATION_ID) {
      console.error(`Set BOT_TOKEN and APPLICATION_ID, or pass --emulator.\n\n${USAGE}`);
      process.exit(2);
    }
    const api = new PlatformApi({ botToken: BOT_TOKEN });
    try {
      await deploy(api, APPLICATION_ID, options);
    } finally {
      await api.close();
    }
    return;
  }
  const { startEmulator } = require('social-sdk-auth/emulator');
  const emulator = await startEmulator();
  const api = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
  try {
    if (options.guildId !== undefined) await emulator.createGuild({ id: options.guildId });
    await deploy(api, emulator.applicationId, options);
    await deploy(api, emulator.applicationId, options);
  } finally {
    await api.close();
    await emulator.close();
  }
}

main().catch((error) => {
  // ApiError and CommandValidationError list each problem with its path.
  console.error(`Deploy failed: ${error.message}`);
  for (const problem of error.validationErrors ?? error.fieldErrors ?? []) console.error(`  ${problem.path || '(body)'}: ${problem.code}: ${problem.message}`);
  process.exitCode = 1;
});
