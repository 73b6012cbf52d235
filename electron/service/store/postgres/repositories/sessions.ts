/**
 * The team server's editor sessions (statements: sql/sessions.ts). Every node reads them from the
 * database: a session made on one node is known to the others, and one ended (signed out, or by
 * the triggers of migration 0008: a password or role changed, a user or tenant deleted) is ended
 * on all. The contract (store/contract/sessions.ts) states what each method returns.
 * @module
 */
import type { EditorSession, SessionRepository } from '../../contract/sessions';
import { postgres } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Database } from '../database';

const SESSIONS = sessions.statements(postgres);

export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: Database) {}

  async insert(tokenHash: string, session: EditorSession) {
    await this.db.write((tx) =>
      tx.run(SESSIONS.insert, sessions.sessionParams(tokenHash, session)),
    );
  }

  async find(tokenHash: string) {
    const row = await this.db.get<sessions.SessionRow>(SESSIONS.find, [tokenHash]);
    return row && sessions.toEditorSession(row);
  }

  async ofUser(tenantId: number, userId: string) {
    const rows = await this.db.all<sessions.ListedSessionRow>(SESSIONS.ofUser, [tenantId, userId]);
    return rows.map(sessions.toListedSession);
  }

  async touch(tokenHash: string, at: number) {
    await this.db.write((tx) => tx.run(SESSIONS.touch, [tokenHash, at]));
  }

  async remove(tokenHash: string) {
    return (await this.db.write((tx) => tx.run(SESSIONS.remove, [tokenHash]))) > 0;
  }

  async removeOfUser(tenantId: number, userId: string) {
    return this.db.write((tx) => tx.run(SESSIONS.removeOfUser, [tenantId, userId]));
  }

  async purgeExpired(idleBefore: number, madeBefore: number) {
    const expired = [idleBefore, madeBefore];
    // Looked at first: a purge with nothing to do writes nothing.
    if (!(await this.db.get(SESSIONS.anyExpired, expired))) return 0;
    return this.db.write((tx) => tx.run(SESSIONS.purgeExpired, expired));
  }
}
