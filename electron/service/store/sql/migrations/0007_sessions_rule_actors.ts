import type { Migration } from './runner';

/**
 * Editors signing in on a team server (sign-in/): their sessions, kept by the hash of their
 * token only, and the failed sign-ins that slow down password guessing; both in the database so
 * that every node of a team server sees them. And who last changed each rule (`updated_by`: a
 * signed-in administrator's username, `editor` for the desktop editor, `api` for the openapi),
 * kept in the trash and in published revisions; '' for rules written before this migration.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'sessions_rule_actors',
  sql: `
CREATE TABLE editor_sessions (
  token_hash   TEXT PRIMARY KEY,
  tenant_id    INTEGER NOT NULL,
  user_id      TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE sign_in_failures (
  subject   TEXT NOT NULL,
  failed_at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_by_subject ON sign_in_failures (subject, failed_at);

ALTER TABLE rules ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';
ALTER TABLE deleted_rules ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';
ALTER TABLE rule_revisions ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';
`,
};
