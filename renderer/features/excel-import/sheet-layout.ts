/**
 * The spreadsheet layout the editor writes (export, template, failed rows) and reads back: one
 * row per rule; name, one column per phrasing, answer, category, active, effective dates.
 * An export re-imports losslessly: the import guesses every one of these headers.
 * @module
 */
import type { ConsoleRule } from '../../../electron/service/console-types';
import { LIMITS } from '../../../electron/service/limits';
import type { Translate } from '../../i18n/types';
import { formatKeywords, formatMenu } from './conversation-cells';
import { failureReason } from './failure-reason';
import type { ImportFailure } from './import-runner';
import type { PlainSheet } from '../../lib/sheets/sheet-messages';

export function layoutHeader(t: Translate, questionColumns: number): string[] {
  return [
    t('sheet.ruleName'),
    ...Array.from({ length: questionColumns }, (_, i) => t('sheet.question', { n: i + 1 })),
    t('sheet.answer'),
    t('sheet.category'),
    t('sheet.active'),
    t('sheet.begin'),
    t('sheet.end'),
    t('sheet.policy'),
    t('sheet.negative'),
    t('sheet.menu'),
  ];
}

export function rulesToSheet(t: Translate, rules: readonly ConsoleRule[]): PlainSheet {
  const names = new Map(rules.map((rule) => [rule.ruleId, rule.ruleName]));
  const questionColumns = Math.max(1, ...rules.map((rule) => rule.questions.length));
  return {
    name: t('sheet.rulesSheet'),
    rows: [
      layoutHeader(t, questionColumns),
      ...rules.map((rule) => [
        rule.ruleName,
        ...Array.from({ length: questionColumns }, (_, i) => rule.questions[i] ?? ''),
        rule.answer,
        rule.categoryName,
        rule.active === false ? 'FALSE' : 'TRUE',
        rule.effectBeignDate ?? '',
        rule.effectEndDate ?? '',
        rule.matchPolicy === 'similarity' ? '' : rule.matchPolicy,
        formatKeywords(rule.negativeKeywords),
        formatMenu(
          (rule.menu ?? []).map((entry) => ({
            text: entry.text,
            ruleName: names.get(entry.ruleId) ?? entry.ruleId,
          })),
        ),
      ]),
    ],
  };
}

export function templateSheet(t: Translate): PlainSheet {
  // As many phrasing columns as a rule may have: the template shows what is allowed.
  const phrasings = (questions: string[]) =>
    Array.from({ length: LIMITS.questionsMax }, (_, i) => questions[i] ?? '');
  const rest = ['', '', '', '', ''];
  return {
    name: t('sheet.rulesSheet'),
    rows: [
      layoutHeader(t, LIMITS.questionsMax),
      [
        t('sheet.example1Name'),
        ...phrasings([t('sheet.example1Q1'), t('sheet.example1Q2')]),
        t('sheet.example1Answer'),
        t('sheet.example1Category'),
        'TRUE',
        ...rest,
      ],
      [
        t('sheet.example2Name'),
        ...phrasings([t('sheet.example2Q1'), t('sheet.example2Q2'), t('sheet.example2Q3')]),
        t('sheet.example2Answer'),
        '',
        'TRUE',
        ...rest,
      ],
    ],
  };
}

/** The failed rows as they were in the sheet, with the reason in an extra last column. */
export function failuresToSheet(
  t: Translate,
  header: readonly string[] | null,
  failures: readonly ImportFailure[],
): PlainSheet {
  const width = Math.max(header?.length ?? 0, ...failures.map((f) => f.cells.length));
  const pad = (cells: readonly string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? '');
  const head = header
    ? pad(header)
    : Array.from({ length: width }, (_, i) => t('sheet.column', { n: i + 1 }));
  return {
    name: t('sheet.failedSheet'),
    rows: [
      [...head, t('sheet.reason')],
      ...failures.map((failure) => [...pad(failure.cells), failureReason(t, failure)]),
    ],
  };
}
