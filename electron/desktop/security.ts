/**
 * The shell's web-security policy, as pure functions of a URL and the editor's origin (the local
 * service, `http://127.0.0.1:<port>`, or the team server the window shows: team-server.ts): the
 * Content-Security-Policy of the editor's responses, where navigation and new windows may go,
 * which IPC senders are trusted, which permissions are granted. main.ts only wires these into
 * Electron's hooks.
 * @module
 */
import { EDITOR_CONTENT_SECURITY_POLICY } from '../service/editor-policy';
import { PROMPT_ORIGIN } from './prompt-page';

/** The service's policy for the editor: the window shows the same editor a browser does. */
export const CONTENT_SECURITY_POLICY = EDITOR_CONTENT_SECURITY_POLICY;

export type UrlDecision = 'allow' | 'deny' | 'open-external';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** One origin, or several (the CSP covers the local service and the team server shown). */
export type Origins = string | readonly string[];

/** True when `url` is on the editor's origin, or one of them (scheme, host and port). */
export function isAppUrl(url: string, appOrigin: Origins): boolean {
  const origin = parse(url)?.origin;
  if (origin === undefined || origin === 'null') return false;
  return typeof appOrigin === 'string' ? origin === appOrigin : appOrigin.includes(origin);
}

/**
 * An http(s) page that may go to the system browser: not the answer of one of the shell's forms
 * (prompt-page.ts), which carries what was typed (a password) and goes nowhere.
 */
function isWebUrl(url: URL | null): boolean {
  if (url?.origin === PROMPT_ORIGIN) return false;
  return url?.protocol === 'http:' || url?.protocol === 'https:';
}

/**
 * A navigation of the editor's window: within the editor's origin it goes ahead; an http(s) page
 * elsewhere opens in the system browser instead; anything else (file:, javascript:, custom
 * schemes, unparsable URLs) is refused.
 */
export function decideNavigation(url: string, appOrigin: string): UrlDecision {
  if (isAppUrl(url, appOrigin)) return 'allow';
  return isWebUrl(parse(url)) ? 'open-external' : 'deny';
}

/** `window.open` and `target=_blank`: never a new app window; http(s) goes to the browser. */
export function decideWindowOpen(url: string): Exclude<UrlDecision, 'allow'> {
  return isWebUrl(parse(url)) ? 'open-external' : 'deny';
}

/**
 * Response headers with the CSP set when the response comes from the editor's origin (any CSP
 * the server sent is replaced, whatever its case); other responses are returned unchanged.
 */
export function withContentSecurityPolicy(
  url: string,
  appOrigin: Origins,
  headers: Record<string, string[]> = {},
): Record<string, string[]> {
  if (!isAppUrl(url, appOrigin)) return headers;
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return result;
}

/**
 * Permission requests and checks (camera, notifications, geolocation, …) are all refused, except
 * writing to the clipboard from the editor, which copy in a grid needs.
 */
export function isPermissionGranted(permission: string, origin: string, appOrigin: Origins) {
  return permission === 'clipboard-sanitized-write' && isAppUrl(origin, appOrigin);
}
