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

/** The key under which rule names are unique within a robot. */
export function ruleNameKey(ruleName: string): string {
  return ruleName.trim();
}

const INSERT_RULE = `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, answer_content_type, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

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
    ctx.store.write((tx) => {
      for (const { input, ruleId } of accepted) {
        tx.run(INSERT_RULE, [
          ruleId,
          tenantId,
          robotId,
          input.ruleName,
          ruleNameKey(input.ruleName),
          JSON.stringify(input.questions),
          input.answer,
          'TEXT',
          now,
          now,
        ]);
      }
    });
    for (const { input, ruleId } of accepted) {
      robot.index.upsert({
        ruleId,
        ruleName: input.ruleName,
        questions: input.questions,
        active: true,
        effectBeginMs: null,
        effectEndMs: null,
      });
    }
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

/** Which of `keys` are already rule names in the robot: one query per 500 names. */
function existingNameKeys(
  ctx: DomainContext,
  robot: RobotEntry,
  keys: readonly string[],
): Set<string> {
  const taken = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = ctx.store.all<{ name_key: string }>(
      `SELECT name_key FROM rules WHERE tenant_id = ? AND robot_id = ? AND name_key IN (${chunk.map(() => '?').join(', ')})`,
      [robot.tenantId, robot.robotId, ...chunk],
    );
    for (const row of rows) taken.add(row.name_key);
  }
  return taken;
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

export function listRules(
  ctx: DomainContext,
  robot: RobotEntry,
  page: number,
  pageSize: number,
): RuleList {
  const where = [robot.tenantId, robot.robotId];
  const count = ctx.store.get<{ total: number }>(
    'SELECT COUNT(*) AS total FROM rules WHERE tenant_id = ? AND robot_id = ?',
    where,
  );
  const rows = ctx.store.all<FullRuleRow>(
    `SELECT ${RULE_COLUMNS} FROM rules WHERE tenant_id = ? AND robot_id = ? ORDER BY rule_seq LIMIT ? OFFSET ?`,
    [...where, pageSize, page * pageSize],
  );
  return { list: rows.map(ruleRowToListItem), totalCount: Number(count?.total ?? 0) };
}
