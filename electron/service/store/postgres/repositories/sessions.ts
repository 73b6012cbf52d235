/**
 * The team server's editor sessions and failed sign-ins (the embedded store's statements on
 * `editor_sessions` and `sign_in_failures` in PostgreSQL's SQL). Every node reads them from the
 * database: a session made on one node is known to the others, and so are failed sign-ins.
 * @module
 */
import type {
  EditorSession,
  SessionRepository,
  SignInFailureRepository,
} from '../../contract/sessions';
import { SESSION_COLUMNS, toEditorSession } from '../../embedded/repositories/session-repository';
import type { SessionRow } from '../../embedded/repositories/session-repository';
import type { Database } from '../database';

export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: Database) {}

  async insert(tokenHash: string, session: EditorSession): Promise<void> {
    await this.db.write((tx) =>
      tx.run(
        'INSERT INTO editor_sessions (token_hash, tenant_id, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)',
        [tokenHash, session.tenantId, session.userId, session.createdAt, session.lastSeenAt],
      ),
    );
  }

  async find(tokenHash: string): Promise<EditorSession | undefined> {
    const row = await this.db.get<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM editor_sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    return row ? toEditorSession(row) : undefined;
  }

  async touch(tokenHash: string, at: number): Promise<void> {
    await this.db.write((tx) =>
      tx.run('UPDATE editor_sessions SET last_seen_at = $1 WHERE token_hash = $2', [at, tokenHash]),
    );
  }

  async remove(tokenHash: string): Promise<boolean> {
    return (
      (await this.db.write((tx) =>
        tx.run('DELETE FROM editor_sessions WHERE token_hash = $1', [tokenHash]),
      )) > 0
    );
  }

  async purgeExpired(idleBefore: number, madeBefore: number): Promise<number> {
    const where = 'WHERE last_seen_at < $1 OR created_at < $2';
    // Looked at first: a purge with nothing to do writes nothing.
    if (
      !(await this.db.get(`SELECT 1 AS found FROM editor_sessions ${where} LIMIT 1`, [
        idleBefore,
        madeBefore,
      ]))
    ) {
      return 0;
    }
    return this.db.write((tx) =>
      tx.run(`DELETE FROM editor_sessions ${where}`, [idleBefore, madeBefore]),
    );
  }
}

export class PostgresSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly db: Database) {}

  async record(subjects: readonly string[], at: number, forgetBefore: number): Promise<void> {
    await this.db.write(async (tx) => {
      for (const subject of subjects) {
        await tx.run('DELETE FROM sign_in_failures WHERE subject = $1 AND failed_at < $2', [
          subject,
          forgetBefore,
        ]);
        await tx.run('INSERT INTO sign_in_failures (subject, failed_at) VALUES ($1, $2)', [
          subject,
          at,
        ]);
      }
    });
  }

  async since(subject: string, since: number): Promise<number[]> {
    const rows = await this.db.all<{ failed_at: number }>(
      'SELECT failed_at FROM sign_in_failures WHERE subject = $1 AND failed_at >= $2 ORDER BY failed_at',
      [subject, since],
    );
    return rows.map((row) => Number(row.failed_at));
  }

  async clear(subject: string): Promise<void> {
    if (
      !(await this.db.get('SELECT 1 AS found FROM sign_in_failures WHERE subject = $1 LIMIT 1', [
        subject,
      ]))
    ) {
      return;
    }
    await this.db.write((tx) =>
      tx.run('DELETE FROM sign_in_failures WHERE subject = $1', [subject]),
    );
  }

  async purge(before: number): Promise<number> {
    const due = 'FROM sign_in_failures WHERE failed_at < $1';
    if (!(await this.db.get(`SELECT 1 AS found ${due} LIMIT 1`, [before]))) return 0;
    return this.db.write((tx) => tx.run(`DELETE ${due}`, [before]));
  }
}
