// The prebuild checker (CLI: scripts/check-prebuilds.mjs; used by the release workflow and the
// tests): every file under prebuilds/<platform>-<arch>/ must be a binary of that platform's
// format and CPU, export the Node-API entry point, link only libraries that platform always has,
// declare no newer minimum OS than docs/platforms.md promises, and load where this machine can
// load it (natively, or the real Node of its platform under qemu or Wine).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compareVersions, readBinaryHeaders } from './binary-headers.mjs';
import { createWinePrefix, emulatorMissing, foreignNodeCommand, platformNode, runToFilesSync, stopWine, wineEnv, winePath } from './platform-run.cjs';

const glibcLibraries = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'librt.so.1'];

/**
 * What each platform's binary must be. `libraries`: the only ones it may link at load time, all
 * part of every install of the oldest system named in `minimumOs` (glibc itself; the Windows DLLs
 * in System32; macOS's libSystem and libc++). docs/platforms.md states the same promises.
 */
export const platforms = {
  'linux-x64': {
    format: 'ELF',
    arch: 'x86-64',
    libraries: [...glibcLibraries, 'ld-linux-x86-64.so.2'],
    minimumOs: { name: 'glibc', version: '2.35' },
  },
  'linux-arm64': {
    format: 'ELF',
    arch: 'aarch64',
    libraries: [...glibcLibraries, 'ld-linux-aarch64.so.1'],
    minimumOs: { name: 'glibc', version: '2.35' },
  },
  'win32-x64': {
    format: 'PE',
    arch: 'x64',
    // Compared without case, as Windows does. Node-API comes from the executable that loads the
    // module, delay-loaded under the name node.exe (never a load-time import: Electron is not node.exe).
    libraries: ['kernel32.dll', 'user32.dll', 'advapi32.dll', 'shell32.dll', 'ole32.dll', 'ws2_32.dll', 'bcrypt.dll', 'msvcrt.dll', 'ntdll.dll'],
    delayLoaded: ['node.exe'],
    minimumOs: { name: 'Windows', version: '10.0' },
  },
  'darwin-x64': {
    format: 'Mach-O',
    arch: 'x86_64',
    libraries: ['/usr/lib/libSystem.B.dylib', '/usr/lib/libc++.1.dylib'],
    minimumOs: { name: 'macOS', version: '10.15' },
  },
  'darwin-arm64': {
    format: 'Mach-O',
    arch: 'arm64',
    libraries: ['/usr/lib/libSystem.B.dylib', '/usr/lib/libc++.1.dylib'],
    // The first macOS for Apple silicon; a 10.15 deployment target becomes 11.0 for arm64.
    minimumOs: { name: 'macOS', version: '11.0' },
  },
};

/** The symbol Node looks up in every Node-API module. */
export const ENTRY_POINT = 'napi_register_module_v1';

/** What the addon's exports object must hold once loaded (native/addon/addon.cpp). */
const LOADED_EXPORTS = ['NativeClient', 'NativeAuthorizationArgs', 'sha256'];

const loadScript = `
const file = process.argv[process.argv.length - 1];
const m = require(file);
console.log(JSON.stringify({ platform: process.platform + '-' + process.arch, exports: Object.keys(m).sort() }));
`;

/** The header checks of one file against its folder's platform: a list of problems, each a sentence. */
export function headerProblems(platform, headers) {
  const want = platforms[platform];
  const problems = [];
  if (headers.format !== want.format || headers.arch !== want.arch) {
    problems.push(
      `its headers say ${headers.format} ${headers.arch}, but ${platform} needs ${want.format} ${want.arch}; it belongs in another folder or was built for the wrong target.`,
    );
    return problems;
  }
  if (!headers.exports.includes(ENTRY_POINT)) {
    problems.push(`it does not export ${ENTRY_POINT}, so Node cannot register it as a Node-API module.`);
  }
  const lower = (list) => list.map((l) => l.toLowerCase());
  const allowed = want.format === 'PE' ? lower(want.libraries) : want.libraries;
  const extra = headers.libraries.filter((lib) => !allowed.includes(want.format === 'PE' ? lib.toLowerCase() : lib));
  if (extra.length > 0) {
    problems.push(`it links ${extra.join(', ')}, which ${platform} does not always have; it may link only ${want.libraries.join(', ')}.`);
  }
  if (want.format === 'PE') {
    const wrongDelay = (headers.delayLoaded ?? []).filter((lib) => !lower(want.delayLoaded).includes(lib.toLowerCase()));
    if (wrongDelay.length > 0) problems.push(`it delay-loads ${wrongDelay.join(', ')}; only ${want.delayLoaded.join(', ')} may be delay-loaded.`);
    if (headers.libraries.some((lib) => lib.toLowerCase() === 'node.exe')) {
      problems.push('it imports node.exe at load time, so it fails in an executable with another name (Electron, a single-executable game); delay-load it.');
    }
  }
  if (!headers.minimumOs) {
    problems.push(`it declares no minimum ${want.minimumOs.name} version.`);
  } else if (headers.minimumOs.name !== want.minimumOs.name || compareVersions(headers.minimumOs.version, want.minimumOs.version) > 0) {
    problems.push(
      `it needs ${headers.minimumOs.name} ${headers.minimumOs.version}, newer than the ${want.minimumOs.name} ${want.minimumOs.version} docs/platforms.md promises for ${platform}.`,
    );
  }
  return problems;
}

/**
 * Loads binaries the way this machine can: in this Node when they are for this platform, else
 * in the real Node of their platform under Wine or qemu. One Wine prefix serves the whole run;
 * close() removes it.
 */
export class Loader {
  constructor() {
    this.work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-check-'));
    this.script = path.join(this.work, 'load.cjs');
    writeFileSync(this.script, loadScript);
    this.wine = undefined;
  }

  /** Why `platform`'s binaries cannot be loaded here, or undefined when they can. */
  unavailable(platform) {
    if (platform === `${process.platform}-${process.arch}`) return undefined;
    if (platform.startsWith('darwin-')) return 'a macOS binary loads only on a Mac (the release workflow loads it on its macOS runner)';
    return emulatorMissing(platform);
  }

  /** { loaded: true, exports } or { loaded: false, reason }. */
  load(platform, file) {
    let result;
    if (platform === `${process.platform}-${process.arch}`) {
      const child = spawnSync(process.execPath, [this.script, file], { encoding: 'utf8', timeout: 60_000 });
      result = { code: child.status, stdout: child.stdout ?? '', stderr: child.stderr ?? '', error: child.error?.message };
    } else {
      const node = platformNode(platform);
      let env = process.env;
      let args = [this.script, file];
      if (platform === 'win32-x64') {
        if (!this.wine) {
          this.wine = wineEnv(path.join(this.work, 'wine-prefix'));
          createWinePrefix(this.wine);
        }
        env = this.wine;
        args = args.map(winePath);
      }
      const { command, args: full } = foreignNodeCommand(platform, node, args);
      result = runToFilesSync(command, full, { cwd: this.work, env, logs: path.join(this.work, 'logs'), timeoutMs: 180_000 });
    }
    const last = result.stdout.trim().split(/\r?\n/).pop() ?? '';
    if (result.code !== 0 || !last.startsWith('{')) {
      const why =
        result.error ??
        (result.stderr
          .trim()
          .split(/\r?\n/)
          .find((line) => /Error|error/.test(line)) ||
          `exit ${result.code}`);
      return { loaded: false, reason: `loading it in ${platform} Node failed: ${why}` };
    }
    const report = JSON.parse(last);
    const absent = LOADED_EXPORTS.filter((name) => !report.exports.includes(name));
    if (report.platform !== platform) return { loaded: false, reason: `the Node that loaded it reports ${report.platform}, not ${platform}.` };
    if (absent.length > 0)
      return { loaded: false, reason: `it loaded, but its exports lack ${absent.join(', ')} (got ${report.exports.join(', ') || 'nothing'}).` };
    return { loaded: true, exports: report.exports };
  }

  close() {
    if (this.wine) stopWine(this.wine);
    rmSync(this.work, { recursive: true, force: true });
  }
}

/**
 * Checks every file under `dir` (prebuilds/). `targets`: the platforms that must be there (each
 * folder must hold a file); default: whatever folders are there. `load`: 'try' (load where this
 * machine can, report where it cannot), 'require' (a binary that cannot be loaded here fails) or
 * 'skip'. Returns { ok, files: [{ file, platform, headers, problems, load }] }.
 */
export function checkPrebuilds(dir, { targets, load = 'try' } = {}) {
  const report = { ok: true, problems: [], files: [] };
  const fail = (problem) => {
    report.ok = false;
    report.problems.push(problem);
  };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    fail(`${dir} is not a folder; build the prebuilds first (npm run prebuilds).`);
    return report;
  }
  const folders = readdirSync(dir, { withFileTypes: true });
  for (const entry of folders) {
    if (!entry.isDirectory()) fail(`${path.join(dir, entry.name)} is a file at the top of prebuilds/; binaries go in prebuilds/<platform>-<arch>/.`);
    else if (!(entry.name in platforms)) fail(`prebuilds/${entry.name} is not a platform this package ships; known: ${Object.keys(platforms).join(', ')}.`);
  }
  const present = folders.filter((e) => e.isDirectory() && e.name in platforms).map((e) => e.name);
  for (const target of targets ?? []) {
    if (!(target in platforms)) fail(`${target} is not a platform this package ships; known: ${Object.keys(platforms).join(', ')}.`);
    else if (!present.includes(target) || readdirSync(path.join(dir, target)).length === 0)
      fail(`prebuilds/${target} is missing; the release needs a binary for it.`);
  }
  const loader = load === 'skip' ? undefined : new Loader();
  try {
    for (const platform of present.sort()) {
      for (const name of readdirSync(path.join(dir, platform)).sort()) {
        const file = path.join(dir, platform, name);
        const entry = { file: path.relative(dir, file).split(path.sep).join('/'), platform, headers: undefined, problems: [], load: undefined };
        report.files.push(entry);
        if (!statSync(file).isFile()) {
          entry.problems.push('it is not a file.');
        } else {
          try {
            entry.headers = readBinaryHeaders(readFileSync(file));
            entry.problems.push(...headerProblems(platform, entry.headers));
          } catch (error) {
            entry.problems.push(error.message);
          }
        }
        // A binary whose headers are wrong is not handed to a loader: it says nothing more.
        if (loader && entry.problems.length === 0) {
          const why = loader.unavailable(platform);
          entry.load = why ? { loaded: false, reason: `not loaded here: ${why}`, unavailable: true } : loader.load(platform, file);
          if (!entry.load.loaded && (!entry.load.unavailable || load === 'require')) entry.problems.push(String(entry.load.reason));
        }
        for (const problem of entry.problems) fail(`prebuilds/${entry.file}: ${String(problem)}`);
      }
    }
  } finally {
    loader?.close();
  }
  return report;
}
