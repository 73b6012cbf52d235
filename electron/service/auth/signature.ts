/**
 * The hosted platform's request signature (contract.md, "Signatures"): a lower-case hex MD5 over
 * fixed `key:value` pairs. Kept byte-for-byte compatible so existing clients work unchanged.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type SignMethod = 1 | 2;

export interface SignInput {
  adminkey: string;
  adminsecret: string;
  customerId: string;
  nonce: string;
  timestamp: string;
  /** The request path as sent on the wire, before `?`. */
  uri: string;
  /** Required for method 2: the secret of the robot named in the path. */
  robotsecret?: string;
}

/** The exact string that is hashed, pairs in the contract's order. */
export function canonicalString(method: SignMethod, input: SignInput): string {
  const pairs = [
    `adminkey:${input.adminkey}`,
    `adminsecret:${input.adminsecret}`,
    `customerId:${input.customerId}`,
    `nonce:${input.nonce}`,
  ];
  if (method === 2) {
    if (input.robotsecret === undefined) throw new Error('method 2 needs the robot secret');
    pairs.push(`robotsecret:${input.robotsecret}`);
  }
  pairs.push(`timestamp:${input.timestamp}`, `uri:${input.uri}`);
  return pairs.join(',');
}

export function computeSign(method: SignMethod, input: SignInput): string {
  return createHash('md5').update(canonicalString(method, input), 'utf8').digest('hex');
}

/**
 * Compares two secrets without leaking where they differ: both are hashed first so that even
 * their lengths do not show in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** Constant-time comparison of two hex signatures, case-insensitively. */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex.toLowerCase(), 'latin1');
  const given = Buffer.from(givenHex.toLowerCase(), 'latin1');
  // Lengths are public (an MD5 is always 32 hex digits); only the content must not leak.
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const NONCE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const TIMESTAMP_PATTERN = /^\d{13}$/;
