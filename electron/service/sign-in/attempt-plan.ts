/**
 * What a sign-in attempt counts against, and whether it may go on, decided before any password
 * is hashed (docs/api.md, "Signing in"). An attempt from a client address for a username counts
 * against:
 * - the address (`failuresPerAddress`): one client trying many accounts waits, whatever account;
 * - each account the username names (`failuresPerAccount`): many clients trying one account make
 *   it wait, except for the addresses it signed in from (known clients), so that a stranger
 *   cannot keep its administrator out;
 * - each pair of the address and an account (`failuresPerPair`): one client guessing one
 *   account waits soonest.
 * Accounts are their identity (tenant and user id), never the username, which other tenants may
 * use too. A username no account has counts as an account of its own, so that waits say nothing
 * of which usernames exist. An account that must wait is left out of the attempt (its password is
 * not checked); the attempt is refused when the address must wait or every account must.
 * @module
 */
import { lockoutRemaining } from './lockout';
import type { SignInPolicy } from './policy';

/** An account the attempt may open. */
export interface Candidate {
  /** `tenantId/userId`, or `name:…` for a username no account has. */
  account: string;
  /** The account signed in from this address lately: its own limit does not apply. */
  known: boolean;
}

export const addressSubject = (address: string) => `address:${address}`;
export const accountSubject = (account: string) => `account:${account}`;
export const pairSubject = (address: string, account: string) => `pair:${account}@${address}`;

/** Every subject the attempt reads. */
export function subjectsOf(address: string, candidates: readonly Candidate[]): string[] {
  return [
    addressSubject(address),
    ...candidates.flatMap((c) => [accountSubject(c.account), pairSubject(address, c.account)]),
  ];
}

export type AttemptPlan =
  /** Go on with these accounts; a failure is recorded against `record` meanwhile. */
  | { status: 'go'; tried: Candidate[]; record: string[] }
  /** Refused before any hash: the shortest wait after which some account may be tried. */
  | { status: 'wait'; waitMs: number };

export function planAttempt(
  failures: ReadonlyMap<string, readonly number[]>,
  address: string,
  candidates: readonly Candidate[],
  policy: SignInPolicy,
  now: number,
): AttemptPlan {
  const wait = (subject: string, allowed: number) =>
    lockoutRemaining(failures.get(subject) ?? [], now, { ...policy, allowed });
  const addressWait = wait(addressSubject(address), policy.failuresPerAddress);
  if (addressWait > 0) return { status: 'wait', waitMs: addressWait };
  const waits = candidates.map((c) =>
    Math.max(
      wait(pairSubject(address, c.account), policy.failuresPerPair),
      c.known ? 0 : wait(accountSubject(c.account), policy.failuresPerAccount),
    ),
  );
  const tried = candidates.filter((_, i) => waits[i] === 0);
  if (tried.length === 0) return { status: 'wait', waitMs: Math.min(...waits) };
  return {
    status: 'go',
    tried,
    record: [
      addressSubject(address),
      ...tried.flatMap((c) => [accountSubject(c.account), pairSubject(address, c.account)]),
    ],
  };
}
