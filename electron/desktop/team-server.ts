/**
 * The team server the window may show instead of the embedded service (docs/desktop.md, "A team
 * server"): the address a person types, checked and reduced to an origin, and the origins the
 * window may be on at any moment. Pure functions: main.ts wires them into the window and hooks.
 * @module
 */

/** What the window shows: this computer's service, or a team server's editor. */
export type WindowTarget = { kind: 'local' } | { kind: 'team'; origin: string };

export type AddressCheck =
  | { ok: true; origin: string }
  | {
      ok: false;
      /** A sentence for the person who typed it. */
      reason: string;
      /** Plain http to a machine other than this one: allowed once the person confirms it. */
      needsHttpConfirmation?: boolean;
    };

/** 127.0.0.0/8, ::1 and localhost: plain http never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The origin of a team server from what was typed (`kb.example.com`, `https://kb.example.com/`,
 * `http://10.0.0.5:8787`). Without a scheme it is https. Only the server's root is accepted (the
 * editor and its API live there): no path, query, fragment or user name. Plain http is accepted
 * for this machine, and for another only with `httpConfirmed` (passwords and session tokens
 * would cross the network readable).
 */
export function checkTeamServerAddress(typed: string, httpConfirmed = false): AddressCheck {
  const text = typed.trim();
  if (text === '') return { ok: false, reason: 'Type the address of the team server.' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, reason: `"${text}" is not a web address.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `A team server is reached over https, not ${url.protocol}` };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      reason: 'Leave the user name and password out of the address: the server asks for them.',
    };
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    return {
      ok: false,
      reason: `Give the server's address only (${url.origin}), without a path or query.`,
    };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !httpConfirmed) {
    return {
      ok: false,
      needsHttpConfirmation: true,
      reason: `${url.origin} is plain http: your password and the editor's session would cross the network unencrypted.`,
    };
  }
  return { ok: true, origin: url.origin };
}

/** The origin the window may be on now: exactly the local service's, or the team server's. */
export function windowOrigin(target: WindowTarget, localOrigin: string): string {
  return target.kind === 'team' ? target.origin : localOrigin;
}

/** Where the window goes for a target: the local editor with its token, or the server's root. */
export function windowUrl(target: WindowTarget, localEditorUrl: string): string {
  return target.kind === 'team' ? `${target.origin}/` : localEditorUrl;
}
