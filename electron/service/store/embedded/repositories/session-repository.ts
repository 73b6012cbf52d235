/**
 * The embedded store's editor sessions (statements: sql/sessions.ts). The contract
 * (store/contract/sessions.ts) states what each method returns.
 * @module
 */
import type { EditorSession, SessionRepository } from '../../contract/sessions';
import { sqlite } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Store } from '../database';

const SESSIONS = sessions.statements(sqlite);

export class SqlJsSessionRepository implements SessionRepository {
  constructor(private readonly store: Store) {}

  async insert(tokenHash: string, session: EditorSession) {
    this.store.write((tx) => tx.run(SESSIONS.insert, sessions.sessionParams(tokenHash, session)));
  }

  async find(tokenHash: string) {
    const row = this.store.get<sessions.SessionRow>(SESSIONS.find, [tokenHash]);
    return row && sessions.toEditorSession(row);
  }

  async ofUser(tenantId: number, userId: string) {
    const rows = this.store.all<sessions.ListedSessionRow>(SESSIONS.ofUser, [tenantId, userId]);
    return rows.map(sessions.toListedSession);
  }

  async touch(tokenHash: string, at: number) {
    this.store.write((tx) => tx.run(SESSIONS.touch, [tokenHash, at]));
  }

  async remove(tokenHash: string) {
    return this.store.write((tx) => tx.run(SESSIONS.remove, [tokenHash])) > 0;
  }

  async removeOfUser(tenantId: number, userId: string) {
    return this.store.write((tx) => tx.run(SESSIONS.removeOfUser, [tenantId, userId]));
  }

  async purgeExpired(idleBefore: number, madeBefore: number) {
    const expired = [idleBefore, madeBefore];
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    if (!this.store.get(SESSIONS.anyExpired, expired)) return 0;
    return this.store.write((tx) => tx.run(SESSIONS.purgeExpired, expired));
  }
}
