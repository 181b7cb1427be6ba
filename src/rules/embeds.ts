/**
 * The URL rule of embeds: which field of an embed takes a URL, and the schemes each accepts, as
 * the service takes them (see docs/decisions.md). Links a reader follows (the embed's `url`, its
 * author's and provider's, a video's) are `http` or `https`; images the client shows (the image, the
 * thumbnail, the author's and footer's icons) may also be an `attachment://<filename>` uploaded with
 * the message. Anything else (`javascript:`, `data:`, `file:`, a relative path) is refused with
 * 50035 at the field's path. Used by the message validator (rules/components.ts), so by every
 * emulator route that takes embeds and by the client's own validation.
 */

/** Schemes of a link a reader follows. */
export const LINK_SCHEMES = ['http', 'https'] as const;
/** Schemes of an image the client shows: a link, or a file uploaded with the message. */
export const MEDIA_SCHEMES = ['http', 'https', 'attachment'] as const;

/** The longest URL an embed field takes (the service's description: 2048 characters). */
export const EMBED_URL_MAX_LENGTH = 2048;

/** One URL field of an embed: its path inside the embed, and the schemes it accepts. */
export interface EmbedUrlField {
  readonly path: readonly [string] | readonly [string, string];
  readonly schemes: readonly string[];
}

/** Every URL field of an embed, the one table of them. */
export const EMBED_URL_FIELDS: readonly EmbedUrlField[] = [
  { path: ['url'], schemes: LINK_SCHEMES },
  { path: ['author', 'url'], schemes: LINK_SCHEMES },
  { path: ['author', 'icon_url'], schemes: MEDIA_SCHEMES },
  { path: ['footer', 'icon_url'], schemes: MEDIA_SCHEMES },
  { path: ['image', 'url'], schemes: MEDIA_SCHEMES },
  { path: ['thumbnail', 'url'], schemes: MEDIA_SCHEMES },
  { path: ['video', 'url'], schemes: LINK_SCHEMES },
  { path: ['provider', 'url'], schemes: LINK_SCHEMES },
];

/**
 * What is wrong with `value` as a URL of one of `schemes`, as a sentence; undefined when nothing
 * is. The one URL scheme check of the rules (embeds and unfurled media items alike).
 */
export function urlSchemeProblem(value: string, schemes: readonly string[]): string | undefined {
  let scheme: string;
  try {
    scheme = new URL(value).protocol.slice(0, -1);
  } catch {
    return `Must be an absolute URL with the scheme ${schemes.join(', ')}; the value is not a URL.`;
  }
  if (!schemes.includes(scheme)) return `Scheme "${scheme.slice(0, 32)}" is not supported; the scheme must be one of ${schemes.join(', ')}.`;
  if (scheme === 'attachment' && !/^attachment:\/\/[^/\\]+$/.test(value)) return 'An attachment reference must be attachment://<filename>.';
  return undefined;
}
