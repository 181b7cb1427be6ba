// Checks the binaries under prebuilds/ before they ship (the release workflow runs it on each
// platform's runner and again on the gathered set; test/prebuild-check.test.ts runs it here):
//   node scripts/check-prebuilds.mjs                           every folder under prebuilds/
//   node scripts/check-prebuilds.mjs --targets linux-x64,…     these must be there (and only these are required)
//   node scripts/check-prebuilds.mjs --dir DIR --load require  a binary this machine cannot load fails
//   --load try (default) | require | skip, --json (the whole report on stdout)
// What is checked, and the promises per platform, are in scripts/lib/prebuild-check.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkPrebuilds, platforms } from './lib/prebuild-check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { dir: path.join(root, 'prebuilds'), targets: undefined, load: 'try', json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dir') options.dir = path.resolve(String(argv[++i] ?? ''));
    else if (arg === '--targets')
      options.targets = String(argv[++i] ?? '')
        .split(',')
        .filter(Boolean);
    else if (arg === '--load') options.load = String(argv[++i] ?? '');
    else if (arg === '--json') options.json = true;
    else
      throw new Error(
        `check-prebuilds: unknown argument ${arg}. Use --dir DIR, --targets ${Object.keys(platforms).join(',')}, --load try|require|skip or --json.`,
      );
  }
  if (!['try', 'require', 'skip'].includes(options.load)) throw new Error(`check-prebuilds: --load takes try, require or skip, not ${options.load}.`);
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const report = checkPrebuilds(options.dir, { targets: options.targets, load: options.load });
if (options.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  for (const entry of report.files) {
    const h = entry.headers;
    const what = h
      ? `${h.format} ${h.arch}, needs ${h.minimumOs ? `${h.minimumOs.name} ${h.minimumOs.version}` : 'no declared OS'}, links ${h.libraries.join(' ') || 'nothing'}`
      : 'unreadable';
    const loaded = entry.load
      ? entry.load.loaded
        ? 'loaded here'
        : entry.load.reason
      : options.load === 'skip'
        ? 'not loaded (--load skip)'
        : 'not loaded: its headers fail the checks';
    console.log(`${entry.problems.length ? 'FAIL' : 'ok  '} prebuilds/${entry.file}: ${what}; ${loaded}`);
  }
}
for (const problem of report.problems) console.error(problem);
if (!report.ok) process.exit(1);
if (!options.json) console.log(`check-prebuilds: ${report.files.length} binaries pass.`);
