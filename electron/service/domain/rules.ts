/**
 * Knowledge rules: batch import, single read, paged list.
 * @module
 */
import { randomUUID } from 'node:crypto';
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
  items.forEach((item, index) => {
    const problem = check(validateRule, item, `rule ${index}`);
    const givenName = (item as { ruleName?: unknown } | null)?.ruleName;
    const ruleName = typeof givenName === 'string' ? givenName : '';
    if (problem) {
      failInfo.push({ index, ruleName, code: problem.code, msg: problem.message });
      return;
    }
    const input = item as RuleInput;
    const key = ruleNameKey(input.ruleName);
    const taken =
      claimed.has(key) ||
      ctx.store.get(
        'SELECT 1 AS found FROM rules WHERE tenant_id = ? AND robot_id = ? AND name_key = ?',
        [tenantId, robotId, key],
      ) !== undefined;
    if (taken) {
      failInfo.push({
        index,
        ruleName,
        code: 'rule-name-taken',
        msg: `A rule named "${key}" already exists in this robot.`,
      });
      return;
    }
    claimed.add(key);
    accepted.push({ input, ruleId: randomUUID() });
  });

  if (accepted.length > 0) {
    const now = ctx.now();
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
