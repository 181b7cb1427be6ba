// The locales a localization dictionary may be keyed by. The spec names only en-US, en-GB, es-419
// and es-ES; the full list is the service's published one (see docs/decisions.md).

/** Every locale the service accepts as a key of `name_localizations` and `description_localizations`. */
export const LOCALES = [
  'id',
  'da',
  'de',
  'en-GB',
  'en-US',
  'es-ES',
  'es-419',
  'fr',
  'hr',
  'it',
  'lt',
  'hu',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'fi',
  'sv-SE',
  'vi',
  'tr',
  'cs',
  'el',
  'bg',
  'ru',
  'uk',
  'hi',
  'th',
  'zh-CN',
  'ja',
  'zh-TW',
  'ko',
  'ar',
  'he',
] as const;

export type Locale = (typeof LOCALES)[number];

const localeSet: ReadonlySet<string> = new Set(LOCALES);

/** True when `value` is one of {@link LOCALES} (exact case: the service keys are case-sensitive). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && localeSet.has(value);
}

/**
 * The locale the service falls back to when a dictionary lacks `locale`: en-US and en-GB stand in
 * for each other and es-419 falls back to es-ES; other locales have none (the default value is used).
 */
export function localeFallback(locale: Locale): Locale | undefined {
  switch (locale) {
    case 'en-US':
      return 'en-GB';
    case 'en-GB':
      return 'en-US';
    case 'es-419':
      return 'es-ES';
    default:
      return undefined;
  }
}
