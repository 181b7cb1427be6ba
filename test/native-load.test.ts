// Loading the addon when it is missing or broken: each fault gets its own code, the loader's
// own words, and advice that works with plain npm (no devDependencies needed).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { builtModule, projectRoot } from './support/built.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sdkauth-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LoadFailure {
  code: string;
  message: string;
  cause?: string;
}

/** Loads the built package in a fresh process with SOCIAL_SDK_AUTH_NATIVE set; returns the error. */
function loadWith(binary: string): LoadFailure {
  const script =
    `try { require(${JSON.stringify(builtModule('index.js'))}).Client.defaultCommunicationScopes; console.log('{}'); }` +
    ' catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, cause: e.cause && e.cause.message })); }';
  const out = execFileSync(process.execPath, ['-e', script], {
    env: { ...process.env, SOCIAL_SDK_AUTH_NATIVE: binary },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out) as LoadFailure;
}

describe('loading the native binary', () => {
  it('reports a truncated binary as a load failure, before the loader can crash on it', () => {
    // dlopen of a cut shared object dies of SIGBUS instead of failing: the client must not.
    const good = readFileSync(path.join(projectRoot, 'build', 'Release', 'social_sdk_auth.node'));
    for (const size of [4096, Math.floor(good.length / 2), good.length - 1]) {
      const truncated = path.join(dir, `truncated-${size}.node`);
      writeFileSync(truncated, good.subarray(0, size));
      const failure = loadWith(truncated);
      expect(failure.code).toBe('ERR_NATIVE_LOAD_FAILED');
      expect(failure.cause).toMatch(new RegExp(`^the file is truncated: it has ${size} bytes, its ELF headers describe at least \\d+$`));
      expect(Number(failure.cause!.split(' ').pop())).toBeGreaterThan(size);
      expect(failure.message).toContain(failure.cause!);
      expect(failure.message).toContain(`${truncated} exists but could not be loaded on this platform (${process.platform}-${process.arch}`);
      expect(failure.message).toContain('npm rebuild social-sdk-auth');
      expect(failure.message).toContain('docs/troubleshooting.md');
      expect(failure.message).not.toContain('npm run');
    }
  });

  it('refuses a truncated binary in the package itself, also where node-gyp-build would look', () => {
    // No SOCIAL_SDK_AUTH_NATIVE: the loader's own search, then node-gyp-build's, both meet the cut file.
    const pkg = path.join(dir, 'package');
    mkdirSync(path.join(pkg, 'build', 'Release'), { recursive: true });
    cpSync(path.join(projectRoot, 'dist'), path.join(pkg, 'dist'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'social-sdk-auth', version: '0.0.0' }));
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const good = readFileSync(path.join(projectRoot, 'build', 'Release', 'social_sdk_auth.node'));
    const truncated = path.join(pkg, 'build', 'Release', 'social_sdk_auth.node');
    writeFileSync(truncated, good.subarray(0, 4096));
    const script =
      `try { require(${JSON.stringify(path.join(pkg, 'dist', 'cjs', 'index.js'))}).Client.defaultCommunicationScopes; console.log('{}'); }` +
      ' catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, cause: e.cause && e.cause.message })); }';
    const env = { ...process.env };
    delete env.SOCIAL_SDK_AUTH_NATIVE;
    const failure = JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 30_000 })) as LoadFailure;
    expect(failure.code).toBe('ERR_NATIVE_LOAD_FAILED');
    expect(failure.cause).toMatch(/^the file is truncated: it has 4096 bytes/);
    expect(failure.message).toContain(`${truncated} exists but could not be loaded`);
  });

  it('reports a file that is not a binary at all with the loader error', () => {
    const text = path.join(dir, 'text.node');
    writeFileSync(text, 'this is not a shared object\n'.repeat(10));
    const failure = loadWith(text);
    expect(failure.code).toBe('ERR_NATIVE_LOAD_FAILED');
    expect(failure.cause).toMatch(/invalid ELF header|file too short/);
    expect(failure.message).toContain(failure.cause!);
  });

  it('reports a path with no file as missing', () => {
    const failure = loadWith(path.join(dir, 'nothing-here.node'));
    expect(failure.code).toBe('ERR_NATIVE_MISSING');
    expect(failure.message).toContain('which does not exist');
    expect(failure.message).not.toContain('npm run');
  });

  it('loads a good binary named by the same variable', () => {
    expect(loadWith(path.join(projectRoot, 'build', 'Release', 'social_sdk_auth.node'))).toEqual({});
  });
});
