/**
 * Editors' sessions and failed sign-ins as both stores keep them: every statement on
 * `editor_sessions` and `sign_in_failures`, run as written by both (each in its dialect).
 * @module
 */
import type { EditorSession } from '../contract/sessions';
import { spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';

export interface SessionRow {
  [column: string]: string | number;
  tenant_id: number;
  user_id: string;
  created_at: number;
  last_seen_at: number;
}

export function toEditorSession(row: SessionRow): EditorSession {
  return {
    tenantId: Number(row.tenant_id),
    userId: row.user_id,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
  };
}

export const sessionParams = (tokenHash: string, session: EditorSession): Scalar[] => [
  tokenHash,
  session.tenantId,
  session.userId,
  session.createdAt,
  session.lastSeenAt,
];

/** ?1: sessions idle since before it; ?2: sessions made before it. */
const EXPIRED = 'FROM editor_sessions WHERE last_seen_at < ?1 OR created_at < ?2';

/** ?1: failures before it. */
const FORGOTTEN = 'FROM sign_in_failures WHERE failed_at < ?1';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    /** `sessionParams`. */
    insert:
      'INSERT INTO editor_sessions (token_hash, tenant_id, user_id, created_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?5)',
    find: 'SELECT tenant_id, user_id, created_at, last_seen_at FROM editor_sessions WHERE token_hash = ?1',
    touch: 'UPDATE editor_sessions SET last_seen_at = ?2 WHERE token_hash = ?1',
    remove: 'DELETE FROM editor_sessions WHERE token_hash = ?1',
    /** Looked at before a purge: a purge with nothing to do writes nothing. */
    anyExpired: `SELECT 1 AS found ${EXPIRED} LIMIT 1`,
    purgeExpired: `DELETE ${EXPIRED}`,
  });
}

export function failureStatements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    /** ?2: failures of the subject before it are forgotten. */
    forget: 'DELETE FROM sign_in_failures WHERE subject = ?1 AND failed_at < ?2',
    record: 'INSERT INTO sign_in_failures (subject, failed_at) VALUES (?1, ?2)',
    since:
      'SELECT failed_at FROM sign_in_failures WHERE subject = ?1 AND failed_at >= ?2 ORDER BY failed_at',
    any: 'SELECT 1 AS found FROM sign_in_failures WHERE subject = ?1 LIMIT 1',
    clear: 'DELETE FROM sign_in_failures WHERE subject = ?1',
    anyForgotten: `SELECT 1 AS found ${FORGOTTEN} LIMIT 1`,
    purge: `DELETE ${FORGOTTEN}`,
  });
}
