/**
 * Editing state of the rule grid: drafts (new rows not saved yet), edits held back because they
 * are invalid, and every write with its undo entry.
 * @module
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ConsoleRule } from '../../../electron/service/console-types';
import { ApiError } from '../../api/api-error';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { diffRule, editableOf, EDITABLE_FIELDS, EMPTY_RULE, pickFields } from './grid-row';
import type { EditableRule, EditableRow, GridRow, RowError, RuleField } from './grid-row';
import { isValidRule } from './rule-checks';
import { applyEntry, createCopy, runLimited } from './rule-mutations';
import type { RuleChange, UndoEntry } from './rule-mutations';
import type { RulePages } from './useRulePages';
import { useUndoRedo } from './useUndoRedo';
import { LIMITS } from '../../../electron/service/limits';
import { samePhrasing } from './phrasing';

type Draft = Extract<GridRow, { kind: 'draft' }>;

/** What adding a phrasing from the try pane did: added, or why not. */
export interface PhrasingOutcome {
  kind: 'added' | 'present' | 'full';
  rule: ConsoleRule;
}
interface Pending {
  rule: EditableRule;
  error?: RowError;
}

function fieldOfError(error: unknown): RuleField | null {
  if (!(error instanceof ApiError)) return null;
  const base = error.field?.replace(/\[.*$/, '');
  return EDITABLE_FIELDS.find((field) => field === base) ?? null;
}

export function useRuleEditing(
  client: ConsoleClient,
  ref: RobotRef,
  pages: RulePages,
  onChanged: () => void,
) {
  const { t } = useI18n();
  const toasts = useToasts();
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [pending, setPending] = useState<ReadonlyMap<string, Pending>>(new Map());
  const draftSeq = useRef(1);

  const { refresh, replaceRule } = pages;
  const afterWrite = useCallback(() => {
    refresh();
    onChanged();
  }, [refresh, onChanged]);

  const { push, undo, redo, clear, canUndo, canRedo } = useUndoRedo<UndoEntry>(
    async (entry, direction) => {
      try {
        await applyEntry(client, ref, entry, direction);
      } catch (error) {
        toasts.show(
          t(direction === 'undo' ? 'rules.undoFailed' : 'rules.redoFailed', {
            reason: describeError(t, error),
          }),
          { tone: 'error' },
        );
        throw error;
      } finally {
        afterWrite();
      }
    },
  );

  const setPendingFor = useCallback((key: string, value: Pending | null) => {
    setPending((current) => {
      const next = new Map(current);
      if (value) next.set(key, value);
      else next.delete(key);
      return next;
    });
  }, []);

  const updateDraft = useCallback((key: string, change: Partial<Draft>) => {
    setDrafts((list) => list.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
  }, []);

  /** Sends an edit of a saved rule; resolves with its change, or null (invalid, failed, none). */
  const saveRule = useCallback(
    async (saved: ConsoleRule, next: EditableRule): Promise<RuleChange | null> => {
      const key = saved.ruleId;
      if (!isValidRule(next)) {
        setPendingFor(key, { rule: next });
        return null;
      }
      const base = editableOf(saved);
      const patch = diffRule(base, next);
      if (Object.keys(patch).length === 0) {
        setPendingFor(key, null);
        return null;
      }
      setPendingFor(key, { rule: next });
      try {
        const updated = await client.patchRule(ref, key, patch);
        replaceRule(updated);
        setPendingFor(key, null);
        return { ruleId: key, before: pickFields(base, patch), after: patch };
      } catch (error) {
        setPendingFor(key, {
          rule: next,
          error: { field: fieldOfError(error), problem: problemOfError(error) },
        });
        return null;
      }
    },
    [client, ref, replaceRule, setPendingFor],
  );

  /** Saves a draft once it is valid; resolves with the created rule. */
  const saveDraft = useCallback(
    async (draft: Draft, next: EditableRule): Promise<ConsoleRule | null> => {
      if (!isValidRule(next)) {
        updateDraft(draft.key, { rule: next, saving: false, touched: true, error: undefined });
        return null;
      }
      updateDraft(draft.key, { rule: next, saving: true, touched: true, error: undefined });
      try {
        const created = await client.createRule(ref, next);
        setDrafts((list) => list.filter((item) => item.key !== draft.key));
        return created;
      } catch (error) {
        updateDraft(draft.key, {
          rule: next,
          saving: false,
          error: { field: fieldOfError(error), problem: problemOfError(error) },
        });
        return null;
      }
    },
    [client, ref, updateDraft],
  );

  /** One cell (or a whole row) edited in the grid. */
  const commitRow = useCallback(
    async (row: EditableRow, next: EditableRule) => {
      if (row.kind === 'rule') {
        const change = await saveRule(row.saved, next);
        if (change) {
          push({ kind: 'patch', changes: [change] });
          afterWrite();
        }
      } else {
        const created = await saveDraft(row, next);
        if (created) {
          push({ kind: 'create', rules: [created] });
          afterWrite();
        }
      }
    },
    [saveRule, saveDraft, push, afterWrite],
  );

  const addDraft = useCallback((rule: EditableRule = EMPTY_RULE) => {
    const key = `draft-${draftSeq.current++}`;
    const touched = rule !== EMPTY_RULE;
    setDrafts((list) => [{ kind: 'draft', key, rule, saving: false, touched }, ...list]);
    return key;
  }, []);

  const discardDraft = useCallback((key: string) => {
    setDrafts((list) => list.filter((draft) => draft.key !== key));
  }, []);

  const deleteRules = useCallback(
    async (rules: ConsoleRule[]) => {
      if (rules.length === 0) return;
      try {
        await client.deleteRules(
          ref,
          rules.map((rule) => rule.ruleId),
        );
        push({ kind: 'delete', rules });
        toasts.show(t('rules.deleted', { count: rules.length }), {
          action: { label: t('rules.undo'), run: () => void undo() },
        });
      } catch (error) {
        toasts.show(describeError(t, error), { tone: 'error' });
      } finally {
        afterWrite();
      }
    },
    [client, ref, push, undo, toasts, t, afterWrite],
  );

  const duplicateRules = useCallback(
    async (rules: EditableRule[]) => {
      if (rules.length === 0) return;
      try {
        const created = await runLimited(rules, 2, (rule) =>
          createCopy(client, ref, rule, (n) =>
            t(n === 1 ? 'rules.copySuffix' : 'rules.copySuffixN', { n }),
          ),
        );
        push({ kind: 'create', rules: created });
        toasts.show(t('rules.duplicated', { count: created.length }));
      } catch (error) {
        toasts.show(describeError(t, error), { tone: 'error' });
      } finally {
        afterWrite();
      }
    },
    [client, ref, push, toasts, t, afterWrite],
  );

  /** Writes several rows at once (paste); one undo step for all. */
  const commitMany = useCallback(
    async (edits: { row: EditableRow; next: EditableRule }[], extraDrafts: EditableRule[]) => {
      const newDrafts: Draft[] = extraDrafts.map((rule) => ({
        kind: 'draft',
        key: `draft-${draftSeq.current++}`,
        rule,
        saving: false,
        touched: true,
      }));
      if (newDrafts.length > 0) setDrafts((list) => [...list, ...newDrafts]);
      const all = [
        ...edits,
        ...newDrafts.map((draft) => ({ row: draft as EditableRow, next: draft.rule })),
      ];
      const results = await runLimited(all, 4, async ({ row, next }) =>
        row.kind === 'rule'
          ? { change: await saveRule(row.saved, next), created: null }
          : { change: null, created: await saveDraft(row, next) },
      );
      const changes = results.flatMap((r) => (r.change ? [r.change] : []));
      const created = results.flatMap((r) => (r.created ? [r.created] : []));
      const entries: UndoEntry[] = [];
      if (changes.length > 0) entries.push({ kind: 'patch', changes });
      if (created.length > 0) entries.push({ kind: 'create', rules: created });
      if (entries.length === 1 && entries[0]) push(entries[0]);
      else if (entries.length > 1) push({ kind: 'batch', entries });
      if (entries.length > 0) afterWrite();
    },
    [saveRule, saveDraft, push, afterWrite],
  );

  const setActive = useCallback(
    async (rules: ConsoleRule[], active: boolean) => {
      const targets = rules.filter((rule) => (rule.active !== false) !== active);
      if (targets.length === 0) return;
      try {
        await client.setActive(
          ref,
          targets.map((rule) => rule.ruleId),
          active,
        );
        push({
          kind: 'patch',
          changes: targets.map((rule) => ({
            ruleId: rule.ruleId,
            before: { active: !active },
            after: { active },
          })),
        });
      } catch (error) {
        toasts.show(describeError(t, error), { tone: 'error' });
      } finally {
        afterWrite();
      }
    },
    [client, ref, push, toasts, t, afterWrite],
  );

  /**
   * Adds `question` to a rule's phrasings (from the try pane), read fresh first: nothing when the
   * rule has it already or has as many as a rule can have. One undo step.
   */
  const addPhrasing = useCallback(
    async (ruleId: string, question: string): Promise<PhrasingOutcome> => {
      const rule = await client.rule(ref, ruleId);
      if (rule.questions.some((q) => samePhrasing(q, question))) return { kind: 'present', rule };
      if (rule.questions.length >= LIMITS.questionsMax) return { kind: 'full', rule };
      const questions = [...rule.questions, question.trim()];
      const updated = await client.patchRule(ref, ruleId, { questions });
      replaceRule(updated);
      push({
        kind: 'patch',
        changes: [{ ruleId, before: { questions: rule.questions }, after: { questions } }],
      });
      afterWrite();
      return { kind: 'added', rule: updated };
    },
    [client, ref, replaceRule, push, afterWrite],
  );

  const rows = useMemo<GridRow[]>(() => {
    const base =
      pending.size === 0
        ? pages.rows
        : pages.rows.map((row) => {
            if (row.kind !== 'rule') return row;
            const edit = pending.get(row.key);
            return edit
              ? { ...row, rule: edit.rule, ...(edit.error ? { error: edit.error } : {}) }
              : row;
          });
    return drafts.length === 0 ? base : [...drafts, ...base];
  }, [pages.rows, pending, drafts]);

  const clearLocal = useCallback(() => {
    setDrafts([]);
    setPending(new Map());
    clear();
  }, [clear]);

  return {
    rows,
    draftCount: drafts.length,
    commitRow,
    commitMany,
    addDraft,
    discardDraft,
    deleteRules,
    duplicateRules,
    setActive,
    addPhrasing,
    clearLocal,
    undo,
    redo,
    canUndo,
    canRedo,
  };
}
