/**
 * How long editors' sessions last and how failed sign-ins are slowed down (team server).
 * @module
 */

export interface SignInPolicy {
  /** A session unused this long has expired. */
  sessionIdleMs: number;
  /** A session this old has expired, however much it is used. */
  sessionMaxMs: number;
  /** Failed sign-ins are counted over this window. */
  failureWindowMs: number;
  /** Failed sign-ins of a username or an address allowed in the window before a lockout. */
  failuresAllowed: number;
  /** The first lockout; each further failure doubles it, up to the window. */
  lockoutBaseMs: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = {
  sessionIdleMs: 30 * 60_000,
  sessionMaxMs: 12 * 60 * 60_000,
  failureWindowMs: 15 * 60_000,
  failuresAllowed: 5,
  lockoutBaseMs: 60_000,
};
