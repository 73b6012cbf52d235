/**
 * The tables that make several nodes of a team server one service (never in the embedded store):
 * the change feed, filled by triggers on every table whose state a node keeps in memory, and the
 * signatures already used by any node. They are server migrations (store/postgres/server-migrations.ts:
 * recorded in `_server_migrations`, append only, checked by hash); their SQL is kept here, beside
 * the code that reads it (docs/team-server.md, "Several nodes").
 * @module
 */

/** The channel every change is announced on (at commit: NOTIFY is transactional). */
export const CHANGES_CHANNEL = 'kb_changes';

/**
 * One row per statement and robot: what changed, not how (a follower reads the current state).
 * `xid` is the writing transaction's: a follower tells by it which changes may still commit.
 */
export const CHANGE_FEED_SQL = `
CREATE TABLE changes (
  change_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  xid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  at        BIGINT NOT NULL DEFAULT floor(extract(epoch FROM clock_timestamp()) * 1000),
  kind      TEXT NOT NULL,
  tenant_id BIGINT,
  robot_id  TEXT,
  rule_ids  TEXT[]
);
CREATE INDEX changes_by_xid ON changes (xid);
CREATE INDEX changes_by_at ON changes (at);

-- Rules: one change per statement and robot, with the ids of the rules it touched.
CREATE FUNCTION feed_rules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO changes (kind, tenant_id, robot_id, rule_ids)
    SELECT 'rules', tenant_id, robot_id, array_agg(rule_id) FROM new_rows GROUP BY tenant_id, robot_id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO changes (kind, tenant_id, robot_id, rule_ids)
    SELECT 'rules', tenant_id, robot_id, array_agg(rule_id) FROM old_rows GROUP BY tenant_id, robot_id;
  ELSE
    INSERT INTO changes (kind, tenant_id, robot_id, rule_ids)
    SELECT 'rules', tenant_id, robot_id, array_agg(rule_id)
    FROM (SELECT tenant_id, robot_id, rule_id FROM new_rows
          UNION SELECT tenant_id, robot_id, rule_id FROM old_rows) AS touched
    GROUP BY tenant_id, robot_id;
  END IF;
  IF FOUND THEN PERFORM pg_notify('${CHANGES_CHANNEL}', ''); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER feed_rules_insert AFTER INSERT ON rules
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION feed_rules();
CREATE TRIGGER feed_rules_update AFTER UPDATE ON rules
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION feed_rules();
CREATE TRIGGER feed_rules_delete AFTER DELETE ON rules
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION feed_rules();

-- Robots (secret, settings, deletion), tenants (deletion), versions (publish, rollback),
-- categories and administrators: one change per row, naming its tenant (and robot).
CREATE FUNCTION feed_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_data jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  INSERT INTO changes (kind, tenant_id, robot_id)
  VALUES (TG_ARGV[0], (row_data->>'tenant_id')::bigint, row_data->>'robot_id');
  PERFORM pg_notify('${CHANGES_CHANNEL}', '');
  RETURN NULL;
END $$;
CREATE TRIGGER feed_robots AFTER INSERT OR UPDATE OR DELETE ON robots
  FOR EACH ROW EXECUTE FUNCTION feed_row('robot');
CREATE TRIGGER feed_tenants AFTER INSERT OR UPDATE OR DELETE ON tenants
  FOR EACH ROW EXECUTE FUNCTION feed_row('tenant');
CREATE TRIGGER feed_versions AFTER INSERT OR UPDATE OR DELETE ON versions
  FOR EACH ROW EXECUTE FUNCTION feed_row('version');
CREATE TRIGGER feed_categories AFTER INSERT OR UPDATE OR DELETE ON categories
  FOR EACH ROW EXECUTE FUNCTION feed_row('category');
CREATE TRIGGER feed_users AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION feed_row('user');
`;

/** A signature used by any node, kept until its timestamp leaves the window (replay refusal). */
export const USED_SIGNATURES_SQL = `
CREATE TABLE used_signatures (
  signature  TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
CREATE INDEX used_signatures_by_expiry ON used_signatures (expires_at);
`;
