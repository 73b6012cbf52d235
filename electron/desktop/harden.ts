/**
 * Wires the policy of security.ts into Electron objects passed in (type-only imports: this module
 * never loads Electron, so tests drive it with fakes). `appOrigin` is read on each call: the
 * editor's origin is known once the service listens.
 * @module
 */
import type { Event, Session, WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, isPermissionGranted } from './security';
import { withContentSecurityPolicy } from './security';
import type { Origins } from './security';

type Origin = () => string;

/**
 * CSP on the editor's responses; every permission refused but clipboard writes (security.ts).
 * `appOrigins`: the local service's and, while the window shows one, the team server's.
 */
export function hardenSession(session: Session, appOrigins: () => Origins): void {
  session.webRequest.onHeadersReceived((details, callback) =>
    callback({
      responseHeaders: withContentSecurityPolicy(
        details.url,
        appOrigins(),
        details.responseHeaders,
      ),
    }),
  );
  session.setPermissionRequestHandler((contents, permission, callback) =>
    callback(isPermissionGranted(permission, contents.getURL(), appOrigins())),
  );
  session.setPermissionCheckHandler((_contents, permission, origin) =>
    isPermissionGranted(permission, origin, appOrigins()),
  );
}

/**
 * No new windows, no navigation off the editor's origin (exactly the one the window shows now),
 * no <webview>; web links to the browser.
 */
export function guardContents(
  contents: WebContents,
  appOrigin: Origin,
  openExternal: (url: string) => unknown,
): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (decideWindowOpen(url) === 'open-external') openExternal(url);
    return { action: 'deny' };
  });
  const guard = (event: Event<{ url: string }>) => {
    const decision = decideNavigation(event.url, appOrigin());
    if (decision !== 'allow') event.preventDefault();
    if (decision === 'open-external') openExternal(event.url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
