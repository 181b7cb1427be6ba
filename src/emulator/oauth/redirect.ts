/** Redirect URI matching as the service does it (exact, except the loopback port: RFC 8252 §7.3). */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** True when `uri` is a custom-scheme (private-use) URI rather than http or https. */
export function isCustomScheme(uri: string): boolean {
  const url = parse(uri);
  return url !== undefined && url.protocol !== 'http:' && url.protocol !== 'https:';
}

/**
 * True when `requested` matches one of `registered`. A registered `http://127.0.0.1/path` or
 * `http://[::1]/path` without a port matches any port on that address, because native apps
 * listen on an ephemeral port; everything else must match exactly, character for character.
 */
export function matchRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (requested.includes('#')) return false; // RFC 6749 §3.1.2: no fragment.
  const req = parse(requested);
  if (req === undefined) return false;
  for (const candidate of registered) {
    if (candidate === requested) return true;
    const reg = parse(candidate);
    if (reg === undefined || reg.protocol !== 'http:' || reg.port !== '' || !LOOPBACK_HOSTS.has(reg.hostname)) continue;
    // The registration had no port, so only the port may differ.
    if (
      req.href === requested && // already normalized: no dot segments or default ports hiding in it
      req.protocol === 'http:' &&
      req.hostname === reg.hostname &&
      req.username === '' &&
      req.password === '' &&
      req.pathname === reg.pathname &&
      req.search === reg.search
    ) {
      return true;
    }
  }
  return false;
}
