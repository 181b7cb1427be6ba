// The dependency rules of the design, enforced: dependency-cruiser over src/ with the project's
// config must find nothing, the same config must catch each kind of violation in a fixture, and
// the C++ core must include nothing from the addon or from Node.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { projectRoot } from './support/built.js';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs depcruise over `src` in `cwd` with the project's config; returns its violations. */
function cruise(cwd: string): { violations: Violation[] } {
  const bin = path.join(projectRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const run = spawnSync(process.execPath, [bin, 'src', '--config', path.join(projectRoot, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  expect(run.stderr).toBe('');
  return { violations: report.summary.violations };
}

describe('dependency rules', () => {
  it('hold for src/', () => {
    const { violations } = cruise(projectRoot);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('catch each kind of violation (fixture with one of each)', () => {
    const { violations } = cruise(path.join(projectRoot, 'test', 'fixtures', 'architecture'));
    // A file cycle is reported from one of its files, whichever the cruise meets first.
    const found = new Set(violations.map((v) => (v.rule.name === 'no-file-cycles' ? `${v.rule.name}: src/a.ts <-> src/b.ts` : `${v.rule.name}: ${v.from}`)));
    expect([...found].sort()).toEqual(
      [
        'emulator-areas-are-separate: src/emulator/lobbies/op.ts',
        'emulator-is-independent: src/emulator/e.ts',
        'emulator-kernel-is-the-bottom: src/emulator/kernel/k.ts',
        'emulator-oauth-imports-no-area: src/emulator/oauth/o.ts',
        'emulator-root-is-the-top: src/emulator/messages/up.ts',
        'emulator-shared-state-is-below-the-areas: src/emulator/world/wd.ts',
        'entry-points-are-roots: src/signin/s.ts',
        'ws-loads-lazily: src/emulator/gateway/g.ts',
        'helpers-live-in-folders: src/a.ts',
        'helpers-live-in-folders: src/b.ts',
        'helpers-live-in-folders: src/index.ts',
        'hosts-use-the-public-api: src/desktop/d.ts',
        'hosts-use-the-public-api: src/electron.ts',
        'no-file-cycles: src/a.ts <-> src/b.ts',
        'no-folder-cycles: src/one',
        'no-folder-cycles: src/two',
        'rules-are-pure: src/rules/r.ts',
        'shared-is-a-leaf: src/shared/sh.ts',
        'sign-in-stays-small: src/index.ts',
        'web-client-stays-in-the-emulator: src/helper-web.ts',
      ].sort(),
    );
  });
});

// Node, V8, libuv and Node-API headers, and anything of the addon.
const NODE_HEADER =
  /^\s*#\s*include\s*[<"](?:[^>"]*\/)?(napi\.h|node_api\.h|js_native_api\.h|node\.h|v8\.h|uv\.h|node_api_types\.h)[>"]|^\s*#\s*include\s*[<"][^>"]*addon\//;

function includesOf(dir: string): Array<{ file: string; line: string }> {
  const found: Array<{ file: string; line: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...includesOf(full));
    else if (/\.(h|hh|hpp|c|cc|cpp|cxx|ipp)$/.test(entry.name)) {
      for (const line of readFileSync(full, 'utf8').split('\n')) {
        if (/^\s*#\s*include/.test(line)) found.push({ file: path.relative(projectRoot, full), line: line.trim() });
      }
    }
  }
  return found;
}

describe('native/core', () => {
  it('includes nothing from native/addon or Node', () => {
    const includes = includesOf(path.join(projectRoot, 'native', 'core'));
    expect(includes.length).toBeGreaterThan(20);
    expect(includes.filter((i) => NODE_HEADER.test(i.line))).toEqual([]);
  });

  it('has a scan that would see such an include', () => {
    for (const line of ['#include <napi.h>', '#include "node_api.h"', '  # include <node/v8.h>', '#include "../../addon/client_wrap.hpp"', '#include <uv.h>']) {
      expect(NODE_HEADER.test(line), line).toBe(true);
    }
    for (const line of ['#include <string>', '#include "sdkauth/client.hpp"', '#include <openssl/sha.h>']) {
      expect(NODE_HEADER.test(line), line).toBe(false);
    }
  });
});
