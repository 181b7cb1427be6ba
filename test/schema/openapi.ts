/**
 * Holds answers to the service's published OpenAPI description (test/fixtures/openapi/): finds the
 * operation a request path names, the response its status selects, and validates the body with
 * ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). Test code only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { projectRoot } from '../support/built.js';

export const OPENAPI_FILE = path.join(projectRoot, 'test', 'fixtures', 'openapi', 'discord-openapi.json');

type Json = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

const SPEC_ID = 'https://openapi.invalid/discord.json';
let loaded: { spec: OpenApi; ajv: Ajv2020; templates: Array<{ template: string; pattern: RegExp; literals: number }> } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded !== undefined) return loaded;
  const spec = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApi;
  // The known flaw: the service sends string codes (`BASE_TYPE_MAX_LENGTH`) in a field's `_errors`,
  // which the description types as integers; the top-level `code` stays an integer.
  const inner = spec.components.schemas.InnerErrors as { properties: { _errors: Json } };
  inner.properties._errors = {
    type: 'array',
    items: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
  ajv.addFormat('nonce', true);
  ajv.addSchema({ ...spec, $id: SPEC_ID } as unknown as Json);
  const templates = Object.keys(spec.paths).map((template) => {
    const parts = template.split('/').map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\@]/g, '\\$&')));
    return { template, pattern: new RegExp(`^${parts.join('/')}$`), literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length };
  });
  // Most literal segments first: `/users/@me` before `/users/{user_id}`.
  templates.sort((a, b) => b.literals - a.literals);
  loaded = { spec, ajv, templates };
  return loaded;
}

/** The description's path template for a request path (with or without `/api/v10`), or undefined. */
export function operationPath(requestPath: string): string | undefined {
  const bare = requestPath.split('?')[0]!.replace(/^\/api\/v10(?=\/)/, '');
  return load().templates.find((t) => t.pattern.test(bare))?.template;
}

function pointer(...segments: string[]): string {
  return '#' + segments.map((s) => '/' + encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
}

const compiled = new Map<string, ValidateFunction | null>();

/** What the description says of an answer: `undefined` when it describes no JSON body for it. */
function validatorFor(template: string, method: string, status: number): { validate: ValidateFunction | null; where: string } | { missing: string } {
  const { spec, ajv } = load();
  const operation = spec.paths[template]?.[method.toLowerCase()] as { responses?: Record<string, Json> } | undefined;
  if (operation?.responses === undefined) return { missing: `no operation ${method} ${template}` };
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses![k] !== undefined);
  if (key === undefined) return { missing: `no response ${status} (nor ${String(status)[0]}XX) for ${method} ${template}` };
  let response = operation.responses[key] as Json;
  let where = pointer('paths', template, method.toLowerCase(), 'responses', key);
  while (typeof response.$ref === 'string') {
    const name = (response.$ref as string).split('/').pop()!;
    response = spec.components.responses[name]!;
    where = pointer('components', 'responses', name);
  }
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  const cacheKey = `${where}`;
  if (!compiled.has(cacheKey)) {
    compiled.set(
      cacheKey,
      content?.['application/json']?.schema === undefined ? null : ajv.compile({ $ref: `${SPEC_ID}${where}/content/application~1json/schema` }),
    );
  }
  return { validate: compiled.get(cacheKey)!, where: `${method} ${template} → ${key}` };
}

/**
 * The ways an answer breaks the description, as readable lines (empty when it validates). A 204 or
 * a response the description gives no JSON body must come with no body.
 */
export function schemaErrors(method: string, requestPath: string, status: number, body: unknown): string[] {
  const template = operationPath(requestPath);
  if (template === undefined) return [`${method} ${requestPath}: the description has no such path`];
  const found = validatorFor(template, method, status);
  if ('missing' in found) return [found.missing];
  if (found.validate === null) return body === undefined || body === '' ? [] : [`${found.where}: the description gives no body, the answer has one`];
  if (found.validate(body)) return [];
  return (found.validate.errors ?? []).map(
    (e: ErrorObject) => `${found.where}: ${e.instancePath || '(root)'} ${e.message ?? ''}${e.params !== undefined ? ' ' + JSON.stringify(e.params) : ''}`,
  );
}

/** The named component schema's errors for `value` (for objects that travel outside HTTP answers, such as gateway payloads). */
export function componentSchemaErrors(name: string, value: unknown): string[] {
  const { ajv } = load();
  const key = `component:${name}`;
  if (!compiled.has(key)) compiled.set(key, ajv.compile({ $ref: `${SPEC_ID}${pointer('components', 'schemas', name)}` }));
  const validate = compiled.get(key)!;
  if (validate!(value)) return [];
  return (validate!.errors ?? []).map((e: ErrorObject) => `${name}: ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
