/**
 * What a client is told when its signature is wrong: which method the route uses, what goes into
 * the string, and, when the service runs with signature debugging on, the exact string the
 * service hashed with the secrets masked (never the secrets themselves).
 * @module
 */
import { canonicalString } from './canonical';
import type { SignInput, SignMethod } from './canonical';

const MASKED: Pick<SignInput, 'adminsecret' | 'robotsecret'> = {
  adminsecret: '<adminsecret>',
  robotsecret: '<robotsecret>',
};

/** The `bad-signature` sentence for a request of `method` whose signed values are `input`. */
export function badSignatureMessage(
  method: SignMethod,
  input: SignInput,
  debug: boolean,
  robotId?: string,
): string {
  const which =
    method === 1
      ? 'This route is signed with method 1 (adminkey, adminsecret, customerId, nonce, timestamp, uri).'
      : `This route is signed with method 2, which also needs the secret of robot ${robotId ?? 'named in the path'} (adminkey, adminsecret, customerId, nonce, robotsecret, timestamp, uri); ask, batch import, get rule and list rules all use method 2.`;
  const uri = ` The uri is the path as sent, before "?": ${input.uri}`;
  const expected = debug
    ? ` The service hashed (MD5, secrets masked here): ${canonicalString(method, {
        ...input,
        ...MASKED,
      })}`
    : '';
  return `The signature is wrong. ${which}${uri}.${expected}`;
}
