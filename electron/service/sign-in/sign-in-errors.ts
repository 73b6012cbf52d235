/**
 * The refusals of signing in and of sessions, in the service's error codes (docs/api.md).
 * @module
 */
import { ServiceError } from '../errors';

/** A refusal that tells the client when to try again (`Retry-After`). */
export class RetryLaterError extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too-many-sign-ins', message);
  }
}

export const signInFailed = () =>
  new ServiceError('sign-in-failed', 'The username or the password is wrong.');

export const tooManySignIns = (retryAfterSeconds: number) =>
  new RetryLaterError(
    `Too many failed sign-ins: try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    retryAfterSeconds,
  );

export const notSignedIn = () =>
  new ServiceError(
    'not-signed-in',
    "Sign in first: this team server's editor is opened with an administrator's username and password.",
  );

export const sessionExpired = () =>
  new ServiceError('session-expired', 'Your session has expired: sign in again.');

export const otherTenant = (yours: number, asked: number) =>
  new ServiceError(
    'other-tenant',
    `You are signed in to tenant ${yours}: tenant ${asked} is not yours to see or change.`,
  );

export const customerOnly = () =>
  new ServiceError(
    'customer-only',
    'This acts on every tenant of the customer: on a team server it is done through the openapi interface, not by a signed-in administrator.',
  );
