/**
 * Growth helpers for the typed arrays that hold the index. Typed arrays keep 100k rules in a few
 * tens of megabytes where objects per phrasing would take hundreds.
 * @module
 */

type Growable = Int32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

/**
 * Returns `array` if it can hold `needed` elements, else a copy a quarter larger (at least
 * `needed`): doubling left a third of the largest arrays unused on average (the phrasing arrays
 * held room for 1M phrasings at 600k) and three times an array's size live while it grew.
 */
export function ensureCapacity<T extends Growable>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const capacity = Math.max(16, needed, array.length + (array.length >> 2));
  const grown = new (array.constructor as new (length: number) => T)(capacity);
  grown.set(array);
  return grown;
}
