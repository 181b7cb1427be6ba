// The prebuild checker (scripts/check-prebuilds.mjs), as the release workflow runs it: it passes
// the binaries this machine builds and loads each where it can (natively, the arm64 Node under
// qemu, node.exe under Wine), and refuses planted wrong ones: a binary in another platform's
// folder, one linking a library the platform does not guarantee, one without the Node-API entry
// point, one needing a newer OS than docs/platforms.md promises. Mach-O files are assembled here
// byte by byte (no Mac here to build one), so the Mach-O reader is exercised too.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrebuilds, root } from './platforms/support.js';

interface Entry {
  file: string;
  platform: string;
  headers?: { format: string; arch: string; exports: string[]; libraries: string[]; minimumOs?: { name: string; version: string } };
  problems: string[];
  load?: { loaded: boolean; reason?: string; exports?: string[] };
}
interface Report {
  ok: boolean;
  problems: string[];
  files: Entry[];
}

const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-prebuild-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const host = `${process.platform}-${process.arch}`;
// Linux x64 builds three (two cross-built); any other machine its own one.
const linuxX64 = host === 'linux-x64';
const built = linuxX64 ? ['linux-arm64', 'linux-x64', 'win32-x64'] : [host];
if (!linuxX64) console.log(`prebuild checker: the planted ELF and PE binaries are made from Linux x64 builds; this machine is ${host}.`);

/** Runs the checker's CLI with --json on `dir`. */
function check(dir: string, ...args: string[]): { status: number | null; report: Report; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-prebuilds.mjs'), '--dir', dir, '--json', ...args], {
    encoding: 'utf8',
    timeout: 540_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

/** A prebuilds/ folder holding `files` ({ 'darwin-arm64/node.napi.node': bytes }). */
function folder(name: string, files: Record<string, Buffer>): string {
  const dir = path.join(work, name);
  for (const [rel, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), bytes);
  }
  return dir;
}

/** `bytes` with every occurrence of `from` replaced by `to` (same length). */
function patched(bytes: Buffer, from: string, to: string): Buffer {
  expect(to.length).toBe(from.length);
  const out = Buffer.from(bytes);
  let at = out.indexOf(from, 0, 'latin1');
  expect(at, `${from} is in the binary`).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    out.write(to, at, 'latin1');
    at = out.indexOf(from, at + 1, 'latin1');
  }
  return out;
}

const prebuilt = (platform: string) => readFileSync(path.join(root, 'prebuilds', platform, 'node.napi.node'));

beforeAll(() => {
  buildPrebuilds(built);
}, 900_000);

describe("this machine's prebuilds", () => {
  it('pass, and each one loads here: natively, under qemu or under Wine', () => {
    const dir = folder('built', Object.fromEntries(built.map((p) => [`${p}/node.napi.node`, prebuilt(p)])));
    const { status, report, stderr } = check(dir, '--targets', built.join(','), '--load', 'require');
    expect(report.problems, stderr).toEqual([]);
    expect(status).toBe(0);
    expect(report.files.map((f) => f.file)).toEqual(built.map((p) => `${p}/node.napi.node`));
    for (const entry of report.files) {
      expect(entry.headers!.exports).toContain('napi_register_module_v1');
      expect(entry.load).toMatchObject({ loaded: true });
      expect(entry.load!.exports).toEqual(expect.arrayContaining(['NativeAuthorizationArgs', 'NativeClient', 'sha256']));
    }
    if (linuxX64) {
      const byPlatform = Object.fromEntries(report.files.map((f) => [f.platform, f.headers!]));
      expect(byPlatform['linux-x64']).toMatchObject({ format: 'ELF', arch: 'x86-64', minimumOs: { name: 'glibc', version: '2.35' } });
      // glibc's own libraries only (libm: the rounding-mode calls of std::from_chars).
      expect(byPlatform['linux-x64']!.libraries.sort()).toEqual(['ld-linux-x86-64.so.2', 'libc.so.6', 'libm.so.6']);
      expect(byPlatform['linux-arm64']).toMatchObject({ format: 'ELF', arch: 'aarch64', minimumOs: { name: 'glibc', version: '2.35' } });
      expect(byPlatform['linux-arm64']!.libraries.sort()).toEqual(['libc.so.6', 'libm.so.6']);
      expect(byPlatform['win32-x64']).toMatchObject({ format: 'PE', arch: 'x64' });
      expect(byPlatform['win32-x64']!.libraries.map((l) => l.toLowerCase()).sort()).toEqual([
        'bcrypt.dll',
        'kernel32.dll',
        'msvcrt.dll',
        'shell32.dll',
        'ws2_32.dll',
      ]);
    }
  }, 600_000);

  it('the CLI prints one line per binary and exits 1 naming the platform a release lacks', () => {
    const dir = folder('incomplete', { [`${built[0]}/node.napi.node`]: prebuilt(built[0]!) });
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'scripts', 'check-prebuilds.mjs'), '--dir', dir, '--targets', `${built[0]},darwin-arm64`, '--load', 'skip'],
      {
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`ok   prebuilds/${built[0]}/node.napi.node: `);
    expect(result.stderr.trim()).toBe('prebuilds/darwin-arm64 is missing; the release needs a binary for it.');
  });

  it('refuses a folder that names no platform, a stray file, and unknown arguments', () => {
    const dir = folder('strays', { 'linuxmusl-x64/node.napi.node': Buffer.from('x'), 'node.napi.node': Buffer.from('x') });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      expect.stringMatching(
        /^prebuilds\/linuxmusl-x64 is not a platform this package ships; known: linux-x64, linux-arm64, win32-x64, darwin-x64, darwin-arm64\.$/,
      ),
      expect.stringMatching(/node\.napi\.node is a file at the top of prebuilds\/; binaries go in prebuilds\/<platform>-<arch>\/\.$/),
    ]);
    const bad = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-prebuilds.mjs'), '--load', 'maybe'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('check-prebuilds: --load takes try, require or skip, not maybe.');
  });
});

describe.skipIf(!linuxX64)('planted wrong binaries', () => {
  it('refuses a Linux binary in a darwin folder and an x64 one in an arm64 folder', () => {
    const dir = folder('wrong-folders', {
      'darwin-arm64/node.napi.node': prebuilt('linux-x64'),
      'linux-arm64/node.napi.node': prebuilt('linux-x64'),
      'win32-x64/node.napi.node': prebuilt('linux-arm64'),
      'linux-x64/node.napi.node': prebuilt('win32-x64'),
    });
    const { status, report } = check(dir);
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      'prebuilds/darwin-arm64/node.napi.node: its headers say ELF x86-64, but darwin-arm64 needs Mach-O arm64; it belongs in another folder or was built for the wrong target.',
      'prebuilds/linux-arm64/node.napi.node: its headers say ELF x86-64, but linux-arm64 needs ELF aarch64; it belongs in another folder or was built for the wrong target.',
      'prebuilds/linux-x64/node.napi.node: its headers say PE x64, but linux-x64 needs ELF x86-64; it belongs in another folder or was built for the wrong target.',
      'prebuilds/win32-x64/node.napi.node: its headers say ELF aarch64, but win32-x64 needs PE x64; it belongs in another folder or was built for the wrong target.',
    ]);
    // A binary whose headers are wrong is never handed to a loader.
    expect(report.files.every((f) => f.load === undefined)).toBe(true);
  });

  it('refuses binaries that link the C++ runtime instead of carrying it (ELF and PE)', () => {
    const source = path.join(work, 'tiny.cpp');
    writeFileSync(
      source,
      '#include <string>\nextern "C" __attribute__((visibility("default"))) void* napi_register_module_v1(void*, void* exports) {\n' +
        '  static std::string name("tiny"); return name.empty() ? nullptr : exports;\n}\n',
    );
    const elf = path.join(work, 'tiny.so');
    execFileSync('g++', ['-shared', '-fPIC', '-O1', '-o', elf, source]);
    const dll = path.join(work, 'tiny.dll');
    execFileSync('x86_64-w64-mingw32-g++-posix', ['-shared', '-O1', '-o', dll, source]);
    const dir = folder('extra-libraries', { 'linux-x64/node.napi.node': readFileSync(elf), 'win32-x64/node.napi.node': readFileSync(dll) });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    const [linux, windows] = report.files;
    expect(linux!.headers!.exports).toContain('napi_register_module_v1');
    expect(linux!.problems).toEqual([
      expect.stringMatching(/^it links libstdc\+\+\.so\.6(, \S+)*, which linux-x64 does not always have; it may link only libc\.so\.6, /),
    ]);
    expect(windows!.headers!.exports).toContain('napi_register_module_v1');
    expect(windows!.problems).toEqual([
      expect.stringMatching(/^it links (\S+, )*libstdc\+\+-6\.dll(, \S+)*, which win32-x64 does not always have; it may link only kernel32\.dll, /),
    ]);
  });

  it('refuses a binary without the Node-API entry point', () => {
    const dir = folder('no-entry', { 'linux-x64/node.napi.node': patched(prebuilt('linux-x64'), 'napi_register_module_v1\0', 'napi_register_module_vX\0') });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      'prebuilds/linux-x64/node.napi.node: it does not export napi_register_module_v1, so Node cannot register it as a Node-API module.',
    ]);
  });

  it('refuses binaries that need a newer glibc or Windows than docs/platforms.md promises', () => {
    const pe = Buffer.from(prebuilt('win32-x64'));
    // MajorSubsystemVersion: the optional header starts 24 bytes after the PE signature.
    const optional = pe.readUInt32LE(0x3c) + 24;
    pe.writeUInt16LE(11, optional + 48);
    pe.writeUInt16LE(0, optional + 50);
    const dir = folder('too-new', {
      'linux-arm64/node.napi.node': patched(prebuilt('linux-arm64'), 'GLIBC_2.35\0', 'GLIBC_2.39\0'),
      'win32-x64/node.napi.node': pe,
    });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      'prebuilds/linux-arm64/node.napi.node: it needs glibc 2.39, newer than the glibc 2.35 docs/platforms.md promises for linux-arm64.',
      'prebuilds/win32-x64/node.napi.node: it needs Windows 11.0, newer than the Windows 10.0 docs/platforms.md promises for win32-x64.',
    ]);
  });

  it('says where a damaged file ends instead of throwing', () => {
    const dir = folder('truncated', {
      'linux-x64/node.napi.node': prebuilt('linux-x64').subarray(0, 4096),
      'win32-x64/node.napi.node': Buffer.from('not a binary'),
    });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      expect.stringMatching(
        /^prebuilds\/linux-x64\/node\.napi\.node: the ELF section header at offset \d+ lies outside the 4096-byte file \(truncated or damaged\)\.$/,
      ),
      'prebuilds/win32-x64/node.napi.node: the file is not an ELF, PE or Mach-O binary (its first bytes match none of them).',
    ]);
  });
});

describe('docs/platforms.md', () => {
  it("states the checker's promises: each platform's oldest OS and the libraries it may link", async () => {
    const { platforms } = await import('../scripts/lib/prebuild-check.mjs');
    const doc = readFileSync(path.join(root, 'docs', 'platforms.md'), 'utf8');
    const row = (platform: string) => doc.split('\n').find((line) => line.startsWith(`| \`${platform}\` |`)) ?? '';
    const said = {
      'linux-x64': 'glibc ≥ 2.35',
      'linux-arm64': 'glibc ≥ 2.35',
      'win32-x64': 'Windows 10 or later',
      'darwin-x64': 'macOS 10.15 or later',
      'darwin-arm64': 'macOS 11 or later',
    };
    for (const [platform, promise] of Object.entries(platforms)) {
      expect(row(platform)).toContain(said[platform as keyof typeof said]);
      expect(said[platform as keyof typeof said]).toContain(promise.minimumOs.version.replace(/\.0$/, ''));
    }
    expect(Object.keys(platforms).sort()).toEqual(Object.keys(said).sort());
    // The table of checks names the same ceilings and the macOS libraries.
    expect(doc).toContain('newest `GLIBC_x.y` version need ≤ 2.35');
    expect(doc).toContain('≤ 10.15 (x64), 11.0 (arm64)');
    for (const lib of platforms['darwin-arm64'].libraries) expect(doc).toContain(`\`${lib}\``);
  });
});

// ---------------------------------------------------------------- Mach-O, assembled by hand

const CPU = { arm64: 0x0100000c, x86_64: 0x01000007 };

/**
 * A dyld export trie naming `symbols`: the root's one edge is their common prefix, then one edge per symbol's rest to a
 * terminal node (export info: flags 0, address 0x10). Offsets here stay under 128: one byte each.
 */
function exportTrie(symbols: string[]): Buffer {
  // The longest prefix all share, leaving each at least one letter of its own.
  const shortest = Math.min(...symbols.map((s) => s.length));
  let common = 0;
  while (common < shortest - 1 && symbols.every((s) => s[common] === symbols[0]![common])) common++;
  const prefix = Buffer.from(`${symbols[0]!.slice(0, common)}\0`, 'latin1');
  const rests = symbols.map((s) => Buffer.from(`${s.slice(common)}\0`, 'latin1'));
  const root = [0x00, 1, ...prefix];
  const middleAt = root.length + 1;
  const middleSize = 2 + rests.reduce((n, r) => n + r.length + 1, 0);
  const terminal = [0x02, 0x00, 0x10, 0x00];
  const middle: number[] = [0x00, rests.length];
  rests.forEach((rest, i) => middle.push(...rest, middleAt + middleSize + i * terminal.length));
  return Buffer.from([...root, middleAt, ...middle, ...rests.flatMap(() => terminal)]);
}

function command(cmd: number, body: Buffer): Buffer {
  const size = Math.ceil((8 + body.length) / 8) * 8;
  const out = Buffer.alloc(size);
  out.writeUInt32LE(cmd >>> 0, 0);
  out.writeUInt32LE(size, 4);
  body.copy(out, 8);
  return out;
}

const words = (...values: number[]) => Buffer.from(new Uint32Array(values).buffer);
const packed = (version: string) => {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return (major << 16) | (minor << 8) | patch;
};

/**
 * A 64-bit Mach-O bundle (what node-gyp makes) with the given CPU, dylibs, minimum macOS (as
 * LC_BUILD_VERSION or the older LC_VERSION_MIN_MACOSX) and exports (in the dyld export trie, or
 * in the symbol table as external defined symbols, which carry a leading underscore).
 */
function machO(options: {
  cpu: keyof typeof CPU;
  libraries: string[];
  minimum: string;
  versionCommand: 'build' | 'min';
  exports: string[];
  exportsIn: 'trie' | 'symtab';
}): Buffer {
  const libs = options.libraries.map((name) => command(0xc, Buffer.concat([words(24, 2, 0x10000, 0x10000), Buffer.from(`${name}\0`, 'latin1')])));
  const version =
    options.versionCommand === 'build'
      ? command(0x32, words(1, packed(options.minimum), packed('14.0'), 0))
      : command(0x24, words(packed(options.minimum), packed('14.0')));
  const symbols = options.exports.map((s) => `_${s}`);
  // The data (trie, or symbol table and names) goes after the commands; its offset is patched in.
  const dataCommand = options.exportsIn === 'trie' ? command(0x80000033, words(0, 0)) : command(0x2, words(0, 0, 0, 0));
  const commands = [...libs, version, dataCommand];
  const commandBytes = commands.reduce((n, c) => n + c.length, 0);
  const dataOffset = 32 + commandBytes;
  let data: Buffer;
  if (options.exportsIn === 'trie') {
    data = exportTrie(symbols);
    dataCommand.writeUInt32LE(dataOffset, 8);
    dataCommand.writeUInt32LE(data.length, 12);
  } else {
    // An undefined import (N_EXT only) first: the reader must skip it.
    const names = Buffer.from(`\0_napi_create_object\0${symbols.map((s) => `${s}\0`).join('')}`, 'latin1');
    const entries = Buffer.alloc(16 * (symbols.length + 1));
    entries.writeUInt32LE(1, 0);
    entries.writeUInt8(0x01, 4);
    let at = 1 + '_napi_create_object\0'.length;
    symbols.forEach((s, i) => {
      entries.writeUInt32LE(at, 16 * (i + 1));
      entries.writeUInt8(0x0f, 16 * (i + 1) + 4); // N_SECT | N_EXT
      entries.writeUInt8(1, 16 * (i + 1) + 5);
      at += s.length + 1;
    });
    data = Buffer.concat([entries, names]);
    dataCommand.writeUInt32LE(dataOffset, 8);
    dataCommand.writeUInt32LE(symbols.length + 1, 12);
    dataCommand.writeUInt32LE(dataOffset + entries.length, 16);
    dataCommand.writeUInt32LE(names.length, 20);
  }
  const header = words(0xfeedfacf, CPU[options.cpu], options.cpu === 'x86_64' ? 3 : 0, 8, commands.length, commandBytes, 0x85, 0);
  return Buffer.concat([header, ...commands, data]);
}

const macLibraries = ['/usr/lib/libc++.1.dylib', '/usr/lib/libSystem.B.dylib'];
const entryPoints = ['napi_register_module_v1', 'node_api_module_get_api_version_v1'];

describe('Mach-O binaries (assembled here)', () => {
  const good = {
    'darwin-arm64/node.napi.node': machO({
      cpu: 'arm64',
      libraries: macLibraries,
      minimum: '11.0',
      versionCommand: 'build',
      exports: entryPoints,
      exportsIn: 'trie',
    }),
    'darwin-x64/node.napi.node': machO({
      cpu: 'x86_64',
      libraries: macLibraries,
      minimum: '10.15',
      versionCommand: 'min',
      exports: entryPoints,
      exportsIn: 'symtab',
    }),
  };

  it('reads CPU, exports from the export trie and the symbol table, dylibs and minimum macOS; loading them is left to a Mac', () => {
    const dir = folder('macho-good', good);
    const { status, report } = check(dir);
    expect(report.problems).toEqual([]);
    expect(status).toBe(0);
    expect(report.files.map((f) => [f.platform, f.headers])).toEqual([
      [
        'darwin-arm64',
        { format: 'Mach-O', arch: 'arm64', filetype: 'bundle', exports: entryPoints, libraries: macLibraries, minimumOs: { name: 'macOS', version: '11.0' } },
      ],
      [
        'darwin-x64',
        { format: 'Mach-O', arch: 'x86_64', filetype: 'bundle', exports: entryPoints, libraries: macLibraries, minimumOs: { name: 'macOS', version: '10.15' } },
      ],
    ]);
    if (process.platform !== 'darwin') {
      for (const entry of report.files) {
        expect(entry.load).toMatchObject({
          loaded: false,
          reason: 'not loaded here: a macOS binary loads only on a Mac (the release workflow loads it on its macOS runner)',
        });
      }
      // Where a binary must be loaded (each platform's own release runner), not loading fails.
      const required = check(dir, '--load', 'require');
      expect(required.status).toBe(1);
      expect(required.report.problems).toHaveLength(2);
    }
  });

  it('refuses an arm64 binary in the x64 folder, an extra dylib, a newer macOS and a missing entry point', () => {
    const dir = folder('macho-wrong', {
      'darwin-x64/arm64.node': good['darwin-arm64/node.napi.node'],
      'darwin-arm64/homebrew.node': machO({
        cpu: 'arm64',
        libraries: [...macLibraries, '/opt/homebrew/opt/openssl@3/lib/libssl.3.dylib'],
        minimum: '11.0',
        versionCommand: 'build',
        exports: entryPoints,
        exportsIn: 'trie',
      }),
      'darwin-arm64/sonoma.node': machO({
        cpu: 'arm64',
        libraries: macLibraries,
        minimum: '14.0',
        versionCommand: 'build',
        exports: entryPoints,
        exportsIn: 'symtab',
      }),
      'darwin-x64/no-entry.node': machO({
        cpu: 'x86_64',
        libraries: macLibraries,
        minimum: '10.15',
        versionCommand: 'build',
        exports: ['node_api_module_get_api_version_v1'],
        exportsIn: 'trie',
      }),
    });
    const { status, report } = check(dir, '--load', 'skip');
    expect(status).toBe(1);
    expect(report.problems).toEqual([
      'prebuilds/darwin-arm64/homebrew.node: it links /opt/homebrew/opt/openssl@3/lib/libssl.3.dylib, which darwin-arm64 does not always have; it may link only /usr/lib/libSystem.B.dylib, /usr/lib/libc++.1.dylib.',
      'prebuilds/darwin-arm64/sonoma.node: it needs macOS 14.0, newer than the macOS 11.0 docs/platforms.md promises for darwin-arm64.',
      'prebuilds/darwin-x64/arm64.node: its headers say Mach-O arm64, but darwin-x64 needs Mach-O x86_64; it belongs in another folder or was built for the wrong target.',
      'prebuilds/darwin-x64/no-entry.node: it does not export napi_register_module_v1, so Node cannot register it as a Node-API module.',
    ]);
  });
});
