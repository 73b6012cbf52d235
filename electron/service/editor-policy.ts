/**
 * The editor's Content-Security-Policy: one policy for the editor served to a browser and shown
 * in the desktop window (electron/desktop/security.ts uses it too).
 * @module
 */

/**
 * The editor's policy: everything from the service itself, nothing framed, no inline script.
 * React sets style attributes, hence 'unsafe-inline' for styles only; the spreadsheet workers
 * are files of the build. 'unsafe-eval': the editor checks fields live with Ajv, which compiles
 * the service's schemas into functions (new Function); without it the editor does not start.
 * Injected markup still cannot run script (no inline script, no other origin). Precompiling the
 * validators at build time (Ajv standalone) would let it go.
 */
export const EDITOR_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
