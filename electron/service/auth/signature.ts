/**
 * The hosted platform's request signature (contract.md, "Signatures"): a lower-case hex MD5 over
 * fixed `key:value` pairs. Kept byte-for-byte compatible so existing clients work unchanged.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { canonicalString } from './canonical';
import type { SignInput, SignMethod } from './canonical';

export { canonicalString, NONCE_PATTERN, TIMESTAMP_PATTERN } from './canonical';
export type { SignInput, SignMethod } from './canonical';

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
