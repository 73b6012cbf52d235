/**
 * Editing state of the rule grid: the rows above the list (drafts and rules just created, see
 * useTopRows), edits held back because they are invalid, and every write with its undo entry
 * and its part in the save indicator.
 * @module
 */
import { useCallback, useMemo, useState } from 'react';
import { LIMITS } from '../../../electron/service/limits';
import type { ConsoleRule } from '../../../electron/service/console-types';
import { ApiError } from '../../api/api-error';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { diffRule, editableOf, EDITABLE_FIELDS, pickFields } from '../../lib/rules/grid-row';
import type {
  EditableRule,
  EditableRow,
  GridRow,
  RowError,
  RuleField,
} from '../../lib/rules/grid-row';
import { samePhrasing } from '../../lib/rules/phrasing';
import type { PhrasingOutcome } from '../../lib/rules/phrasing';
import { isValidRule } from '../../lib/rules/rule-checks';
import { runLimited } from '../../lib/run-limited';
import { applyEntry, createCopy } from './rule-mutations';
import type { RuleChange, UndoEntry } from './rule-mutations';
import type { RulePages } from './useRulePages';
import { useSaveStatus } from './useSaveStatus';
import { useTopRows } from './useTopRows';
import type { Draft } from './useTopRows';
import { useUndoRedo } from './useUndoRedo';

interface Pending {
  rule: EditableRule;
  error?: RowError;
}

function fieldOfError(error: unknown): RuleField | null {
  if (!(error instanceof ApiError)) return null;
  const base = error.field?.replace(/\[.*$/, '');
  return EDITABLE_FIELDS.find((field) => field === base) ?? null;
}

/** Rules an undo or redo step deletes (a creation undone, a delete redone). */
function deletedBy(entry: UndoEntry, direction: 'undo' | 'redo'): string[] {
  if (entry.kind === 'batch') return entry.entries.flatMap((inner) => deletedBy(inner, direction));
  const deletes =
    (entry.kind === 'create' && direction === 'undo') ||
    (entry.kind === 'delete' && direction === 'redo');
  return deletes ? entry.rules.map((rule) => rule.ruleId) : [];
}

export function useRuleEditing(
  client: ConsoleClient,
  ref: RobotRef,
  pages: RulePages,
  onChanged: () => void,
) {
  const { t } = useI18n();
  const toasts = useToasts();
  const top = useTopRows(pages.key);
  const [pending, setPending] = useState<ReadonlyMap<string, Pending>>(new Map());
  const { saving, savedAt, track, settled } = useSaveStatus();

  const { refresh, replaceRule: replacePaged } = pages;
  const { replace: replaceTop, unpin, updateDraft, draftSaved, pin, addDraft } = top;
  const replaceRule = useCallback(
    (rule: ConsoleRule) => {
      replacePaged(rule);
      replaceTop(rule);
    },
    [replacePaged, replaceTop],
  );
  const afterWrite = useCallback(() => {
    refresh();
    onChanged();
  }, [refresh, onChanged]);

  const history = useUndoRedo<UndoEntry>(async (entry, direction) => {
    try {
      await track(() => applyEntry(client, ref, entry, direction));
      unpin(deletedBy(entry, direction));
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
  });
  const { push, canUndo, canRedo, nextUndo, nextRedo } = history;
  // An undo or redo pressed while edits are being saved waits for them: it undoes the last edit
  // the user made, not the one before it.
  const { undo: undoNow, redo: redoNow } = history;
  const undo = useCallback(async () => {
    await settled();
    await undoNow();
  }, [settled, undoNow]);
  const redo = useCallback(async () => {
    await settled();
    await redoNow();
  }, [settled, redoNow]);

  const setPendingFor = useCallback((key: string, value: Pending | null) => {
    setPending((current) => {
      const next = new Map(current);
      if (value) next.set(key, value);
      else next.delete(key);
      return next;
    });
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
        const updated = await track(() => client.patchRule(ref, key, patch));
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
    [client, ref, replaceRule, setPendingFor, track],
  );

  /** Saves a draft once it is valid; resolves with the created rule, which takes its place. */
  const saveDraft = useCallback(
    async (draft: Draft, next: EditableRule): Promise<ConsoleRule | null> => {
      if (!isValidRule(next)) {
        updateDraft(draft.key, { rule: next, saving: false, touched: true, error: undefined });
        return null;
      }
      updateDraft(draft.key, { rule: next, saving: true, touched: true, error: undefined });
      try {
        const created = await track(() => client.createRule(ref, next));
        draftSaved(draft.key, created);
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
    [client, ref, updateDraft, draftSaved, track],
  );

  /** One cell (or a whole row) edited in the grid; resolves with the rule it created, if any. */
  const commitRow = useCallback(
    async (row: EditableRow, next: EditableRule): Promise<ConsoleRule | null> => {
      if (row.kind === 'rule') {
        const change = await saveRule(row.saved, next);
        if (change) {
          push({ kind: 'patch', changes: [change] });
          afterWrite();
        }
        return null;
      }
      const created = await saveDraft(row, next);
      if (created) {
        push({ kind: 'create', rules: [created] });
        afterWrite();
      }
      return created;
    },
    [saveRule, saveDraft, push, afterWrite],
  );

  const deleteRules = useCallback(
    async (rules: ConsoleRule[]) => {
      if (rules.length === 0) return;
      try {
        const ruleIds = rules.map((rule) => rule.ruleId);
        await track(() => client.deleteRules(ref, ruleIds));
        unpin(ruleIds);
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
    [client, ref, push, undo, toasts, t, afterWrite, track, unpin],
  );

  /** Copies of `rules`, shown at the top; resolves with them. */
  const duplicateRules = useCallback(
    async (rules: EditableRule[]): Promise<ConsoleRule[]> => {
      if (rules.length === 0) return [];
      try {
        const created = await track(() =>
          runLimited(rules, 2, (rule) =>
            createCopy(client, ref, rule, (n) =>
              t(n === 1 ? 'rules.copySuffix' : 'rules.copySuffixN', { n }),
            ),
          ),
        );
        pin(created);
        push({ kind: 'create', rules: created });
        toasts.show(t('rules.duplicated', { count: created.length }));
        return created;
      } catch (error) {
        toasts.show(describeError(t, error), { tone: 'error' });
        return [];
      } finally {
        afterWrite();
      }
    },
    [client, ref, push, toasts, t, afterWrite, track, pin],
  );

  /** Writes several rows at once (paste); one undo step for all. */
  const commitMany = useCallback(
    async (edits: { row: EditableRow; next: EditableRule }[], extraRules: EditableRule[]) => {
      const drafts = extraRules.map((rule) => addDraft(rule, true));
      const all = [
        ...edits,
        ...drafts.map((draft) => ({ row: draft as EditableRow, next: draft.rule })),
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
    [saveRule, saveDraft, push, afterWrite, addDraft],
  );

  const setActive = useCallback(
    async (rules: ConsoleRule[], active: boolean) => {
      const targets = rules.filter((rule) => (rule.active !== false) !== active);
      if (targets.length === 0) return;
      try {
        const ruleIds = targets.map((rule) => rule.ruleId);
        await track(() => client.setActive(ref, ruleIds, active));
        push({
          kind: 'patch',
          changes: ruleIds.map((ruleId) => ({
            ruleId,
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
    [client, ref, push, toasts, t, afterWrite, track],
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
      const updated = await track(() => client.patchRule(ref, ruleId, { questions }));
      replaceRule(updated);
      push({
        kind: 'patch',
        changes: [{ ruleId, before: { questions: rule.questions }, after: { questions } }],
      });
      afterWrite();
      return { kind: 'added', rule: updated };
    },
    [client, ref, replaceRule, push, afterWrite, track],
  );

  const rows = useMemo<GridRow[]>(() => {
    const withEdit = (row: GridRow): GridRow => {
      if (row.kind !== 'rule') return row;
      const edit = pending.get(row.key);
      return edit ? { ...row, rule: edit.rule, ...(edit.error ? { error: edit.error } : {}) } : row;
    };
    const pinned = new Set(top.rows.map((row) => row.key));
    const list = pinned.size === 0 ? pages.rows : pages.rows.filter((row) => !pinned.has(row.key));
    const base = pending.size === 0 ? list : list.map(withEdit);
    return top.rows.length === 0 ? base : [...top.rows.map(withEdit), ...base];
  }, [pages.rows, pending, top.rows]);

  /** Edits not saved: invalid or refused cells, drafts with something entered. */
  const unsaved = useMemo(
    () =>
      [...pending.values()].some((edit) => edit.error || !isValidRule(edit.rule)) ||
      top.rows.some((row) => row.kind === 'draft' && row.touched && !row.saving),
    [pending, top.rows],
  );

  return {
    rows,
    /** Rows above the paged list (drafts and rules just created). */
    topCount: top.rows.length,
    draftCount: top.rows.filter((row) => row.kind === 'draft').length,
    save: { saving, savedAt, unsaved },
    commitRow,
    commitMany,
    addDraft,
    discardDraft: top.discardDraft,
    deleteRules,
    duplicateRules,
    setActive,
    addPhrasing,
    undo,
    redo,
    canUndo,
    canRedo,
    nextUndo,
    nextRedo,
  };
}
