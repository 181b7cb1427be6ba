// The types of social-sdk-auth/interactions as a backend uses them: fixtures/typed-backend.ts is
// compiled with the project's compiler options and must give no diagnostics.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

import { diagnosticsOf } from '../support/typecheck.js';

describe('interaction types', () => {
  it('compile the code a backend writes without casts or needless checks', () => {
    expect(diagnosticsOf(path.join(__dirname, 'fixtures', 'typed-backend.ts'))).toEqual([]);
  });
});
