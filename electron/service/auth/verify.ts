/**
 * Verification of signed requests, in the contract's order: parameters, key, customer and
 * timestamp (401); for method 2 the tenant and robot of the path (404); then the signature and
 * its replay (401). A verified signature is used up whatever happens to the request afterwards.
 * @module
 */
import { LIMITS } from '../limits';
import { ServiceError } from '../errors';
import type { CustomerCredentials } from './credentials';
import type { NonceStore } from './nonce-store';
import { badSignatureMessage } from './signature-hint';
import {
  NONCE_PATTERN,
  TIMESTAMP_PATTERN,
  computeSignBytes,
  constantTimeEqual,
  secretDigest,
  secretDigestEquals,
  signatureBytesMatch,
} from './signature';
import type { SignMethod } from './signature';

const PARAMS = ['adminkey', 'customerId', 'nonce', 'timestamp', 'sign'] as const;
const SIGN_PATTERN = /^[0-9a-fA-F]{32}$/;

/** SHA-256 of each credentials' adminkey, hashed once instead of on every request. */
const adminKeyDigests = new WeakMap<CustomerCredentials, { key: string; digest: Buffer }>();

function adminKeyMatches(credentials: CustomerCredentials, given: string): boolean {
  let known = adminKeyDigests.get(credentials);
  if (known?.key !== credentials.adminKey) {
    known = { key: credentials.adminKey, digest: secretDigest(credentials.adminKey) };
    adminKeyDigests.set(credentials, known);
  }
  return secretDigestEquals(known.digest, given);
}

export interface SignedRequest {
  /** Parsed query parameters. */
  query: Record<string, unknown>;
  /** The path as sent, before `?`. */
  uri: string;
}

export interface VerifierDeps {
  credentials: CustomerCredentials;
  /** The signatures already used (replay keyed on the whole signature). */
  nonces: NonceStore;
  /**
   * The signatures used by every node of a team server (cluster/shared-signatures.ts), checked
   * after this node's own memory; absent on the embedded store.
   */
  sharedSignatures?: { use(key: string, timestampMs: number, nowMs: number): Promise<boolean> };
  now: () => number;
  /** Echo the string the service hashed (secrets masked) in `bad-signature` answers. */
  debugSignatures?: boolean;
}

function unauthorized(
  code: ConstructorParameters<typeof ServiceError>[0],
  message: string,
): ServiceError {
  return new ServiceError(code, message);
}

/** `adminkey is required`, saying so when it was given in another case (`adminKey`). */
function missingParam(name: string, query: Record<string, unknown>): ServiceError {
  const lower = name.toLowerCase();
  const near = Object.keys(query).find((key) => key !== name && key.toLowerCase() === lower);
  return unauthorized(
    'missing-auth-param',
    near === undefined
      ? `The query parameter ${name} is required.`
      : `The query parameter ${name} is required (${near} was given: parameter names are case-sensitive).`,
  );
}

/** The signature was used before (here, or on another node of a team server). */
export function replayedSignature(): ServiceError {
  return unauthorized(
    'replayed-nonce',
    'This signed request has already been used (same nonce, timestamp and path): sign each request again, with a new timestamp or nonce.',
  );
}

/** A signature verified and new to this node: what the nodes' shared record is asked about. */
export interface VerifiedSignature {
  key: string;
  timestampMs: number;
  nowMs: number;
}

/**
 * Checks a request. For method 2, `robotSecret` is called after the first checks pass and must
 * return the secret of the robot in the path or throw the 404 of the contract. Returns the
 * signature, for the check against the other nodes' (`sharedSignatures`).
 */
export function verifySignedRequest(
  deps: VerifierDeps,
  method: SignMethod,
  request: SignedRequest,
  robotSecret: () => string,
  robotId?: string,
): VerifiedSignature {
  const values: Partial<Record<(typeof PARAMS)[number], string>> = {};
  for (const name of PARAMS) {
    const value = request.query[name];
    if (value === undefined || value === '') throw missingParam(name, request.query);
    if (typeof value !== 'string') {
      throw unauthorized('malformed-auth-param', `The query parameter ${name} must be given once.`);
    }
    values[name] = value;
  }
  const { adminkey, customerId, nonce, timestamp, sign } = values as Record<
    (typeof PARAMS)[number],
    string
  >;
  if (!NONCE_PATTERN.test(nonce)) {
    throw unauthorized(
      'malformed-auth-param',
      'nonce must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -.',
    );
  }
  if (!TIMESTAMP_PATTERN.test(timestamp)) {
    throw unauthorized(
      'malformed-auth-param',
      'timestamp must be milliseconds since the Unix epoch (13 digits).',
    );
  }
  if (!SIGN_PATTERN.test(sign)) {
    throw unauthorized('malformed-auth-param', 'sign must be 32 hexadecimal digits (an MD5).');
  }
  const { credentials, nonces } = deps;
  if (!adminKeyMatches(credentials, adminkey)) {
    throw unauthorized('unknown-adminkey', 'The adminkey is not known to this service.');
  }
  if (customerId !== credentials.customerId) {
    throw unauthorized('customer-mismatch', 'The customerId does not belong to this adminkey.');
  }
  const now = deps.now();
  const ts = Number(timestamp);
  if (Math.abs(now - ts) > LIMITS.timestampWindowMs) {
    throw unauthorized(
      'stale-timestamp',
      'The timestamp is more than 300 seconds away from the server clock.',
    );
  }
  if (ts < nonces.notBefore) {
    throw unauthorized(
      'stale-timestamp',
      'The timestamp is older than the service restart after an unclean stop; sign the request again.',
    );
  }
  const input = {
    adminkey: credentials.adminKey,
    adminsecret: credentials.adminSecret,
    customerId,
    nonce,
    timestamp,
    uri: request.uri,
    ...(method === 2 ? { robotsecret: robotSecret() } : {}),
  };
  const expected = computeSignBytes(method, input);
  if (!signatureBytesMatch(expected, sign)) {
    throw unauthorized(
      'bad-signature',
      badSignatureMessage(method, input, deps.debugSignatures === true, robotId),
    );
  }
  // The signature stands for the whole of adminkey, nonce, timestamp and uri (with the secrets):
  // the same signed request again is a replay; the same nonce with a new timestamp is not.
  const key = expected.toString('hex');
  if (!nonces.use(key, ts, now)) throw replayedSignature();
  return { key, timestampMs: ts, nowMs: now };
}

/** The console API's check: `Authorization: Bearer <the per-launch token>`. */
export function verifyConsoleToken(token: string, header: string | undefined): void {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  if (!constantTimeEqual(token, given)) {
    throw new ServiceError(
      'bad-console-token',
      'The console token is missing or wrong: open the editor from the URL the service printed.',
    );
  }
}
