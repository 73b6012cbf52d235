/** A copy of a set of picked ids with `id` picked (`on`) or not: for checkbox lists in state. */
export function toggled<T>(set: ReadonlySet<T>, id: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}
