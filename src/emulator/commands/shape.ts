/**
 * Command bodies as the emulator stores and answers them: only the fields the spec names, the
 * service's defaults filled in, localized values equal to the default dropped; and the list
 * answer's `name_localized` / `description_localized` for the requester's locale.
 */
import { isLocale, localeFallback, LOCALES, type Locale } from '../../rules/locales.js';

type Json = Record<string, unknown>;

const OPTION_FIELDS = ['required', 'channel_types', 'min_value', 'max_value', 'min_length', 'max_length', 'autocomplete'] as const;

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function own(record: Json, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A localization dictionary without the values equal to the default; null when nothing is left. */
function dictionary(value: unknown, fallback: unknown): Json | null {
  if (!present(value) || typeof value !== 'object') return null;
  const out: Json = {};
  for (const [locale, text] of Object.entries(value as Json)) {
    if (text !== fallback) Object.defineProperty(out, locale, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length === 0 ? null : out;
}

function choiceShape(choice: Json): Json {
  const out: Json = { name: own(choice, 'name'), value: own(choice, 'value') };
  const localizations = dictionary(own(choice, 'name_localizations'), out.name);
  if (localizations !== null) out.name_localizations = localizations;
  return out;
}

function optionShape(option: Json): Json {
  const out: Json = { type: own(option, 'type'), name: own(option, 'name'), description: own(option, 'description') };
  const names = dictionary(own(option, 'name_localizations'), out.name);
  const descriptions = dictionary(own(option, 'description_localizations'), out.description);
  if (names !== null) out.name_localizations = names;
  if (descriptions !== null) out.description_localizations = descriptions;
  for (const field of OPTION_FIELDS) if (present(own(option, field))) out[field] = own(option, field);
  const choices = own(option, 'choices');
  if (Array.isArray(choices) && choices.length > 0) out.choices = (choices as Json[]).map(choiceShape);
  const options = own(option, 'options');
  if (Array.isArray(options) && options.length > 0) out.options = (options as Json[]).map(optionShape);
  return out;
}

/**
 * The stored definition of a valid command body of `type` (every field but id, application_id,
 * guild_id and version), with the service's defaults.
 */
export function definition(body: Json, type: number, guildId: string | undefined): Json {
  const name = own(body, 'name');
  // USER and MESSAGE commands always have an empty description; entry points may have one.
  const description = type === 1 ? own(body, 'description') : type === 4 ? (own(body, 'description') ?? '') : '';
  const out: Json = {
    type,
    name,
    name_localizations: dictionary(own(body, 'name_localizations'), name),
    description,
    description_localizations: type === 2 || type === 3 ? null : dictionary(own(body, 'description_localizations'), description),
    default_member_permissions: present(own(body, 'default_member_permissions')) ? own(body, 'default_member_permissions') : null,
    default_permission: own(body, 'default_permission') ?? true,
    nsfw: own(body, 'nsfw') ?? false,
  };
  const options = own(body, 'options');
  if (type === 1 && Array.isArray(options) && options.length > 0) out.options = (options as Json[]).map(optionShape);
  if (guildId === undefined) {
    out.dm_permission = own(body, 'dm_permission') ?? true;
    out.integration_types = own(body, 'integration_types') ?? [0];
    out.contexts = own(body, 'contexts') ?? null;
  } else {
    if (present(own(body, 'integration_types'))) out.integration_types = own(body, 'integration_types');
    if (present(own(body, 'contexts'))) out.contexts = own(body, 'contexts');
  }
  if (type === 4) out.handler = own(body, 'handler') ?? 1;
  return out;
}

/** The definition part of a stored command, for comparing two versions. */
export function definitionKey(command: Json): string {
  const { id: _id, application_id: _app, guild_id: _guild, version: _version, ...rest } = command;
  return JSON.stringify(rest);
}

/** The value for `locale` in a dictionary, through the service's fallbacks. */
function localized(dict: unknown, locale: Locale): unknown {
  if (!present(dict) || typeof dict !== 'object') return undefined;
  const d = dict as Json;
  if (Object.hasOwn(d, locale)) return d[locale];
  const fallback = localeFallback(locale);
  return fallback !== undefined && Object.hasOwn(d, fallback) ? d[fallback] : undefined;
}

function localizeFields(record: Json, locale: Locale | undefined): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'name_localizations' || key === 'description_localizations') continue;
    if ((key === 'options' || key === 'choices') && Array.isArray(value)) out[key] = (value as Json[]).map((item) => localizeFields(item, locale));
    else out[key] = value;
  }
  if (locale !== undefined) {
    const name = localized(record.name_localizations, locale);
    const description = localized(record.description_localizations, locale);
    if (name !== undefined) out.name_localized = name;
    if (description !== undefined) out.description_localized = description;
  }
  return out;
}

/** A command as list answers show it without `with_localizations`: the requester's locale only. */
export function localizedCommand(command: Json, locale: Locale | undefined): Json {
  return localizeFields(command, locale);
}

const byLowerCase = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));
// A bare language tag stands for the locale the service offers for it.
const byLanguage = new Map<string, Locale>([
  ['en', 'en-US'],
  ['es', 'es-ES'],
  ['pt', 'pt-BR'],
  ['sv', 'sv-SE'],
  ['zh', 'zh-CN'],
  ['nb', 'no'],
]);

/** The locale a language tag stands for: exact (any case), then its language alone. */
export function localeOf(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase();
  const exact = byLowerCase.get(lower);
  if (exact !== undefined) return exact;
  const language = lower.split('-')[0]!;
  return byLowerCase.get(language) ?? byLanguage.get(language);
}

/** The best locale of an `Accept-Language` header (highest q first), if any is one the service offers. */
export function acceptLanguageLocale(header: string): Locale | undefined {
  const ranked = header
    .slice(0, 1000)
    .split(',')
    .slice(0, 50)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find((m) => m !== null);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const locale = localeOf(entry.tag);
    if (locale !== undefined) return locale;
  }
  return undefined;
}

/** The requester's locale: `X-Service-Locale`, then `Accept-Language`, then the user's settings. */
export function requesterLocale(serviceLocale: string | undefined, acceptLanguage: string | undefined, userLocale: string | undefined): Locale | undefined {
  if (serviceLocale !== undefined) {
    const locale = localeOf(serviceLocale);
    if (locale !== undefined) return locale;
  }
  if (acceptLanguage !== undefined) {
    const locale = acceptLanguageLocale(acceptLanguage);
    if (locale !== undefined) return locale;
  }
  return isLocale(userLocale) ? userLocale : undefined;
}
