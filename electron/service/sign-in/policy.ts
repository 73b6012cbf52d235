/**
 * How long editors' sessions last and how failed sign-ins are slowed down (team server; the
 * policy is docs/api.md's "Signing in").
 * @module
 */

export interface SignInPolicy {
  /** A session unused this long has expired. */
  sessionIdleMs: number;
  /** A session this old has expired, however much it is used. */
  sessionMaxMs: number;
  /** Failed sign-ins are counted over this window. */
  failureWindowMs: number;
  /** The first wait once a limit is reached; each further failure doubles it, up to the window. */
  lockoutBaseMs: number;
  /** Failures of one account from one client address before that pair waits. */
  failuresPerPair: number;
  /**
   * Failures of one account, from any address, before it waits, except from the addresses it
   * signed in from (`knownClientMs`): a stranger cannot keep its administrator out.
   */
  failuresPerAccount: number;
  /** Failures from one client address, whatever the account, before the address waits. */
  failuresPerAddress: number;
  /** An address an account signed in from stays known to it this long after its last success. */
  knownClientMs: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = {
  sessionIdleMs: 30 * 60_000,
  sessionMaxMs: 12 * 60 * 60_000,
  failureWindowMs: 15 * 60_000,
  lockoutBaseMs: 60_000,
  failuresPerPair: 5,
  failuresPerAccount: 10,
  failuresPerAddress: 20,
  knownClientMs: 30 * 24 * 60 * 60_000,
};
