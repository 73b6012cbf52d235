import type { Envelope, FailureEnvelope } from '../api-types';

/** `msg` is `success` on tenant, robot, rule and ask routes and null on add/update user. */
export function success<T>(data: T, msg: 'success' | null = 'success'): Envelope<T> {
  return { code: '0', msg, data };
}

export function failure(code: string, msg: string): FailureEnvelope {
  return { code, msg, data: null };
}
