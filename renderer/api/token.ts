/**
 * The console token: read once from the address (`/?token=…`), kept in sessionStorage for
 * reloads of the same tab, and removed from the address bar so it is not bookmarked or shared.
 * @module
 */
const KEY = 'kb-studio.console-token';

export function takeConsoleToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY);
}

export function forgetConsoleToken(): void {
  sessionStorage.removeItem(KEY);
}
