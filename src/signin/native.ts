/**
 * Loads the native addon: the prebuild shipped in the package, else a local build. Set
 * SOCIAL_SDK_AUTH_NATIVE to an absolute path to load a specific binary instead.
 */
import { closeSync, existsSync, fstatSync, openSync, readvSync } from 'node:fs';
import { join, resolve, toNamespacedPath } from 'node:path';

import { SocialSdkAuthError, type ClientResult } from '../shared/errors.js';
import { packageRoot } from '../shared/package-root.js';

/** A ClientResult as the addon reports it: the type as a plain string, plus ToString(). */
export interface NativeResult extends Omit<ClientResult, 'type'> {
  type: string;
  text: string;
}

/** A grant the core built from checked arguments; TypeScript sends it (token-endpoint.ts). */
export interface NativeGrant {
  kind: 'authorization_code' | 'refresh_token' | 'revoke';
  endpoint: string;
  clientId: string;
  grantType: string;
  parameters: Record<string, string>;
}

/** A token or revocation response that failed, as the core reads it (`transportResult`). */
export interface NativeTransportResponse {
  outcome: 'http' | 'network' | 'invalid';
  status?: number;
  oauthError?: string;
  errorDescription?: string;
  errorCode?: number;
  body?: string;
  retryAfter?: number;
  message?: string;
}

export interface NativeArgs {
  clientId(): bigint;
  setClientId(id: bigint): void;
  scopes(): string;
  setScopes(scopes: string): void;
  state(): string | undefined;
  setState(state: string | undefined): void;
  nonce(): string | undefined;
  setNonce(nonce: string | undefined): void;
  codeChallenge(): { challenge: string; method: 'S256' } | undefined;
  setCodeChallenge(challenge: { challenge: string; method: 'S256' } | undefined): void;
  integrationType(): number | undefined;
  setIntegrationType(type: number | undefined): void;
  customSchemeParam(): string | undefined;
  setCustomSchemeParam(scheme: string | undefined): void;
  validate(fallbackClientId?: bigint): NativeResult;
}

export interface NativeClientOptions {
  webBase: string;
  apiBase: string;
  redirect: 'loopback' | 'customScheme';
  loopbackPort: number;
  connectionTimeoutMs?: number;
  /** Desktop client IPC: the socket directory (default from the environment) and step limits. */
  desktopClientSocketDir?: string;
  desktopClientConnectTimeoutMs?: number;
  desktopClientApproveTimeoutMs?: number;
  openUrl: (url: string) => void;
}

export interface NativeClient {
  setApplicationId(id: bigint): void;
  getApplicationId(): bigint;
  createAuthorizationCodeVerifier(): { verifier: string; challenge: { challenge: string; method: 'S256' } };
  authorize(args: NativeArgs, callback: (result: NativeResult, code: string, redirectUri: string) => void): void;
  abortAuthorize(reason?: string): void;
  isAuthorizing(): boolean;
  handleRedirect(url: string): boolean;
  /** The grant these arguments make (applicationId 0n: the client's), or the ValidationError that stops it. */
  getToken(applicationId: bigint, code: string, codeVerifier: string, redirectUri: string): NativeGrant | NativeResult;
  refreshToken(applicationId: bigint, refreshToken: string): NativeGrant | NativeResult;
  revokeToken(applicationId: bigint, token: string): NativeGrant | NativeResult;
  close(): void;
  isClosed(): boolean;
  /** Desktop client IPC: the paths the next `authorize` may take. */
  setAuthorizeVia(via: 'auto' | 'desktopClient' | 'browser'): void;
}

export interface NativeBinding {
  NativeClient: new (options: NativeClientOptions) => NativeClient;
  NativeAuthorizationArgs: new () => NativeArgs;
  getDefaultCommunicationScopes(): string;
  getDefaultPresenceScopes(): string;
  sha256(data: Uint8Array): Buffer;
  base64UrlEncode(data: Uint8Array): string;
  liveClientCount(): number;
  /** The failure a token or revocation response means, by the core's rule. */
  transportResult(kind: NativeGrant['kind'], response: NativeTransportResponse): NativeResult;
}

let binding: NativeBinding | undefined;

/**
 * Why an ELF binary cannot be whole, or undefined. A truncated shared object does not fail in
 * dlopen with an error: the loader maps pages past the end of the file and the process dies of
 * SIGBUS. So its headers are checked against the file's size first.
 */
function truncatedElf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    const open = openSync(file, 'r');
    fd = open; // for the finally; the reads below use `open`, which needs no narrowing in a closure
    // One read covers the ELF header and, in every binary a linker writes, the program headers
    // that follow it; a table placed further in is read on its own. (Typed arrays, one-byte
    // probes and readvSync rather than Buffer, fstat and readSync: this runs in every process's
    // first addon call, and readvSync's first call costs 0.15 ms less than readSync's.)
    const head = new Uint8Array(4096);
    const headBytes = readvSync(open, [head], 0);
    const headView = new DataView(head.buffer);
    if (headBytes < 52 || headView.getUint32(0) !== 0x7f454c46) return undefined; // not ELF: the loader's own words will do
    const wide = head[4] === 2;
    const le = head[5] !== 2;
    const u16 = (at: number) => headView.getUint16(at, le);
    const word = (v: DataView, at: number) => (wide ? Number(v.getBigUint64(at, le)) : v.getUint32(at, le));
    const phoff = word(headView, wide ? 0x20 : 0x1c);
    const shoff = word(headView, wide ? 0x28 : 0x20);
    const [phentsize, phnum, shentsize, shnum] = wide ? [u16(0x36), u16(0x38), u16(0x3a), u16(0x3c)] : [u16(0x2a), u16(0x2c), u16(0x2e), u16(0x30)];
    const probe = new Uint8Array(1);
    // Whether the file holds at least `end` bytes: its last one can be read.
    const holds = (end: number) => end <= headBytes || readvSync(open, [probe], end - 1) === 1;
    let needed = Math.max(phoff + phnum * phentsize, shnum > 0 ? shoff + shnum * shentsize : 0);
    if (holds(needed)) {
      let table: DataView;
      if (phoff + phnum * phentsize <= headBytes) {
        table = new DataView(head.buffer, phoff, phnum * phentsize);
      } else {
        const read = new Uint8Array(phnum * phentsize);
        readvSync(open, [read], phoff);
        table = new DataView(read.buffer);
      }
      for (let i = 0; i < phnum; i++) {
        const at = i * phentsize;
        const isLoad = table.getUint32(at, le) === 1;
        if (isLoad) needed = Math.max(needed, word(table, at + (wide ? 8 : 4)) + word(table, at + (wide ? 0x20 : 0x10)));
      }
      if (holds(needed)) return undefined;
    }
    return `the file is truncated: it has ${fstatSync(open).size} bytes, its ELF headers describe at least ${needed}`;
  } catch {
    return undefined; // unreadable here: let the loader say why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Loads one binary file, refusing a truncated one before the loader can crash on it. It goes to
 * `process.dlopen` directly, as `require` itself does for a `.node` file, without `require`'s
 * path resolution (every path here is absolute) and module cache (`binding` is the
 * cache, once per environment): about 0.3 ms of every process's first addon call.
 */
function requireBinary(file: string): NativeBinding {
  const truncated = truncatedElf(file);
  if (truncated) throw new Error(truncated);
  const addon = { exports: {} as NativeBinding };
  process.dlopen(addon, toNamespacedPath(file));
  return addon.exports;
}

function runtimeName(): string {
  return process.versions.electron ? `electron ${process.versions.electron}` : `node ${process.version}`;
}

function loaderMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

// A binary that exists but does not load (truncated, another architecture, a missing system
// library) is a different fault from no binary at all: say which, with the loader's own words.
function loadFailed(file: string, cause: unknown): SocialSdkAuthError {
  return new SocialSdkAuthError(
    'ERR_NATIVE_LOAD_FAILED',
    `The social-sdk-auth native binary ${file} exists but could not be loaded on this platform ` +
      `(${process.platform}-${process.arch}, ${runtimeName()}): ${loaderMessage(cause)}. ` +
      'Reinstall the package (`npm install social-sdk-auth`), or rebuild it for this platform with ' +
      '`npm rebuild social-sdk-auth`; see docs/troubleshooting.md.',
    { cause },
  );
}

/** Loads (once per environment) and returns the native addon. */
export function loadNative(): NativeBinding {
  if (binding) return binding;
  const explicit = process.env.SOCIAL_SDK_AUTH_NATIVE;
  if (explicit) {
    const file = resolve(explicit);
    if (!existsSync(file)) {
      throw new SocialSdkAuthError(
        'ERR_NATIVE_MISSING',
        `SOCIAL_SDK_AUTH_NATIVE names ${file}, which does not exist. Point it at a social_sdk_auth.node ` +
          'built for this platform, or unset it to use the binary shipped in the package.',
      );
    }
    try {
      binding = requireBinary(file);
      return binding;
    } catch (cause) {
      throw loadFailed(file, cause);
    }
  }
  const root = packageRoot();
  let broken: { file: string; cause: unknown } | undefined;
  // The two places our own builds put the binary, tried directly: node-gyp-build's general
  // search (tags, libc, Electron ABIs) costs more start-up time than the whole addon load.
  for (const candidate of [
    join(root, 'build', 'Release', 'social_sdk_auth.node'),
    join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'node.napi.node'),
  ]) {
    if (!existsSync(candidate)) continue;
    try {
      binding = requireBinary(candidate);
      return binding;
    } catch (cause) {
      // Another build may still fit (node-gyp-build's search); remember why this one did not.
      broken ??= { file: candidate, cause };
    }
  }
  try {
    // node-gyp-build only finds the file; it is loaded through the same truncation check, and a
    // file already refused above is not loaded again (dlopen of a cut file kills the process).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const gypBuild = require('node-gyp-build') as { resolve(dir: string): string };
    const file = gypBuild.resolve(root);
    if (broken && resolve(file) === resolve(broken.file)) throw broken.cause;
    binding = requireBinary(file);
    return binding;
  } catch (cause) {
    if (broken) throw loadFailed(broken.file, broken.cause);
    throw new SocialSdkAuthError(
      'ERR_NATIVE_MISSING',
      `No social-sdk-auth native binary fits this platform (${process.platform}-${process.arch}, ${runtimeName()}, ` +
        `Node-API 8). Looked in ${join(root, 'prebuilds', `${process.platform}-${process.arch}`)} and ` +
        `${join(root, 'build', 'Release')}. Reinstall the package (\`npm install social-sdk-auth\`); on a ` +
        'platform without a prebuild, `npm rebuild social-sdk-auth` compiles it (needs a C++17 compiler and ' +
        `Python). See docs/troubleshooting.md. Cause: ${loaderMessage(cause)}`,
      { cause },
    );
  }
}
