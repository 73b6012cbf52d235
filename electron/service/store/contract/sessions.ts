/**
 * What signing editors in keeps (sign-in/): their sessions, by the hash of their token (the
 * token itself is never stored), the sign-in attempts that failed (or are being checked) per
 * subject (an account, a client address, the pair), and the addresses each account signed in
 * from. In the store, so that every node of a team server sees the same. Each method is one
 * transaction.
 * @module
 */

export interface EditorSession {
  tenantId: number;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  /** The client address it was opened from, and its browser (`User-Agent`, cut short). */
  address: string;
  userAgent: string;
}

/** A session in the list of its administrator's, with the hash it is kept by. */
export interface ListedSession extends EditorSession {
  tokenHash: string;
}

export interface SessionRepository {
  insert(tokenHash: string, session: EditorSession): Promise<void>;
  find(tokenHash: string): Promise<EditorSession | undefined>;
  /** An administrator's sessions, the newest first (expired ones included). */
  ofUser(tenantId: number, userId: string): Promise<ListedSession[]>;
  /** Records a use of the session (its idle limit counts from there). */
  touch(tokenHash: string, at: number): Promise<void>;
  /** Ends a session; false when there was none. */
  remove(tokenHash: string): Promise<boolean>;
  /** Ends every session of an administrator; how many. */
  removeOfUser(tenantId: number, userId: string): Promise<number>;
  /** Deletes sessions last seen before `idleBefore` or made before `madeBefore`; how many. */
  purgeExpired(idleBefore: number, madeBefore: number): Promise<number>;
}

/** A sign-in attempt about to be checked. */
export interface Attempt {
  /** Tags the failures it records, so that a success can take them back. */
  id: string;
  at: number;
  /** Failures before this are not read. */
  since: number;
}

/** What an attempt decided once it read its subjects' failures. */
export interface AttemptDecision<T> {
  /** The subjects one failure is recorded against now (taken back by `release` on success). */
  record: readonly string[];
  result: T;
}

export interface SignInFailureRepository {
  /**
   * Reserves an attempt before any password is hashed: reads the failures of `subjects` since
   * `attempt.since`, asks `decide`, and records a failure at `attempt.at` against each subject it
   * names. Atomic across every process sharing the store: no other reservation touching any of
   * these subjects runs between the read and the write, so that parallel attempts are counted
   * one after the other.
   */
  reserve<T>(
    attempt: Attempt,
    subjects: readonly string[],
    decide: (failures: ReadonlyMap<string, readonly number[]>) => AttemptDecision<T>,
  ): Promise<T>;
  /** Takes back what an attempt recorded against these subjects (they were not failures). */
  release(attempt: string, subjects: readonly string[]): Promise<void>;
  /** The subject's failures since `since`, oldest first. */
  since(subject: string, since: number): Promise<number[]>;
  /** Forgets a subject's failures (the pair of an address and an account, after a success). */
  clear(subject: string): Promise<void>;
  /** Forgets every failure before `before`; how many. */
  purge(before: number): Promise<number>;
  /** Whether the account signed in from the address at `since` or later. */
  isKnownClient(account: string, address: string, since: number): Promise<boolean>;
  /** Records that the account signed in from the address at `at`. */
  rememberClient(account: string, address: string, at: number): Promise<void>;
  /** Forgets the addresses last used before `before`; how many. */
  forgetClients(before: number): Promise<number>;
}
