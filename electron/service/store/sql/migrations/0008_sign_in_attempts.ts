import type { Migration } from './runner';

/** The tables and columns, in the portable subset both databases read. */
const TABLES = `
ALTER TABLE sign_in_failures ADD COLUMN attempt TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_by_attempt ON sign_in_failures (attempt);

CREATE TABLE sign_in_known_clients (
  account TEXT NOT NULL,
  address TEXT NOT NULL,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (account, address)
) WITHOUT ROWID;
CREATE INDEX sign_in_known_clients_by_time ON sign_in_known_clients (last_at);

ALTER TABLE editor_sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE editor_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
CREATE INDEX editor_sessions_by_user ON editor_sessions (tenant_id, user_id);
`;

const END_USER_SESSIONS = (row: 'OLD' | 'NEW') =>
  `DELETE FROM editor_sessions WHERE tenant_id = ${row}.tenant_id AND user_id = ${row}.user_id;`;

/**
 * Signing in as the OWASP guidance has it (sign-in/, docs/api.md "Signing in"). A sign-in
 * reserves its attempt before any password is hashed: one row per subject it counts against (the
 * client address, the account, the pair), tagged with the attempt so that a success takes its
 * rows back (`attempt`; '' for the failures written before this migration). The addresses an
 * account signed in from are remembered (`sign_in_known_clients`): the per-account limit does not
 * refuse them. Sessions keep the address and browser they were opened from, for their list.
 * Triggers end a user's sessions when their password or role changes, when they are deleted, and
 * every session of a tenant when it is deleted: whatever path changes them (openapi, console),
 * on every node of a team server, in the same transaction.
 */
export const migration0008: Migration = {
  version: 8,
  name: 'sign_in_attempts',
  sql: `${TABLES}
CREATE TRIGGER users_end_sessions_on_change AFTER UPDATE OF password_hash, role ON users
  WHEN OLD.password_hash IS NOT NEW.password_hash OR OLD.role IS NOT NEW.role
  BEGIN ${END_USER_SESSIONS('OLD')} END;
CREATE TRIGGER users_end_sessions_on_delete AFTER DELETE ON users
  BEGIN ${END_USER_SESSIONS('OLD')} END;
CREATE TRIGGER tenants_end_sessions_on_delete AFTER UPDATE OF deleted_at ON tenants
  WHEN NEW.deleted_at IS NOT NULL
  BEGIN DELETE FROM editor_sessions WHERE tenant_id = NEW.tenant_id; END;
`,
  postgres: `${TABLES.replace(/\bINTEGER\b/g, 'BIGINT').replace(/\)\s*WITHOUT ROWID/g, ')')}
CREATE FUNCTION end_user_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${END_USER_SESSIONS('OLD')}
  RETURN NULL;
END
$$;
CREATE FUNCTION end_tenant_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM editor_sessions WHERE tenant_id = NEW.tenant_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_end_sessions_on_change AFTER UPDATE OF password_hash, role ON users
  FOR EACH ROW
  WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR OLD.role IS DISTINCT FROM NEW.role)
  EXECUTE FUNCTION end_user_sessions();
CREATE TRIGGER users_end_sessions_on_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION end_user_sessions();
CREATE TRIGGER tenants_end_sessions_on_delete AFTER UPDATE OF deleted_at ON tenants
  FOR EACH ROW WHEN (NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION end_tenant_sessions();
`,
};
