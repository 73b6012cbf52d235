/**
 * Server-side paging of the rule grid: the grid has `total` rows; pages of rules are fetched as
 * they scroll into view (never more than a few requests at once, the newest range first), and
 * kept while the query stays the same.
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConsoleRule, RuleQuery } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { editableOf } from '../../lib/rules/grid-row';
import type { GridRow } from '../../lib/rules/grid-row';

export const PAGE_SIZE = 200;
const MAX_IN_FLIGHT = 3;

type RuleRow = Extract<GridRow, { kind: 'rule' }>;

interface Store {
  key: string;
  generation: number;
  pages: Map<number, RuleRow[]>;
  /** Pages of the previous generation, shown until their fresh copy arrives. */
  stale: Map<number, RuleRow[]>;
  inFlight: Set<number>;
  total: number | null;
  range: [number, number];
  placeholders: GridRow[];
}

function toRows(rules: ConsoleRule[], first: number): RuleRow[] {
  return rules.map((rule, i) => ({
    kind: 'rule',
    key: rule.ruleId,
    index: first + i,
    rule: editableOf(rule),
    saved: rule,
  }));
}

/**
 * The fresh rows, with the previous objects kept for rules that did not change (same place, same
 * update time): the grid then keeps a cell editor open across a read of the page after a write.
 */
function keepUnchanged(rows: RuleRow[], previous: RuleRow[] | undefined): RuleRow[] {
  if (!previous) return rows;
  return rows.map((row, i) => {
    const old = previous[i];
    return old &&
      old.key === row.key &&
      old.index === row.index &&
      old.saved.updatedAt === row.saved.updatedAt &&
      old.saved.hits === row.saved.hits &&
      old.saved.lastHit === row.saved.lastHit
      ? old
      : row;
  });
}

/** A rule written by the editor, with the question log's figures of the list (writes have none). */
function keepFigures(current: GridRow, rule: ConsoleRule): ConsoleRule {
  if (current.kind !== 'rule' || rule.hits !== undefined || current.saved.hits === undefined) {
    return rule;
  }
  return { ...rule, hits: current.saved.hits, lastHit: current.saved.lastHit ?? null };
}

/** Identifies the rows of one query of one robot. */
export function pagesKey(ref: RobotRef, query: RuleQuery): string {
  return JSON.stringify([ref.tenantId, ref.robotId, query]);
}

export interface RulePages {
  /** The query whose rows `rows` holds (it lags a render behind a change of query). */
  key: string;
  /** Rows 0..total-1 (place holders where not loaded). */
  rows: GridRow[];
  total: number | null;
  loading: boolean;
  /** The failure of the last read, if it failed. */
  error: unknown;
  /** Tells which rows are on screen; fetches their pages. */
  setRange: (first: number, last: number) => void;
  /** Reads the pages on screen again (after a change), keeping the others until needed. */
  refresh: () => void;
  /** Puts a rule read back from the service in place, wherever it is loaded. */
  replaceRule: (rule: ConsoleRule) => void;
  /** Position of a loaded rule, or -1. */
  indexOf: (ruleId: string) => number;
}

export function useRulePages(client: ConsoleClient, ref: RobotRef, query: RuleQuery): RulePages {
  const key = pagesKey(ref, query);
  const store = useRef<Store>({
    key: '',
    generation: 0,
    pages: new Map(),
    stale: new Map(),
    inFlight: new Set(),
    total: null,
    range: [0, 60],
    placeholders: [],
  });
  const latest = useRef({ ref, query });
  latest.current = { ref, query };
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  const pump = useCallback(() => {
    const s = store.current;
    const [first, last] = s.range;
    const firstPage = Math.max(0, Math.floor(first / PAGE_SIZE));
    const lastPage = Math.floor(Math.max(first, last) / PAGE_SIZE);
    const maxPage = s.total === null ? firstPage : Math.max(0, Math.ceil(s.total / PAGE_SIZE) - 1);
    for (let page = firstPage; page <= Math.min(lastPage, maxPage); page += 1) {
      if (s.inFlight.size >= MAX_IN_FLIGHT) return;
      if (s.pages.has(page) || s.inFlight.has(page)) continue;
      s.inFlight.add(page);
      const { key: startKey, generation } = s;
      const { ref: robot, query: filters } = latest.current;
      let failed = false;
      client
        .rules(robot, { ...filters, offset: page * PAGE_SIZE, limit: PAGE_SIZE })
        .then(
          (result) => {
            if (s.key !== startKey || s.generation !== generation) return;
            s.pages.set(
              page,
              keepUnchanged(toRows(result.rows, page * PAGE_SIZE), s.stale.get(page)),
            );
            s.stale.delete(page);
            s.total = result.total;
            setError(null);
            bump();
          },
          (caught: unknown) => {
            failed = true;
            if (s.key !== startKey) return;
            setError(caught);
          },
        )
        .finally(() => {
          s.inFlight.delete(page);
          // A failed page waits for Retry: asked again at once, a refused session (401) or a
          // service gone sent requests without pause, from a grid no longer shown.
          if (s.key === startKey && !failed) pump();
        });
    }
  }, [client, bump]);

  useEffect(() => {
    const s = store.current;
    s.key = key;
    s.generation += 1;
    s.pages = new Map();
    s.stale = new Map();
    s.inFlight = new Set();
    s.total = null;
    s.placeholders = [];
    s.range = [0, 60];
    setError(null);
    bump();
    pump();
  }, [key, pump, bump]);

  const setRange = useCallback(
    (first: number, last: number) => {
      const s = store.current;
      const margin = 20;
      s.range = [Math.max(0, first - margin), last + margin];
      pump();
    },
    [pump],
  );

  const refresh = useCallback(() => {
    const s = store.current;
    s.generation += 1;
    for (const [page, rows] of s.pages) s.stale.set(page, rows);
    s.pages = new Map();
    s.inFlight = new Set();
    pump();
  }, [pump]);

  const replaceRule = useCallback(
    (rule: ConsoleRule) => {
      const s = store.current;
      for (const map of [s.pages, s.stale]) {
        for (const [page, rows] of map) {
          const i = rows.findIndex((row) => row.key === rule.ruleId);
          if (i < 0) continue;
          const next = rows.slice();
          const current = rows[i];
          if (current)
            next[i] = { ...current, rule: editableOf(rule), saved: keepFigures(current, rule) };
          map.set(page, next);
        }
      }
      bump();
    },
    [bump],
  );

  const rows = useMemo(() => {
    void version;
    const s = store.current;
    const total = s.total ?? 0;
    const out = new Array<GridRow>(total);
    for (let page = 0; page * PAGE_SIZE < total; page += 1) {
      const loaded = s.pages.get(page) ?? s.stale.get(page);
      const start = page * PAGE_SIZE;
      const end = Math.min(total, start + PAGE_SIZE);
      for (let i = start; i < end; i += 1) {
        const row = loaded?.[i - start];
        if (row && row.index === i) {
          out[i] = row;
        } else {
          let placeholder = s.placeholders[i];
          if (!placeholder) {
            placeholder = { kind: 'loading', key: `loading-${i}`, index: i };
            s.placeholders[i] = placeholder;
          }
          out[i] = placeholder;
        }
      }
    }
    return out;
  }, [version]);

  const indexOf = useCallback(
    (ruleId: string) => {
      const i = rows.findIndex((row) => row.kind === 'rule' && row.key === ruleId);
      return i;
    },
    [rows],
  );

  const s = store.current;
  return {
    key: s.key,
    rows,
    total: s.total,
    loading: s.total === null || s.inFlight.size > 0,
    error,
    setRange,
    refresh,
    replaceRule,
    indexOf,
  };
}
