/**
 * Work done while a request to the embedding model is on its way (decision 127).
 * @module
 */

/**
 * `call`'s result, with `meanwhile` run after one turn of the event loop: fetch writes the
 * request during that turn, so the provider works on it while `meanwhile` runs (run at once, the
 * request would wait for it). A failure of `call` meanwhile is kept for the caller, not left
 * unhandled.
 */
export async function whileSent<T>(
  call: Promise<T>,
  meanwhile: (() => void) | undefined,
): Promise<T> {
  if (!meanwhile) return call;
  const settled = call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await new Promise<void>((resolve) => setImmediate(resolve));
  meanwhile();
  const result = await settled;
  if (result.ok) return result.value;
  throw result.error;
}
