/**
 * The hosted platform's request signature (contract.md, "Signatures"): a lower-case hex MD5 over
 * fixed `key:value` pairs. Kept byte-for-byte compatible so existing clients work unchanged.
 * @module
 */
import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';
import { canonicalString } from './canonical';
import type { SignInput, SignMethod } from './canonical';

export { canonicalString, NONCE_PATTERN, TIMESTAMP_PATTERN } from './canonical';
export type { SignInput, SignMethod } from './canonical';

/**
 * One-shot digest: `crypto.hash` (Node 20.12+) skips the Hash object of `createHash`, which
 * matters on the ask route, hashed on every request.
 */
const digest: (algorithm: string, text: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (algorithm, text) => crypto.hash(algorithm, text, 'buffer')
    : (algorithm, text) => createHash(algorithm).update(text, 'utf8').digest();

/** The signature as 16 bytes (an MD5). */
export function computeSignBytes(method: SignMethod, input: SignInput): Buffer {
  return digest('md5', canonicalString(method, input));
}

export function computeSign(method: SignMethod, input: SignInput): string {
  return computeSignBytes(method, input).toString('hex');
}

/** The SHA-256 of a secret, to compare it with `secretDigestEquals` (hash the known one once). */
export function secretDigest(secret: string): Buffer {
  return digest('sha256', secret);
}

/**
 * Compares a secret with one whose digest is known, without leaking where they differ: the
 * given one is hashed first so that even its length does not show in the timing.
 */
export function secretDigestEquals(known: Buffer, given: string): boolean {
  return timingSafeEqual(known, digest('sha256', given));
}

/**
 * Compares two secrets without leaking where they differ: both are hashed first so that even
 * their lengths do not show in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return secretDigestEquals(secretDigest(a), b);
}

/**
 * Constant-time comparison of a signature given as hex (either case, already checked to be 32
 * hex digits) with the expected MD5 bytes.
 */
export function signatureBytesMatch(expected: Buffer, givenHex: string): boolean {
  const given = Buffer.from(givenHex, 'hex');
  return given.length === expected.length && timingSafeEqual(expected, given);
}

/** Constant-time comparison of two hex signatures, case-insensitively. */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex.toLowerCase(), 'latin1');
  const given = Buffer.from(givenHex.toLowerCase(), 'latin1');
  // Lengths are public (an MD5 is always 32 hex digits); only the content must not leak.
  return expected.length === given.length && timingSafeEqual(expected, given);
}
