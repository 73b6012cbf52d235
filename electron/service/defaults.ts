/**
 * The API's fixed default port, shared by `npm run serve` and the desktop app: local
 * applications are configured with an address, so it must not change between hosts or versions.
 */
export const DEFAULT_API_PORT = 8787;
