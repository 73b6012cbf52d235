/**
 * Knowledge rules: batch import, single read, paged list.
 * @module
 */
import type { ValidateFunction } from 'ajv';
import type {
  BatchFailure,
  BatchImportResult,
  RuleDetail,
  RuleInput,
  RuleList,
  RuleListItem,
} from '../api-types';
import { ServiceError } from '../errors';
import { check } from '../validation/ajv';
import type { DomainContext } from './context';
import { timeOrderedUuid } from './ids';
import { RULE_COLUMNS, ruleRowToDetail, ruleRowToListItem } from './rule-rows';
import type { FullRuleRow } from './rule-rows';
import type { RobotEntry } from './robot-registry';
import { RuleOrder } from './rule-order';

/** The key under which rule names are unique within a robot. */
export function ruleNameKey(ruleName: string): string {
  return ruleName.trim();
}

/**
 * Inserts a whole batch in one statement: ?5 is a JSON array of `[ruleId, ruleName, nameKey,
 * questionsJson, answer]`, unpacked by SQLite itself. One bound parameter instead of ten per rule
 * (each a copy into the WebAssembly heap), one journal operation per batch, and a deterministic
 * replay: rule_seq is given (?1 + position), not left to SQLite.
 */
const INSERT_RULES = `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, answer_content_type, created_at, updated_at)
SELECT ?1 + key, value ->> 0, ?2, ?3, value ->> 1, value ->> 2, value ->> 3, value ->> 4, 'TEXT', ?4, ?4
FROM json_each(CAST(?5 AS TEXT))`;

/** Which names of the JSON array ?3 are taken in the robot (one index lookup each). */
const TAKEN_NAMES = `SELECT j.value AS name_key FROM json_each(CAST(?3 AS TEXT)) AS j
WHERE EXISTS (SELECT 1 FROM rules AS r WHERE r.tenant_id = ?1 AND r.robot_id = ?2 AND r.name_key = j.value)`;

/**
 * Imports a batch: each rule is checked on its own; the valid ones are written in one
 * transaction (one journal record, one fsync) and the others reported in `failInfo`.
 */
export function importRules(
  ctx: DomainContext,
  robot: RobotEntry,
  items: readonly unknown[],
  validateRule: ValidateFunction,
): BatchImportResult {
  const { tenantId, robotId } = robot;
  const failInfo: BatchFailure[] = [];
  const accepted: { input: RuleInput; ruleId: string }[] = [];
  const claimed = new Set<string>();
  const valid: { index: number; input: RuleInput }[] = [];
  items.forEach((item, index) => {
    const problem = check(validateRule, item, `rule ${index}`);
    if (problem) {
      failInfo.push({ index, ruleName: nameOf(item), code: problem.code, msg: problem.message });
    } else {
      valid.push({ index, input: item as RuleInput });
    }
  });
  const taken = existingNameKeys(
    ctx,
    robot,
    valid.map(({ input }) => ruleNameKey(input.ruleName)),
  );
  const now = ctx.now();
  for (const { index, input } of valid) {
    const key = ruleNameKey(input.ruleName);
    if (taken.has(key) || claimed.has(key)) {
      failInfo.push({
        index,
        ruleName: input.ruleName,
        code: 'rule-name-taken',
        msg: `A rule named "${key}" already exists in this robot.`,
      });
      continue;
    }
    claimed.add(key);
    accepted.push({ input, ruleId: timeOrderedUuid(now) });
  }
  failInfo.sort((a, b) => a.index - b.index);

  if (accepted.length > 0) {
    const rows = JSON.stringify(
      accepted.map(({ input, ruleId }) => [
        ruleId,
        input.ruleName,
        ruleNameKey(input.ruleName),
        JSON.stringify(input.questions),
        input.answer,
      ]),
    );
    const firstSeq = ctx.store.write((tx) => {
      const first =
        Number(tx.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0) + 1;
      const inserted = tx.run(INSERT_RULES, [first, tenantId, robotId, now, { utf8: rows }]);
      if (inserted !== accepted.length)
        throw new Error(`inserted ${inserted} of ${accepted.length} rules`);
      return first;
    });
    ctx.robots.ruleOrder(robot)?.appendRun(firstSeq, accepted.length);
    ctx.robots.upsertRules(
      robot,
      accepted.map(({ input, ruleId }) => ({
        ruleId,
        ruleName: input.ruleName,
        questions: input.questions,
        active: true,
        effectBeginMs: null,
        effectEndMs: null,
      })),
    );
  }

  const succeed: RuleListItem[] = accepted.map(({ input, ruleId }) => ({
    ruleId,
    ruleName: input.ruleName,
    ruleCategoryId: '',
    active: null,
    questions: input.questions,
    answer: input.answer,
    answerContentType: 'TEXT',
  }));
  return { failInfo, succeed };
}

function nameOf(item: unknown): string {
  const name = (item as { ruleName?: unknown } | null)?.ruleName;
  return typeof name === 'string' ? name : '';
}

/** Which of `keys` are already rule names in the robot. */
function existingNameKeys(
  ctx: DomainContext,
  robot: RobotEntry,
  keys: readonly string[],
): Set<string> {
  if (keys.length === 0) return new Set();
  const rows = ctx.store.all<{ name_key: string }>(TAKEN_NAMES, [
    robot.tenantId,
    robot.robotId,
    { utf8: JSON.stringify(keys) },
  ]);
  return new Set(rows.map((row) => row.name_key));
}

export function findRule(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleId: string,
): FullRuleRow | undefined {
  return ctx.store.get<FullRuleRow>(
    `SELECT ${RULE_COLUMNS} FROM rules WHERE rule_id = ? AND tenant_id = ? AND robot_id = ?`,
    [ruleId, robot.tenantId, robot.robotId],
  );
}

export function getRule(ctx: DomainContext, robot: RobotEntry, ruleId: string): RuleDetail {
  const row = findRule(ctx, robot, ruleId);
  if (!row)
    throw new ServiceError(
      'rule-not-found',
      `Rule ${ruleId} does not exist in robot ${robot.robotId}.`,
    );
  return ruleRowToDetail(row);
}

/** The robot's rule order, built from the database on first use. */
export function ruleOrderOf(ctx: DomainContext, robot: RobotEntry): RuleOrder {
  const known = ctx.robots.ruleOrder(robot);
  if (known) return known;
  const row = ctx.store.get<{ seqs: string | null }>(
    'SELECT group_concat(rule_seq) AS seqs FROM (SELECT rule_seq FROM rules WHERE tenant_id = ? AND robot_id = ? ORDER BY rule_seq)',
    [robot.tenantId, robot.robotId],
  );
  const seqs = row?.seqs ? row.seqs.split(',').map(Number) : [];
  for (let i = 1; i < seqs.length; i++) {
    if ((seqs[i] as number) <= (seqs[i - 1] as number)) {
      seqs.sort((a, b) => a - b);
      break;
    }
  }
  const order = new RuleOrder(seqs);
  ctx.robots.setRuleOrder(robot, order);
  return order;
}

interface ListedRuleRow extends FullRuleRow {
  rule_seq: number;
}

/**
 * A page of the robot's rules in creation order: the rule order in memory names the page's
 * first rule_seq, and the page is read from there along the (tenant, robot, rule_seq) index, so
 * the last page costs what the first does. The rows read must be exactly the ones the order
 * names; if they are not (a write that forgot to keep the order in step), the order is rebuilt
 * from the database and the page read again.
 */
export function listRules(
  ctx: DomainContext,
  robot: RobotEntry,
  page: number,
  pageSize: number,
): RuleList {
  let order = ruleOrderOf(ctx, robot);
  let rows = readPage(ctx, robot, order, page, pageSize);
  if (rows === null) {
    ctx.logger.error(
      `the rule order of robot ${robot.tenantId}/${robot.robotId} was stale; rebuilt`,
    );
    ctx.robots.setRuleOrder(robot, undefined);
    order = ruleOrderOf(ctx, robot);
    rows = readPage(ctx, robot, order, page, pageSize) ?? [];
  }
  return { list: rows.map(ruleRowToListItem), totalCount: order.size };
}

/** The rows of one page, or null when they are not the ones `order` names. */
function readPage(
  ctx: DomainContext,
  robot: RobotEntry,
  order: RuleOrder,
  page: number,
  pageSize: number,
): ListedRuleRow[] | null {
  const start = page * pageSize;
  if (start >= order.size) return [];
  const seqs = order.slice(start, pageSize);
  const rows = ctx.store.all<ListedRuleRow>(
    `SELECT rule_seq, ${RULE_COLUMNS} FROM rules WHERE tenant_id = ? AND robot_id = ? AND rule_seq >= ? ORDER BY rule_seq LIMIT ?`,
    [robot.tenantId, robot.robotId, seqs[0] as number, seqs.length],
  );
  if (rows.length !== seqs.length) return null;
  for (let i = 0; i < rows.length; i++) if (rows[i]?.rule_seq !== seqs[i]) return null;
  return rows;
}
