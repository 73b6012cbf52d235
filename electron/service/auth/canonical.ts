/**
 * The string a request signature hashes (contract.md, "Signatures"). Pure and browser-safe: the
 * service, the typed client and the editor all build it here, so they cannot disagree.
 * @module
 */

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

export const NONCE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const TIMESTAMP_PATTERN = /^\d{13}$/;
