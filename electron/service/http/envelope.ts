import type { Envelope, FailureEnvelope } from '../api-types';
import { mapInSlices } from '../time-slices';

/** `msg` is `success` on tenant, robot, rule and ask routes and null on add/update user. */
export function success<T>(data: T, msg: 'success' | null = 'success'): Envelope<T> {
  return { code: '0', msg, data };
}

export function failure(code: string, msg: string): FailureEnvelope {
  return { code, msg, data: null };
}

/**
 * The JSON text of `success(data)`, its lists made a slice of items at a time (`mapInSlices`):
 * a batch import's answer is half a megabyte, whose serialisation in one go would hold up the
 * questions asked meanwhile. The same text as `JSON.stringify(success(data))`.
 */
export async function successJsonInSlices(data: Record<string, unknown>): Promise<string> {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const json = Array.isArray(value)
      ? `[${(await mapInSlices(value, (item: unknown) => JSON.stringify(item) ?? 'null')).join(',')}]`
      : JSON.stringify(value);
    if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{"code":"0","msg":"success","data":{${fields.join(',')}}}`;
}
