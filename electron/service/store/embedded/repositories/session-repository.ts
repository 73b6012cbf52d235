/**
 * The embedded store's editor sessions and failed sign-ins: every SQL statement on
 * `editor_sessions` and `sign_in_failures`.
 * @module
 */
import type {
  EditorSession,
  SessionRepository,
  SignInFailureRepository,
} from '../../contract/sessions';
import type { Store } from '../database';

/** A row of `editor_sessions`, as both stores read it. */
export interface SessionRow {
  [column: string]: string | number;
  tenant_id: number;
  user_id: string;
  created_at: number;
  last_seen_at: number;
}

export const SESSION_COLUMNS = 'tenant_id, user_id, created_at, last_seen_at';

export function toEditorSession(row: SessionRow): EditorSession {
  return {
    tenantId: Number(row.tenant_id),
    userId: row.user_id,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
  };
}

export class SqlJsSessionRepository implements SessionRepository {
  constructor(private readonly store: Store) {}

  async insert(tokenHash: string, session: EditorSession): Promise<void> {
    this.store.write((tx) =>
      tx.run(
        'INSERT INTO editor_sessions (token_hash, tenant_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
        [tokenHash, session.tenantId, session.userId, session.createdAt, session.lastSeenAt],
      ),
    );
  }

  async find(tokenHash: string): Promise<EditorSession | undefined> {
    const row = this.store.get<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM editor_sessions WHERE token_hash = ?`,
      [tokenHash],
    );
    return row ? toEditorSession(row) : undefined;
  }

  async touch(tokenHash: string, at: number): Promise<void> {
    this.store.write((tx) =>
      tx.run('UPDATE editor_sessions SET last_seen_at = ? WHERE token_hash = ?', [at, tokenHash]),
    );
  }

  async remove(tokenHash: string): Promise<boolean> {
    return (
      this.store.write((tx) =>
        tx.run('DELETE FROM editor_sessions WHERE token_hash = ?', [tokenHash]),
      ) > 0
    );
  }

  async purgeExpired(idleBefore: number, madeBefore: number): Promise<number> {
    const where = 'WHERE last_seen_at < ? OR created_at < ?';
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    if (
      !this.store.get(`SELECT 1 AS found FROM editor_sessions ${where} LIMIT 1`, [
        idleBefore,
        madeBefore,
      ])
    ) {
      return 0;
    }
    return this.store.write((tx) =>
      tx.run(`DELETE FROM editor_sessions ${where}`, [idleBefore, madeBefore]),
    );
  }
}

export class SqlJsSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly store: Store) {}

  async record(subjects: readonly string[], at: number, forgetBefore: number): Promise<void> {
    this.store.write((tx) => {
      for (const subject of subjects) {
        tx.run('DELETE FROM sign_in_failures WHERE subject = ? AND failed_at < ?', [
          subject,
          forgetBefore,
        ]);
        tx.run('INSERT INTO sign_in_failures (subject, failed_at) VALUES (?, ?)', [subject, at]);
      }
    });
  }

  async since(subject: string, since: number): Promise<number[]> {
    return this.store
      .all<{ failed_at: number }>(
        'SELECT failed_at FROM sign_in_failures WHERE subject = ? AND failed_at >= ? ORDER BY failed_at',
        [subject, since],
      )
      .map((row) => Number(row.failed_at));
  }

  async clear(subject: string): Promise<void> {
    if (!this.store.get('SELECT 1 AS found FROM sign_in_failures WHERE subject = ?', [subject])) {
      return;
    }
    this.store.write((tx) => tx.run('DELETE FROM sign_in_failures WHERE subject = ?', [subject]));
  }

  async purge(before: number): Promise<number> {
    if (!this.store.get('SELECT 1 AS found FROM sign_in_failures WHERE failed_at < ?', [before])) {
      return 0;
    }
    return this.store.write((tx) =>
      tx.run('DELETE FROM sign_in_failures WHERE failed_at < ?', [before]),
    );
  }
}
