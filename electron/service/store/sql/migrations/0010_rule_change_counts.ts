import type { Migration } from './runner';

/** The columns of a rule its robot's matching index is built from (`MATCHABLE_COLUMNS`), written out. */
const INDEXED_COLUMNS =
  'tenant_id, robot_id, rule_id, rule_name, questions, active, effect_begin, effect_end, match_policy, negative_keywords';

/** Every robot has its row (made with the robot): a plain update, the cheapest per rule. */
const BUMP = (row: 'NEW' | 'OLD') =>
  `UPDATE rule_change_counts SET changes = changes + 1 WHERE tenant_id = ${row}.tenant_id AND robot_id = ${row}.robot_id;`;

/**
 * A per-robot change counter (decision 119; docs/storage.md "Saved indexes per robot"): every
 * write to a robot's rules bumps its count in the write's own transaction (triggers, so that no
 * write path can forget it, and the journal's replay counts the same). A node's saved index file
 * records the count its index was read at, and at a start is used only if the count is still
 * that: a team node keeps the files of robots no other node wrote to while it was stopped. A row
 * outlives its robot (a purged robot made again counts on from there), so a count never repeats.
 * On PostgreSQL, once per statement (an import batch is one, transition tables), as a row of
 * its own in `rule_change_marks` (the count is the sum of a robot's weights): a counter row would
 * be locked by a write until its commit, so that another node's write to the robot waited for it.
 * Reading the count folds a robot's many rows into one of their summed weight (the count
 * unchanged), so the table and the read stay small however many writes a robot had.
 */
export const migration0010: Migration = {
  version: 10,
  name: 'rule_change_counts',
  sql: `
CREATE TABLE rule_change_counts (
  tenant_id INTEGER NOT NULL,
  robot_id  TEXT NOT NULL,
  changes   INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, robot_id)
) WITHOUT ROWID;

INSERT INTO rule_change_counts (tenant_id, robot_id, changes) SELECT tenant_id, robot_id, 0 FROM robots;
UPDATE rule_change_counts SET changes = 1
  WHERE EXISTS (SELECT 1 FROM rules AS r WHERE r.tenant_id = rule_change_counts.tenant_id AND r.robot_id = rule_change_counts.robot_id);

CREATE TRIGGER robots_count_insert AFTER INSERT ON robots BEGIN
  INSERT OR IGNORE INTO rule_change_counts (tenant_id, robot_id, changes) VALUES (NEW.tenant_id, NEW.robot_id, 0);
END;
CREATE TRIGGER rules_count_insert AFTER INSERT ON rules BEGIN ${BUMP('NEW')} END;
CREATE TRIGGER rules_count_update AFTER UPDATE OF ${INDEXED_COLUMNS} ON rules BEGIN
  UPDATE rule_change_counts SET changes = changes + 1
    WHERE (tenant_id = NEW.tenant_id AND robot_id = NEW.robot_id) OR (tenant_id = OLD.tenant_id AND robot_id = OLD.robot_id);
END;
CREATE TRIGGER rules_count_delete AFTER DELETE ON rules BEGIN ${BUMP('OLD')} END;
`,
  postgres: `
CREATE TABLE rule_change_marks (
  tenant_id BIGINT NOT NULL,
  robot_id  TEXT NOT NULL,
  mark      BIGSERIAL,
  weight    BIGINT NOT NULL DEFAULT 1,
  PRIMARY KEY (tenant_id, robot_id, mark)
);

INSERT INTO rule_change_marks (tenant_id, robot_id) SELECT DISTINCT tenant_id, robot_id FROM rules;

CREATE FUNCTION rules_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rule_change_marks (tenant_id, robot_id) SELECT DISTINCT tenant_id, robot_id FROM counted_rules;
  RETURN NULL;
END
$$;

CREATE FUNCTION rules_count_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rule_change_marks (tenant_id, robot_id)
    SELECT tenant_id, robot_id FROM counted_rules UNION SELECT tenant_id, robot_id FROM old_rules;
  RETURN NULL;
END
$$;

CREATE TRIGGER rules_count_insert AFTER INSERT ON rules
  REFERENCING NEW TABLE AS counted_rules FOR EACH STATEMENT EXECUTE FUNCTION rules_count();
CREATE TRIGGER rules_count_update AFTER UPDATE ON rules
  REFERENCING OLD TABLE AS old_rules NEW TABLE AS counted_rules
  FOR EACH STATEMENT EXECUTE FUNCTION rules_count_moved();
CREATE TRIGGER rules_count_delete AFTER DELETE ON rules
  REFERENCING OLD TABLE AS counted_rules FOR EACH STATEMENT EXECUTE FUNCTION rules_count();
`,
};
