/**
 * Errors every store raises in the same terms, so that the domain and the HTTP layer never need
 * to know which database is underneath.
 * @module
 */

/** A write could not be made durable, or the store can no longer write: nothing was changed. */
export class StorageFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFailure';
  }
}

/**
 * The store cannot be reached, or did not answer in time (a team server's database away or
 * frozen): nothing was changed, and trying again later may succeed (503 `storage-unavailable`).
 */
export class StorageUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailable';
  }
}

/** What a uniqueness rule of the store protects. */
export type UniqueKey = 'rule-name' | 'rule-id' | 'username' | 'category-name';

/**
 * A write would have broken a uniqueness rule (the domain checks first; this is what a race, or
 * another node of a team server, meets). Nothing was changed.
 */
export class UniqueViolation extends Error {
  constructor(
    readonly key: UniqueKey,
    options?: { cause?: unknown },
  ) {
    super(`unique ${key} violated`, options);
    this.name = 'UniqueViolation';
  }
}
