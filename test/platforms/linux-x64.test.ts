// The linux-x64 prebuild as `npm run prebuilds` makes it: its C++ runtime is linked in and it
// refers to no glibc symbol newer than 2.35 (Ubuntu 22.04), so it loads on any mainstream
// distribution still supported. test/package.test.ts signs in with it from the installed tarball.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { glibcVersions, newestVersion } from './elf.js';
import { buildPrebuilds, root } from './support.js';

const binary = path.join(root, 'prebuilds', 'linux-x64', 'node.napi.node');
const native = process.platform === 'linux' && process.arch === 'x64';
if (!native) console.log(`linux-x64 prebuild tests skipped: this machine is ${process.platform}-${process.arch}.`);

beforeAll(() => {
  if (native) buildPrebuilds(['linux-x64']);
}, 600_000);

describe('reading glibc versions from objdump -T', () => {
  it('finds the newest version numerically, not as text', () => {
    const dump = [
      '0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.2.5) memcpy',
      '0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.34) pthread_create',
      '0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.9) pipe2',
    ].join('\n');
    expect(glibcVersions(dump).sort()).toEqual(['2.2.5', '2.34', '2.9']);
    expect(newestVersion(glibcVersions(dump))).toBe('2.34');
  });
});

describe.skipIf(!native)('linux-x64 prebuild', () => {
  // libm is glibc's own (the rounding-mode calls of std::from_chars); libstdc++ and libgcc_s are not.
  it('needs only glibc (libc, libm) and the dynamic loader: no libstdc++ or libgcc_s', () => {
    const headers = execFileSync('objdump', ['-p', binary], { encoding: 'utf8' });
    const needed = [...headers.matchAll(/NEEDED\s+(\S+)/g)].map((m) => m[1]).sort();
    expect(needed).toEqual(['ld-linux-x86-64.so.2', 'libc.so.6', 'libm.so.6']);
  });

  it('refers to no glibc symbol newer than 2.35 and exports only the Node-API entry points', () => {
    const symbols = execFileSync('objdump', ['-T', binary], { encoding: 'utf8' });
    expect(symbols).not.toMatch(/GLIBCXX|CXXABI|GCC_\d/);
    expect(symbols).not.toMatch(/\barc4random\b/);
    expect(newestVersion(glibcVersions(symbols))).toBe('2.35');
    const exportedFunctions = symbols
      .split('\n')
      .filter((line) => /\sg\s+DF\s+\.text\s/.test(line))
      .map((line) => line.trim().split(/\s+/).pop())
      .sort();
    expect(exportedFunctions).toEqual(['napi_register_module_v1', 'node_api_module_get_api_version_v1']);
  });

  it('loads in this Node and makes PKCE pairs that match node:crypto', () => {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        'const { Client } = require(process.argv[1]); const p = new Client().createAuthorizationCodeVerifier(); console.log(JSON.stringify(p));',
        path.join(root, 'dist', 'cjs', 'index.js'),
      ],
      { encoding: 'utf8', env: { ...process.env, SOCIAL_SDK_AUTH_NATIVE: binary } },
    );
    const pair = JSON.parse(out) as { verifier: string; challenge: { challenge: string; method: string } };
    expect(pair.challenge).toEqual({ challenge: createHash('sha256').update(pair.verifier).digest('base64url'), method: 'S256' });
  });
});
