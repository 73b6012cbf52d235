/**
 * The growing wait of one counted subject (an account, an address, their pair): after `allowed`
 * failures in the window, the next attempt waits `lockoutBaseMs` after the last failure, doubled
 * by every failure beyond, at most the window. Kept as a function of the failures the store
 * holds, so that every node of a team server decides alike.
 * @module
 */
import type { SignInPolicy } from './policy';

export interface Limit extends Pick<SignInPolicy, 'failureWindowMs' | 'lockoutBaseMs'> {
  /** Failures allowed in the window before the first wait. */
  allowed: number;
}

/** Milliseconds before the next attempt is allowed, given failures (ascending); 0: allowed now. */
export function lockoutRemaining(failures: readonly number[], now: number, limit: Limit): number {
  const recent = failures.filter((at) => at > now - limit.failureWindowMs);
  const beyond = recent.length - limit.allowed;
  if (beyond < 0) return 0;
  const lockout = Math.min(limit.lockoutBaseMs * 2 ** beyond, limit.failureWindowMs);
  const last = Math.max(...recent);
  return Math.max(0, last + lockout - now);
}
