/**
 * What signing editors in keeps (sign-in/): their sessions, by the hash of their token (the
 * token itself is never stored), and the failed sign-ins of each subject (a username, a client
 * address) that rate-limit guessing. In the store, so that every node of a team server sees the
 * same. Each method is one transaction.
 * @module
 */

export interface EditorSession {
  tenantId: number;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionRepository {
  insert(tokenHash: string, session: EditorSession): Promise<void>;
  find(tokenHash: string): Promise<EditorSession | undefined>;
  /** Records a use of the session (its idle limit counts from there). */
  touch(tokenHash: string, at: number): Promise<void>;
  /** Ends a session; false when there was none. */
  remove(tokenHash: string): Promise<boolean>;
  /** Deletes sessions last seen before `idleBefore` or made before `madeBefore`; how many. */
  purgeExpired(idleBefore: number, madeBefore: number): Promise<number>;
}

export interface SignInFailureRepository {
  /** Records one failed sign-in of each subject, forgetting their failures before `forgetBefore`. */
  record(subjects: readonly string[], at: number, forgetBefore: number): Promise<void>;
  /** The subject's failures since `since`, oldest first. */
  since(subject: string, since: number): Promise<number[]>;
  /** Forgets a subject's failures (after a successful sign-in). */
  clear(subject: string): Promise<void>;
  /** Forgets every failure before `before`; how many. */
  purge(before: number): Promise<number>;
}
