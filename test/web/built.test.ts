// The web client's assets ship in the built package (dist/web, copied by scripts/bundle.mjs) and
// the built emulator serves them from there, with its security headers.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { ComponentType } from '../../src/components/index.js';
import { builtModule, projectRoot } from '../support/built.js';

describe('the built web client', () => {
  it('is served by the built emulator from dist/web', () => {
    const script = `
      const { startEmulator } = require(${JSON.stringify(builtModule('emulator/index.js'))});
      (async () => {
        const emulator = await startEmulator();
        const page = await fetch(emulator.uiUrl);
        const js = await fetch(emulator.webBase + '/web/assets/app.js');
        const out = { page: page.status, csp: page.headers.get('content-security-policy'), html: await page.text(), js: js.status, type: js.headers.get('content-type'), body: await js.text() };
        await emulator.close();
        process.stdout.write(JSON.stringify(out));
      })();`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 })) as Record<string, string | number>;
    expect(out.page).toBe(200);
    expect(out.csp).toContain("script-src 'self'");
    expect(out.html).toContain('<script src="/web/assets/app.js" defer></script>');
    expect(out.js).toBe(200);
    expect(out.type).toMatch(/^text\/javascript/);
    // The script as shipped, with the component types of src/rules/components.ts ahead of it.
    const prelude = `'use strict';\nconst ComponentType = Object.freeze(${JSON.stringify(ComponentType)});\n`;
    expect(out.body).toBe(prelude + readFileSync(path.join(projectRoot, 'dist', 'web', 'app.js'), 'utf8'));
    expect(out.body).toBe(prelude + readFileSync(path.join(projectRoot, 'src', 'emulator', 'web', 'assets', 'app.js'), 'utf8'));
  });
});
