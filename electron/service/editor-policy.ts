/**
 * The editor's Content-Security-Policy: one policy for the editor served to a browser and shown
 * in the desktop window (electron/desktop/security.ts uses it too).
 * @module
 */

/**
 * The editor's policy: everything from the service itself, nothing framed, no inline script and
 * no eval. React sets style attributes, hence 'unsafe-inline' for styles only; the spreadsheet
 * workers are files of the build. The live field checks are Ajv validators compiled at build time
 * (build/field-validators.ts), so no code is made at run time.
 */
export const EDITOR_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
