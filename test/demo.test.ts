// The main job as a newcomer runs it: `npm run demo` signs a player in against the embedded
// emulator and prints the result without printing a single whole secret.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run demo', () => {
  it('signs in, refreshes and revokes against the embedded emulator', () => {
    const output = execFileSync(process.execPath, [path.resolve(__dirname, '..', 'scripts', 'demo.mjs')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(output).toContain('Signed in.');
    expect(output).toMatch(/redirect URI: +http:\/\/127\.0\.0\.1:\d+\/callback/);
    expect(output).toContain('Revoked the grant');
    // Secrets appear only shortened: four characters and a length.
    for (const line of output.split('\n').filter((l) => l.includes('token:'))) {
      expect(line).toMatch(/(… \(\d+ characters\)|\(none\))$/);
    }
  });
});
