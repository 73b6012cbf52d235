import type { Envelope, FailureEnvelope } from '../api-types';
import { nextTurn } from '../time-slices';

/** `msg` is `success` on tenant, robot, rule and ask routes and null on add/update user. */
export function success<T>(data: T, msg: 'success' | null = 'success'): Envelope<T> {
  return { code: '0', msg, data };
}

export function failure(code: string, msg: string): FailureEnvelope {
  return { code, msg, data: null };
}

/** Items of a list serialised by one call: a few hundred KB at most, a turn of the loop between. */
const JSON_ITEMS = 2000;

/**
 * The JSON text of `success(data)`, its lists made `JSON_ITEMS` at a time with a turn of the
 * event loop between (`nextTurn`): a batch import's answer is half a megabyte, 10k rules'
 * analytics two, whose serialisation in one go would hold up the questions asked meanwhile. A
 * call per item cost two to four times the CPU of one call per chunk (issue 28). The same text
 * as `JSON.stringify(success(data))`.
 */
export async function successJsonInSlices(data: Record<string, unknown>): Promise<string> {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    let json: string | undefined;
    if (Array.isArray(value) && value.length > JSON_ITEMS) {
      const parts: string[] = [];
      for (let i = 0; i < value.length; i += JSON_ITEMS) {
        if (i > 0) await nextTurn();
        // The chunk's own brackets left out: the list's are put around them all.
        parts.push(JSON.stringify(value.slice(i, i + JSON_ITEMS)).slice(1, -1));
      }
      json = `[${parts.join(',')}]`;
    } else json = JSON.stringify(value);
    if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{"code":"0","msg":"success","data":{${fields.join(',')}}}`;
}
