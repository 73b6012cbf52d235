/**
 * The rate limit of failed sign-ins: after `failuresAllowed` failures in the window, the next
 * attempt waits `lockoutBaseMs` after the last failure, doubled by every failure beyond, at most
 * the window. Kept as a function of the failures the store holds, so that every node of a team
 * server decides alike.
 * @module
 */
import type { SignInPolicy } from './policy';

/** Milliseconds before the next attempt is allowed, given failures (ascending); 0: allowed now. */
export function lockoutRemaining(
  failures: readonly number[],
  now: number,
  policy: Pick<SignInPolicy, 'failureWindowMs' | 'failuresAllowed' | 'lockoutBaseMs'>,
): number {
  const recent = failures.filter((at) => at > now - policy.failureWindowMs);
  const beyond = recent.length - policy.failuresAllowed;
  if (beyond < 0) return 0;
  const lockout = Math.min(policy.lockoutBaseMs * 2 ** beyond, policy.failureWindowMs);
  const last = Math.max(...recent);
  return Math.max(0, last + lockout - now);
}
