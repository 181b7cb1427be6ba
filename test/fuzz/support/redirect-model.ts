// A reference model of which redirects may end a pending sign-in, written from the specs
// (RFC 3986 appendix B for splitting a URI, the form-urlencoded rules for the query, RFC 6749
// §4.1.2 for the response) and not from the C++ code, so the two can check each other.

/** What a redirect does to the pending flow. */
export type Verdict =
  /** Not ours (scheme, authority, path, state) or not parseable: the flow goes on untouched. */
  | { kind: 'ignore'; why: string }
  /** The flow resolves with this code. */
  | { kind: 'success'; code: string }
  /** The service's `error=…`: the flow rejects with AuthorizationFailed. */
  | { kind: 'error'; error: string }
  /**
   * The right state but no single, non-empty, printable code and no error. The brief's model
   * leaves such a redirect unhandled; the project's recorded decision (core unit test
   * RedirectVerdicts) ends the flow with AuthorizationFailed, since only the service knows the
   * state. The model follows the project and the report flags the difference.
   */
  | { kind: 'unusable' };

/** Limits the project documents: URL length the addon accepts, query size, code length. */
export const MAX_URL_BYTES = 8192;
export const MAX_QUERY_PARAMS = 64;
export const MAX_CODE_LENGTH = 2048;

/** RFC 3986 appendix B: the regular expression that splits any URI reference. */
const URI_REFERENCE = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/s;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** application/x-www-form-urlencoded decoding to bytes (one char per byte); undefined on a bad escape. */
export function formDecode(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '+') {
      out += ' ';
    } else if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

/** The verdict for a redirect's query (without `?`), given the state of the pending flow. */
export function queryVerdict(query: string, expectedState: string): Verdict {
  const pieces = query.split('&').filter((piece) => piece !== '');
  if (pieces.length > MAX_QUERY_PARAMS) return { kind: 'ignore', why: 'too many parameters' };
  const params: Array<[string, string]> = [];
  for (const piece of pieces) {
    const eq = piece.indexOf('=');
    const name = formDecode(eq < 0 ? piece : piece.slice(0, eq));
    const value = formDecode(eq < 0 ? '' : piece.slice(eq + 1));
    if (name === undefined || value === undefined) return { kind: 'ignore', why: 'malformed escape' };
    params.push([name, value]);
  }
  const values = (name: string) => params.filter(([n]) => n === name).map(([, v]) => v);
  const states = values('state');
  if (states.length !== 1 || states[0] !== expectedState) return { kind: 'ignore', why: 'not exactly one matching state' };
  const errors = values('error');
  if (errors.length > 0) return { kind: 'error', error: errors[0]! };
  const codes = values('code');
  const code = codes.length === 1 ? codes[0]! : '';
  if (code !== '' && code.length <= MAX_CODE_LENGTH && /^[\x20-\x7e]+$/.test(code)) return { kind: 'success', code };
  return { kind: 'unusable' };
}

/** The verdict for a URL given to `handleRedirect` while a custom-scheme flow is pending. */
export function customSchemeVerdict(url: string, scheme: string, expectedState: string): Verdict {
  if (Buffer.byteLength(url, 'utf8') > MAX_URL_BYTES) return { kind: 'ignore', why: 'too long' };
  // A URI holds no spaces, controls or raw non-ASCII (RFC 3986 §2).
  if (/[^\x21-\x7e]/.test(url)) return { kind: 'ignore', why: 'not a URI' };
  const m = URI_REFERENCE.exec(url);
  if (!m || m[2] === undefined || !SCHEME.test(m[2])) return { kind: 'ignore', why: 'no scheme' };
  if (m[2].toLowerCase() !== scheme.toLowerCase()) return { kind: 'ignore', why: 'other scheme' };
  if (m[4] !== undefined && m[4] !== '') return { kind: 'ignore', why: 'has an authority' };
  if (m[5] !== '/authorize/callback') return { kind: 'ignore', why: 'other path' };
  return queryVerdict(m[7] ?? '', expectedState);
}

/** The loopback listener's answer to `GET {target}`: its status and what it does to the flow. */
export function loopbackVerdict(target: string, expectedState: string): { status: number; verdict: Verdict } {
  if (!target.startsWith('/')) return { status: 400, verdict: { kind: 'ignore', why: 'not origin-form' } };
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (path !== '/callback') return { status: 404, verdict: { kind: 'ignore', why: 'other path' } };
  const verdict = queryVerdict(q < 0 ? '' : target.slice(q + 1), expectedState);
  return { status: verdict.kind === 'ignore' ? 400 : 200, verdict };
}
