// The schema helper itself: it finds operations, holds answers to the description and catches what
// the description forbids, so the schema tests of the emulator's routes can be trusted.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, componentSchemaErrors, operationPath, schemaErrors } from './openapi.js';

describe('the OpenAPI helper', () => {
  it('keeps the same description as the reference copy beside the repository, when there is one', () => {
    const vendored = readFileSync(OPENAPI_FILE, 'utf8');
    const info = JSON.parse(vendored) as { openapi: string; info: { version: string; license: { identifier: string } } };
    expect([info.openapi, info.info.version, info.info.license.identifier]).toEqual(['3.1.0', '10', 'MIT']);
    const reference = path.join(path.dirname(OPENAPI_FILE), '..', '..', '..', '..', 'shared', 'reference', 'discord-openapi.json');
    if (existsSync(reference)) expect(readFileSync(reference, 'utf8') === vendored).toBe(true);
  });

  it('names the operation of a request path, literal segments first', () => {
    expect(operationPath('/api/v10/users/@me')).toBe('/users/@me');
    expect(operationPath('/api/v10/users/80351110224678912')).toBe('/users/{user_id}');
    expect(operationPath('/api/v10/guilds/1/roles?x=1')).toBe('/guilds/{guild_id}/roles');
    expect(operationPath('/api/v10/no/such/route')).toBeUndefined();
  });

  it('finds what an answer lacks and accepts a complete one', () => {
    expect(schemaErrors('GET', '/api/v10/guilds/1', 200, { id: '1', name: 'x' }).join('\n')).toMatch(/required property 'verification_level'/);
    const user = { id: '1', username: 'a', avatar: null, discriminator: '0', public_flags: 0, flags: 0, global_name: null, primary_guild: null };
    expect(componentSchemaErrors('UserResponse', user)).toEqual([]);
    expect(componentSchemaErrors('UserResponse', { ...user, id: '01' })).not.toEqual([]);
  });

  it('holds error bodies: string codes in a field, never `_errors` beside child keys', () => {
    const field = { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] };
    expect(schemaErrors('POST', '/api/v10/applications/1/commands', 400, { code: 50035, message: 'Invalid Form Body', errors: { name: field } })).toEqual([]);
    expect(
      schemaErrors('POST', '/api/v10/applications/1/commands', 400, { code: 50035, message: 'Invalid Form Body', errors: { options: { ...field, 0: field } } }),
    ).not.toEqual([]);
    expect(schemaErrors('GET', '/api/v10/guilds/1', 404, { code: '10004', message: 'Unknown Guild' })).not.toEqual([]);
  });

  it('wants no body where the description gives none, and names a missing status', () => {
    expect(schemaErrors('DELETE', '/api/v10/lobbies/1', 204, undefined)).toEqual([]);
    expect(schemaErrors('DELETE', '/api/v10/lobbies/1', 204, { id: '1' })).toEqual([expect.stringMatching(/gives no body/)]);
    expect(schemaErrors('GET', '/api/v10/no/such', 200, {})).toEqual([expect.stringMatching(/no such path/)]);
  });
});
