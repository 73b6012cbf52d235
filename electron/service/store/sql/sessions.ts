/**
 * Editors' sessions and sign-in attempts as both stores keep them: every statement on
 * `editor_sessions`, `sign_in_failures` and `sign_in_known_clients`, run as written by both
 * (each in its dialect).
 * @module
 */
import type { EditorSession, ListedSession } from '../contract/sessions';
import { spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';

export interface SessionRow {
  [column: string]: string | number;
  tenant_id: number;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  address: string;
  user_agent: string;
}

export type ListedSessionRow = SessionRow & { token_hash: string };

export function toEditorSession(row: SessionRow): EditorSession {
  return {
    tenantId: Number(row.tenant_id),
    userId: row.user_id,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    address: row.address,
    userAgent: row.user_agent,
  };
}

export const toListedSession = (row: ListedSessionRow): ListedSession => ({
  ...toEditorSession(row),
  tokenHash: row.token_hash,
});

export const sessionParams = (tokenHash: string, session: EditorSession): Scalar[] => [
  tokenHash,
  session.tenantId,
  session.userId,
  session.createdAt,
  session.lastSeenAt,
  session.address,
  session.userAgent,
];

const SESSION_COLUMNS = 'tenant_id, user_id, created_at, last_seen_at, address, user_agent';

/** ?1: sessions idle since before it; ?2: sessions made before it. */
const EXPIRED = 'FROM editor_sessions WHERE last_seen_at < ?1 OR created_at < ?2';

/** ?1: failures before it. */
const FORGOTTEN = 'FROM sign_in_failures WHERE failed_at < ?1';

/** ?1: clients last seen before it. */
const FORGOTTEN_CLIENTS = 'FROM sign_in_known_clients WHERE last_at < ?1';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    /** `sessionParams`. */
    insert: `INSERT INTO editor_sessions (token_hash, ${SESSION_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    find: `SELECT ${SESSION_COLUMNS} FROM editor_sessions WHERE token_hash = ?1`,
    /** ?1: the tenant, ?2: the user; the newest first. */
    ofUser: `SELECT token_hash, ${SESSION_COLUMNS} FROM editor_sessions
      WHERE tenant_id = ?1 AND user_id = ?2 ORDER BY created_at DESC, token_hash`,
    touch: 'UPDATE editor_sessions SET last_seen_at = ?2 WHERE token_hash = ?1',
    remove: 'DELETE FROM editor_sessions WHERE token_hash = ?1',
    removeOfUser: 'DELETE FROM editor_sessions WHERE tenant_id = ?1 AND user_id = ?2',
    /** Looked at before a purge: a purge with nothing to do writes nothing. */
    anyExpired: `SELECT 1 AS found ${EXPIRED} LIMIT 1`,
    purgeExpired: `DELETE ${EXPIRED}`,
  });
}

export function failureStatements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    /** ?1: the subject, ?2: when, ?3: the attempt it belongs to. */
    record: 'INSERT INTO sign_in_failures (subject, failed_at, attempt) VALUES (?1, ?2, ?3)',
    since:
      'SELECT failed_at FROM sign_in_failures WHERE subject = ?1 AND failed_at >= ?2 ORDER BY failed_at',
    /** ?1: the attempt, ?2: one of its subjects. */
    release: 'DELETE FROM sign_in_failures WHERE attempt = ?1 AND subject = ?2',
    any: 'SELECT 1 AS found FROM sign_in_failures WHERE subject = ?1 LIMIT 1',
    clear: 'DELETE FROM sign_in_failures WHERE subject = ?1',
    anyForgotten: `SELECT 1 AS found ${FORGOTTEN} LIMIT 1`,
    purge: `DELETE ${FORGOTTEN}`,
    /** ?1: the account, ?2: the address, ?3: seen since. */
    known:
      'SELECT 1 AS found FROM sign_in_known_clients WHERE account = ?1 AND address = ?2 AND last_at >= ?3',
    /** ?1: the account, ?2: the address, ?3: when. */
    remember: `INSERT INTO sign_in_known_clients (account, address, last_at) VALUES (?1, ?2, ?3)
      ON CONFLICT (account, address) DO UPDATE SET last_at = excluded.last_at`,
    anyClientForgotten: `SELECT 1 AS found ${FORGOTTEN_CLIENTS} LIMIT 1`,
    purgeClients: `DELETE ${FORGOTTEN_CLIENTS}`,
  });
}
