/**
 * A robot's categories looked up both ways: the grid holds a rule's category by id, and shows,
 * copies and pastes it by name (names are unique in a robot once trimmed, as the service keeps
 * them).
 * @module
 */
import type { ConsoleCategory } from '../../../electron/service/console-types';

export interface CategoryIndex {
  /** The name of a category of the robot; '' for none (or an id not in the list). */
  nameOf: (categoryId: string) => string;
  /** The id of the category with this name ('' for a blank name); undefined when there is none. */
  idOf: (name: string) => string | undefined;
}

export function categoryIndex(categories: readonly ConsoleCategory[]): CategoryIndex {
  const names = new Map(categories.map((c) => [c.categoryId, c.name]));
  const ids = new Map(categories.map((c) => [c.name.trim(), c.categoryId]));
  return {
    nameOf: (categoryId) => names.get(categoryId) ?? '',
    idOf: (name) => (name.trim() === '' ? '' : ids.get(name.trim())),
  };
}

/** Names in `texts` (pasted cells) that are no category of the robot yet, once each. */
export function unknownNames(texts: readonly string[], index: CategoryIndex): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = text.trim();
    if (key === '' || index.idOf(key) !== undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
