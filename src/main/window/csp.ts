/**
 * Content-Security-Policy for the app window. The window has no network access at all:
 * every request to the exchange, the chain or the devnet is made by the main process.
 *
 * Imported by electron.vite.config.ts (meta tag in the built page), by main (response
 * header) and by the e2e static server, so the three can never drift apart.
 */

export type CspDirectives = Readonly<Record<string, readonly string[]>>;

export const productionCspDirectives: CspDirectives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

export const PRODUCTION_CSP = serializeCsp(productionCspDirectives);

/** Directives a <meta> CSP cannot carry (browsers ignore them there and log an error). */
const HEADER_ONLY_DIRECTIVES = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/** The same policy for the built page's <meta> tag; the header carries the rest. */
export const META_CSP = serializeCsp(
  Object.fromEntries(Object.entries(productionCspDirectives).filter(([name]) => !HEADER_ONLY_DIRECTIVES.has(name))),
);

/**
 * `electron-vite dev` only: Vite's client needs a websocket back to the dev server for hot
 * reload, and Svelte injects component styles as <style> elements until they are bundled.
 * Never used for a built page.
 */
export function developmentCsp(devServerUrl: string): string {
  const origin = new URL(devServerUrl);
  const wsOrigin = `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}`;
  return serializeCsp({
    ...productionCspDirectives,
    'script-src': ["'self'", origin.origin],
    'style-src': ["'self'", "'unsafe-inline'", origin.origin],
    'connect-src': ["'self'", origin.origin, wsOrigin],
  });
}

/** Response headers with every existing CSP header (any letter case) replaced by ours. */
export function withCspHeader(
  headers: Readonly<Record<string, string | readonly string[]>> | undefined,
  csp: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = typeof value === 'string' ? [value] : [...value];
  }
  out['Content-Security-Policy'] = [csp];
  return out;
}
