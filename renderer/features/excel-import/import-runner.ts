/**
 * Sends checked rows in batches through the openapi batch route, then applies what that route
 * does not take (category, active, effective dates) through the console API. Pausable and
 * cancellable between batches; every failure is mapped back to its spreadsheet row.
 * @module
 */
import type { BatchImportResult, RuleInput } from '../../../electron/service/api-types';
import type { RulePatch } from '../../../electron/service/console-types';
import type { Problem } from '../../api/problem';
import { problemOfBatchFailure, problemOfError } from '../../i18n/server-problem';
import { runLimited } from '../../lib/run-limited';
import type { ImportRow } from './import-rows';

export interface ImportFailure {
  sheetRow: number;
  ruleName: string;
  /**
   * `refused`: checked before sending and not sent; `failed`: refused by the service;
   * `not-applied`: created, but its category, status or dates could not be set;
   * `not-sent`: left out by a cancel.
   */
  kind: 'refused' | 'failed' | 'not-applied' | 'not-sent';
  /** What went wrong, said in the user's language when shown (none for `not-sent`). */
  problem: Problem | null;
  cells: string[];
}

export interface ImportProgress {
  done: number;
  total: number;
  succeeded: number;
  failed: number;
  batch: number;
  batches: number;
}

export interface ImportReport {
  total: number;
  succeeded: number;
  failures: ImportFailure[];
  /** Rows created whose category, active flag or dates could not be applied. */
  warnings: ImportFailure[];
  notSent: ImportRow[];
  cancelled: boolean;
  elapsedMs: number;
}

export interface ImportPorts {
  sendBatch: (rules: RuleInput[]) => Promise<BatchImportResult>;
  patchRule: (ruleId: string, patch: RulePatch) => Promise<unknown>;
  deactivate: (ruleIds: string[]) => Promise<unknown>;
  /** Files many rules under the category of this name (made if the robot has none) in one call. */
  setCategory: (ruleIds: string[], category: string) => Promise<unknown>;
}

/** Pause, resume and cancel, checked between batches. */
export class ImportControl {
  paused = false;
  cancelled = false;
  private wake: (() => void) | null = null;

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }

  async checkpoint(): Promise<void> {
    while (this.paused && !this.cancelled) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

export function failure(
  row: ImportRow,
  kind: ImportFailure['kind'],
  problem: Problem | null,
): ImportFailure {
  return { sheetRow: row.sheetRow, ruleName: row.rule.ruleName, kind, problem, cells: row.cells };
}

function extrasOf(row: ImportRow): RulePatch | null {
  const patch: RulePatch = {};
  if (row.rule.effectBeignDate) patch.effectBeignDate = row.rule.effectBeignDate;
  if (row.rule.effectEndDate) patch.effectEndDate = row.rule.effectEndDate;
  if (row.extras?.matchPolicy) patch.matchPolicy = row.extras.matchPolicy;
  if (row.extras?.negativeKeywords) patch.negativeKeywords = row.extras.negativeKeywords;
  return Object.keys(patch).length > 0 ? patch : null;
}

export async function runImport(
  rows: readonly ImportRow[],
  batchSize: number,
  ports: ImportPorts,
  control: ImportControl,
  onProgress: (progress: ImportProgress) => void,
): Promise<ImportReport> {
  const started = performance.now();
  const failures: ImportFailure[] = [];
  const warnings: ImportFailure[] = [];
  const valid = rows.filter((row) => {
    if (row.problem === null) return true;
    failures.push(failure(row, 'refused', row.problem));
    return false;
  });
  const batches = Math.ceil(valid.length / batchSize);
  let succeeded = 0;
  let done = 0;
  const progress = (batch: number) =>
    onProgress({
      done,
      total: valid.length,
      succeeded,
      failed: failures.length,
      batch,
      batches,
    });
  progress(0);

  // Menus name their rules: they are set once every rule of the import exists.
  const madeByName = new Map<string, string>();
  const withMenus: { ruleId: string; row: ImportRow }[] = [];
  let b = 0;
  for (; b < batches; b += 1) {
    await control.checkpoint();
    if (control.cancelled) break;
    const batch = valid.slice(b * batchSize, (b + 1) * batchSize);
    let result: BatchImportResult;
    try {
      result = await ports.sendBatch(
        batch.map((row) => ({
          ruleName: row.rule.ruleName,
          questions: row.rule.questions,
          answerContentType: 'TEXT',
          answer: row.rule.answer,
        })),
      );
    } catch (error) {
      const problem = problemOfError(error);
      for (const row of batch) failures.push(failure(row, 'failed', problem));
      done += batch.length;
      progress(b + 1);
      continue;
    }
    for (const item of result.failInfo) {
      const row = batch[item.index];
      if (row) {
        failures.push(
          failure(row, 'failed', problemOfBatchFailure(item.code, item.msg, row.rule.ruleName)),
        );
      }
    }
    succeeded += result.succeed.length;
    // The batch route answers the created rules in order; names are unique in a robot.
    const byName = new Map(batch.map((row) => [row.rule.ruleName.trim(), row]));
    const created = result.succeed.flatMap((rule) => {
      const row = byName.get(rule.ruleName.trim());
      return row ? [{ ruleId: rule.ruleId, row }] : [];
    });
    for (const item of created) {
      madeByName.set(item.row.rule.ruleName.trim(), item.ruleId);
      if (item.row.extras?.menu) withMenus.push(item);
    }
    await applyCategories(created, ports, warnings);
    await runLimited(created, 4, async ({ ruleId, row }) => {
      const patch = extrasOf(row);
      if (!patch) return;
      try {
        await ports.patchRule(ruleId, patch);
      } catch (error) {
        warnings.push(failure(row, 'not-applied', problemOfError(error)));
      }
    });
    const inactive = created.filter(({ row }) => !row.rule.active);
    if (inactive.length > 0) {
      try {
        await ports.deactivate(inactive.map(({ ruleId }) => ruleId));
      } catch (error) {
        const problem = problemOfError(error);
        for (const { row } of inactive) warnings.push(failure(row, 'not-applied', problem));
      }
    }
    done += batch.length;
    progress(b + 1);
  }

  await runLimited(withMenus, 4, async ({ ruleId, row }) => {
    const entries = row.extras?.menu ?? [];
    const menu = entries.flatMap((entry) => {
      const target = madeByName.get(entry.ruleName.trim());
      return target ? [{ ruleId: target, text: entry.text }] : [];
    });
    if (menu.length < entries.length) {
      warnings.push(
        failure(row, 'not-applied', { field: 'menu', keyword: 'menu-target', params: {} }),
      );
    }
    if (menu.length === 0) return;
    try {
      await ports.patchRule(ruleId, { menu });
    } catch (error) {
      warnings.push(failure(row, 'not-applied', problemOfError(error)));
    }
  });

  return {
    total: rows.length,
    succeeded,
    failures: failures.sort((x, y) => x.sheetRow - y.sheetRow),
    warnings,
    notSent: valid.slice(b * batchSize),
    cancelled: control.cancelled,
    elapsedMs: performance.now() - started,
  };
}

/**
 * Files the created rules under their categories by name (`set-category { category }` makes the
 * missing ones): one call per category, not one per rule.
 */
async function applyCategories(
  created: { ruleId: string; row: ImportRow }[],
  ports: ImportPorts,
  warnings: ImportFailure[],
): Promise<void> {
  const byCategory = new Map<string, { ruleId: string; row: ImportRow }[]>();
  for (const item of created) {
    const category = item.row.category;
    if (category !== '') byCategory.set(category, [...(byCategory.get(category) ?? []), item]);
  }
  for (const [category, items] of byCategory) {
    try {
      await ports.setCategory(
        items.map((item) => item.ruleId),
        category,
      );
    } catch (error) {
      const problem = problemOfError(error);
      for (const { row } of items) warnings.push(failure(row, 'not-applied', problem));
    }
  }
}
