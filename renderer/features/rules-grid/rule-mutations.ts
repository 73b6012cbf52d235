/**
 * Writes of the rule grid through the console API, and how each is undone: an edit by writing
 * the previous values back, a creation by deleting, a delete by `rules/restore` (same ids, same
 * place in creation order).
 * @module
 */
import type { ConsoleRule, RulePatch } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { ApiError } from '../../api/api-error';
import type { EditableRule } from '../../lib/rules/grid-row';
import { runLimited } from '../../lib/run-limited';
import { LIMITS } from '../../../electron/service/limits';

export interface RuleChange {
  ruleId: string;
  before: RulePatch;
  after: RulePatch;
}

export type UndoEntry =
  | { kind: 'patch'; changes: RuleChange[] }
  | { kind: 'create'; rules: ConsoleRule[] }
  | { kind: 'delete'; rules: ConsoleRule[] }
  | { kind: 'batch'; entries: UndoEntry[] };

export async function applyEntry(
  client: ConsoleClient,
  ref: RobotRef,
  entry: UndoEntry,
  direction: 'undo' | 'redo',
): Promise<void> {
  switch (entry.kind) {
    case 'patch':
      await runLimited(entry.changes, 4, (change) =>
        client.patchRule(ref, change.ruleId, direction === 'undo' ? change.before : change.after),
      );
      return;
    case 'create':
      if (direction === 'undo') {
        await client.deleteRules(
          ref,
          entry.rules.map((rule) => rule.ruleId),
        );
      } else {
        await client.restoreRules(
          ref,
          entry.rules.map((rule) => rule.ruleId),
        );
      }
      return;
    case 'delete':
      if (direction === 'undo') {
        await client.restoreRules(
          ref,
          entry.rules.map((rule) => rule.ruleId),
        );
      } else {
        await client.deleteRules(
          ref,
          entry.rules.map((rule) => rule.ruleId),
        );
      }
      return;
    case 'batch': {
      const entries = direction === 'undo' ? [...entry.entries].reverse() : entry.entries;
      for (const inner of entries) await applyEntry(client, ref, inner, direction);
      return;
    }
  }
}

function truncate(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/**
 * Creates a copy of `rule` under the first free name among `name (copy)`, `name (copy 2)`, …
 * (`suffix(n)` spells the suffix in the user's language).
 */
export async function createCopy(
  client: ConsoleClient,
  ref: RobotRef,
  rule: EditableRule,
  suffix: (n: number) => string,
): Promise<ConsoleRule> {
  for (let n = 1; n <= 50; n += 1) {
    const end = suffix(n);
    const ruleName = truncate(rule.ruleName, LIMITS.ruleNameMax - Array.from(end).length) + end;
    try {
      return await client.createRule(ref, { ...rule, ruleName });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'rule-name-taken')) throw error;
    }
  }
  throw new Error(`No free name for a copy of ${rule.ruleName}`);
}
