/**
 * The editor's token (the console API's, where editors do not sign in): read from the address
 * (`/?token=…`), removed from the address bar (so it is not shared with a screenshot or a copied
 * link), and kept in localStorage for this origin. The service keeps the same token across
 * restarts (auth/editor-token.ts), so a bookmark of the editor and the tabs left open keep
 * working after one. When the token is replaced (the API access page), the new one is stored
 * here, and every tab of this browser reads it at its next call.
 * @module
 */
const KEY = 'kb-studio.console-token';

export function takeConsoleToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    storeConsoleToken(fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storedConsoleToken();
}

export function storedConsoleToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeConsoleToken(token: string): void {
  try {
    localStorage.setItem(KEY, token);
  } catch {
    // Storage refused (a private window's quota): this tab still has it in memory.
  }
}

/** Forgets the token, unless another tab has stored a newer one meanwhile. */
export function forgetConsoleToken(token: string): void {
  if (storedConsoleToken() === token) localStorage.removeItem(KEY);
}

/** The editor's address with `token`: what the service prints at start. */
export function editorAddressWith(token: string): string {
  return `${window.location.origin}/?token=${encodeURIComponent(token)}`;
}
