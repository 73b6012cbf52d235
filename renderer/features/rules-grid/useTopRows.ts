/**
 * The rows above the paged list: drafts (new rules not saved yet) and rules created in this view,
 * which stay where they were made (instead of jumping to their place at the end of the list) as
 * long as the query (search, filters, sort) is the one they were made under.
 * @module
 */
import { useCallback, useRef, useState } from 'react';
import type { ConsoleRule } from '../../../electron/service/console-types';
import { editableOf, EMPTY_RULE } from '../../lib/rules/grid-row';
import type { EditableRule, GridRow } from '../../lib/rules/grid-row';

export type Draft = Extract<GridRow, { kind: 'draft' }>;
type RuleRow = Extract<GridRow, { kind: 'rule' }>;
type Fresh = RuleRow & { fresh: true; pinnedFor: string };
export type TopRow = Draft | Fresh;

function freshRow(rule: ConsoleRule, pinnedFor: string): Fresh {
  return {
    kind: 'rule',
    key: rule.ruleId,
    index: -1,
    rule: editableOf(rule),
    saved: rule,
    fresh: true,
    pinnedFor,
  };
}

/** `queryKey` names the rows of the current query (useRulePages' `key`). */
export function useTopRows(queryKey: string) {
  const [top, setTop] = useState<TopRow[]>([]);
  const draftSeq = useRef(1);

  /** A new draft at the top; `rule` given (a paste) counts as something entered. */
  const addDraft = useCallback((rule: EditableRule = EMPTY_RULE, atEnd = false) => {
    const draft: Draft = {
      kind: 'draft',
      key: `draft-${draftSeq.current++}`,
      rule,
      saving: false,
      touched: rule !== EMPTY_RULE,
    };
    setTop((list) => (atEnd ? [...list, draft] : [draft, ...list]));
    return draft;
  }, []);

  const updateDraft = useCallback((key: string, change: Partial<Draft>) => {
    setTop((list) =>
      list.map((row) => (row.kind === 'draft' && row.key === key ? { ...row, ...change } : row)),
    );
  }, []);

  const discardDraft = useCallback((key: string) => {
    setTop((list) => list.filter((row) => row.key !== key));
  }, []);

  /** The draft `draftKey` became `rule`: it stays in its place. */
  const draftSaved = useCallback(
    (draftKey: string, rule: ConsoleRule) => {
      setTop((list) => list.map((row) => (row.key === draftKey ? freshRow(rule, queryKey) : row)));
    },
    [queryKey],
  );

  /** Rules created another way (duplicates): shown first. */
  const pin = useCallback(
    (rules: readonly ConsoleRule[]) => {
      setTop((list) => [...rules.map((rule) => freshRow(rule, queryKey)), ...list]);
    },
    [queryKey],
  );

  /** Rules deleted: gone from the top too. */
  const unpin = useCallback((ruleIds: readonly string[]) => {
    const gone = new Set(ruleIds);
    setTop((list) => list.filter((row) => row.kind === 'draft' || !gone.has(row.key)));
  }, []);

  /** A rule read back after a write. */
  const replace = useCallback((rule: ConsoleRule) => {
    setTop((list) =>
      list.map((row) =>
        row.kind === 'rule' && row.key === rule.ruleId
          ? { ...row, rule: editableOf(rule), saved: rule }
          : row,
      ),
    );
  }, []);

  const clear = useCallback(() => setTop([]), []);

  /** The rows shown: drafts, and fresh rules of the current query. */
  const shown = top.filter((row) => row.kind === 'draft' || row.pinnedFor === queryKey);

  return {
    rows: shown,
    addDraft,
    updateDraft,
    discardDraft,
    draftSaved,
    pin,
    unpin,
    replace,
    clear,
  };
}
