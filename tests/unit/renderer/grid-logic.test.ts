import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyLayout,
  DEFAULT_LAYOUT,
  MOVABLE_COLUMNS,
  moveColumn,
  normalizeLayout,
} from '../../../renderer/features/rules-grid/column-layout';
import { categoryIndex, unknownNames } from '../../../renderer/lib/rules/category-index';
import { cellText, withCellText } from '../../../renderer/lib/rules/cell-values';
import { categoryLabel, EMPTY_RULE } from '../../../renderer/lib/rules/grid-row';
import type { GridRow } from '../../../renderer/lib/rules/grid-row';
import { planPaste } from '../../../renderer/features/rules-grid/paste-block';
import { nextSort } from '../../../renderer/features/rules-grid/sort-cycle';
import { samePhrasing } from '../../../renderer/lib/rules/phrasing';
import { nextStateChange } from '../../../renderer/features/rules-grid/state-change';
import { effectiveState } from '../../../renderer/features/try-question/effective-state';
import { skippedAmong } from '../../../renderer/features/try-question/skipped-rules';
import type { ConsoleCategory, ConsoleRule } from '../../../electron/service/console-types';

const CATEGORIES: ConsoleCategory[] = [
  { categoryId: '1', name: 'Billing', rules: 3 },
  { categoryId: '2', name: '售后', rules: 1 },
];

const NOW = Date.parse('2025-06-15T12:00:00Z');

test('effective state: switched off, before, inside and after the window (ends included)', () => {
  const rule = { active: true, effectBeignDate: null, effectEndDate: null };
  assert.equal(effectiveState(rule, NOW), 'active');
  assert.equal(effectiveState({ ...rule, active: false }, NOW), 'inactive');
  assert.equal(effectiveState({ ...rule, active: null }, NOW), 'active');
  assert.equal(
    effectiveState({ ...rule, effectBeignDate: '2025-06-16T00:00:00+08:00' }, NOW),
    'scheduled',
  );
  assert.equal(effectiveState({ ...rule, effectEndDate: '2025-06-15T11:59:59Z' }, NOW), 'expired');
  assert.equal(
    effectiveState(
      { ...rule, effectBeignDate: '2025-06-15T12:00:00Z', effectEndDate: '2025-06-15T12:00:00Z' },
      NOW,
    ),
    'active',
  );
  // Switched off wins over the window.
  assert.equal(
    effectiveState({ ...rule, active: false, effectEndDate: '2020-01-01T00:00:00Z' }, NOW),
    'inactive',
  );
});

test('a stored column layout is made whole, whatever was stored', () => {
  assert.deepEqual(normalizeLayout(null), DEFAULT_LAYOUT);
  assert.deepEqual(normalizeLayout('nonsense'), DEFAULT_LAYOUT);
  const layout = normalizeLayout({
    order: ['answer', 'bogus', 'answer', 'questions'],
    hidden: ['updatedAt', 'ruleName'],
    widths: { ruleName: 240.4, answer: -5, questions: 'wide' },
  });
  assert.deepEqual(layout.order.slice(0, 2), ['answer', 'questions']);
  assert.deepEqual([...layout.order].sort(), [...MOVABLE_COLUMNS].sort());
  assert.deepEqual(layout.hidden, ['updatedAt', 'updatedBy', 'lastHit']);
  assert.deepEqual(layout.widths, { ruleName: 240 });
});

test('columns newer than a stored layout come as the default has them', () => {
  // A layout stored before the question log's columns: its own columns stay as they were.
  const before = [
    'questions',
    'answer',
    'ruleCategoryId',
    'active',
    'effectBeignDate',
    'effectEndDate',
    'updatedAt',
    'matchPolicy',
  ];
  const layout = normalizeLayout({ order: before, hidden: [], widths: {} });
  assert.deepEqual(layout.order, [...before, 'hits', 'updatedBy', 'lastHit']);
  assert.deepEqual(layout.hidden, ['updatedBy', 'lastHit']);
  assert.deepEqual(DEFAULT_LAYOUT.hidden, ['updatedAt', 'updatedBy', 'lastHit']);
});

test('figures sort most first, then fewest first, then not at all; others as the grid says', () => {
  const hitsDesc = [{ columnKey: 'hits', direction: 'DESC' }] as const;
  const hitsAsc = [{ columnKey: 'hits', direction: 'ASC' }] as const;
  assert.deepEqual(nextSort([], hitsAsc), hitsDesc);
  assert.deepEqual(nextSort(hitsDesc, []), hitsAsc);
  assert.deepEqual(nextSort(hitsAsc, hitsDesc), []);
  const byName = [{ columnKey: 'ruleName', direction: 'ASC' }] as const;
  assert.deepEqual(nextSort(byName, [{ columnKey: 'lastHit', direction: 'ASC' }]), [
    { columnKey: 'lastHit', direction: 'DESC' },
  ]);
  assert.equal(nextSort(hitsDesc, byName), byName);
});

test('moving a column puts it where the target was, from either side', () => {
  const right = moveColumn(DEFAULT_LAYOUT, 'answer', 'questions');
  assert.deepEqual(right.order.slice(0, 3), ['answer', 'questions', 'ruleCategoryId']);
  const left = moveColumn(DEFAULT_LAYOUT, 'questions', 'ruleCategoryId');
  assert.deepEqual(left.order.slice(0, 3), ['answer', 'ruleCategoryId', 'questions']);
  assert.equal(moveColumn(DEFAULT_LAYOUT, 'ruleName', 'answer'), DEFAULT_LAYOUT);
});

test('the layout hides, orders and sizes columns; questions and answers share the rest', () => {
  const columns = [
    { key: 'select', name: '', width: 35 },
    { key: 'ruleName', name: '', width: 160 },
    ...MOVABLE_COLUMNS.map((key) => ({ key, name: '', width: 100 })),
  ];
  const shown = applyLayout(
    columns,
    { ...moveColumn(DEFAULT_LAYOUT, 'updatedAt', 'questions'), hidden: ['active', 'updatedBy'] },
    1200,
  );
  assert.deepEqual(
    shown.map((c) => c.key),
    [
      'select',
      'ruleName',
      'updatedAt',
      'questions',
      'answer',
      'ruleCategoryId',
      'effectBeignDate',
      'effectEndDate',
      'matchPolicy',
      'hits',
      'lastHit',
    ],
  );
  // 1200 - 35 - 160 - 7 × 100 = 305, shared by questions and answers.
  assert.equal(shown.find((c) => c.key === 'questions')?.width, 152);
  const resized = applyLayout(columns, { ...DEFAULT_LAYOUT, widths: { questions: 300 } }, 1000);
  assert.equal(resized.find((c) => c.key === 'questions')?.width, 300);
  // The answer takes the rest, but never less than a readable minimum.
  assert.equal(resized.find((c) => c.key === 'answer')?.width, 124);
});

function row(name: string, index: number): GridRow {
  const saved = { ruleId: name, ruleName: name } as ConsoleRule;
  return {
    kind: 'rule',
    key: name,
    index,
    rule: { ...EMPTY_RULE, ruleName: name, questions: ['q'], answer: 'a' },
    saved,
  };
}

test('a pasted block follows the columns shown, and rows past the end become new rules', () => {
  const rows = [row('A', 0), row('B', 1)];
  const plan = planPaste(
    rows,
    1,
    ['answer', 'ruleName', 'ruleCategoryId'],
    [
      ['answer B', 'name B', ' 售后 '],
      ['answer C', 'name C', ''],
    ],
    categoryIndex(CATEGORIES),
  );
  assert.equal(plan.edits.length, 1);
  assert.equal(plan.edits[0]?.next.answer, 'answer B');
  assert.equal(plan.edits[0]?.next.ruleName, 'name B');
  assert.equal(plan.edits[0]?.next.ruleCategoryId, '2');
  assert.deepEqual(plan.extra, [{ ...EMPTY_RULE, answer: 'answer C', ruleName: 'name C' }]);
});

test('categories are held by id, and copied and pasted by name', () => {
  const index = categoryIndex(CATEGORIES);
  const rule = { ...EMPTY_RULE, ruleCategoryId: '1' };
  assert.equal(cellText(rule, 'ruleCategoryId', index), 'Billing');
  assert.equal(withCellText(rule, 'ruleCategoryId', '售后', index).ruleCategoryId, '2');
  assert.equal(withCellText(rule, 'ruleCategoryId', '  ', index).ruleCategoryId, '');
  // A name that is no category yet changes nothing: the paste makes it first.
  assert.equal(withCellText(rule, 'ruleCategoryId', 'New', index), rule);
  assert.deepEqual(unknownNames(['New', 'Billing', ' New ', '', 'billing'], index), [
    'New',
    'billing',
  ]);
  // Before the list is read, a rule shows the name it came with.
  const saved = { ruleCategoryId: '9', categoryName: 'Shipping' } as ConsoleRule;
  const shown = { ...row('A', 0), saved, rule: { ...EMPTY_RULE, ruleCategoryId: '9' } } as GridRow;
  assert.equal(categoryLabel(shown, categoryIndex([])), 'Shipping');
  assert.equal(
    categoryLabel(shown, categoryIndex([{ categoryId: '9', name: 'Post', rules: 1 }])),
    'Post',
  );
});

test('the grid reads the rules again when one on screen enters or leaves its window', () => {
  const windowed = (begin: string | null, end: string | null, active = true): GridRow => ({
    ...(row('A', 0) as Extract<GridRow, { kind: 'rule' }>),
    saved: { active, effectBeignDate: begin, effectEndDate: end } as ConsoleRule,
  });
  assert.equal(nextStateChange([windowed(null, null)], NOW), null);
  assert.equal(
    nextStateChange(
      [windowed('2025-06-20T00:00:00Z', null), windowed(null, '2025-06-16T00:00:00Z')],
      NOW,
    ),
    Date.parse('2025-06-16T00:00:00Z') + 1,
  );
  assert.equal(nextStateChange([windowed('2025-06-16T00:00:00Z', null, false)], NOW), null);
  assert.equal(nextStateChange([windowed('2020-01-01T00:00:00Z', null)], NOW), null);
});

test('phrasings compare as a person reads them', () => {
  assert.ok(samePhrasing('How do I return an item?', 'how do i return an item'));
  assert.ok(samePhrasing('怎么退货？', '怎么退货'));
  assert.ok(samePhrasing('ＡＢＣ', 'abc'));
  assert.ok(!samePhrasing('怎么退货', '怎么换货'));
});

test('rules with the very question asked, not in effect, are the skipped ones', () => {
  const base = {
    answer: 'a',
    ruleCategoryId: '',
    state: 'active',
    allowSimGen: null,
    seq: 1,
    createdAt: '',
    updatedAt: '',
    updatedBy: '',
    effectBeignDate: null,
    effectEndDate: null,
  };
  const rules = [
    {
      ...base,
      ruleId: '1',
      ruleName: 'Off',
      questions: ['Can I return it?'],
      active: false,
      state: 'inactive',
    },
    { ...base, ruleId: '2', ruleName: 'On', questions: ['Can I return it?'], active: true },
    {
      ...base,
      ruleId: '3',
      ruleName: 'Old',
      questions: ['can i return it'],
      active: true,
      effectEndDate: '2020-01-01T00:00:00Z',
      state: 'expired',
    },
    {
      ...base,
      ruleId: '4',
      ruleName: 'Other',
      questions: ['Can I return it later?'],
      active: false,
    },
  ] as unknown as ConsoleRule[];
  // Now: the states the service gave.
  assert.deepEqual(skippedAmong(rules, 'Can I return it?', null), [
    { ruleId: '1', ruleName: 'Off', state: 'inactive', date: null },
    { ruleId: '3', ruleName: 'Old', state: 'expired', date: '2020-01-01T00:00:00Z' },
  ]);
  // As of a date in 2019: the old rule was in effect then.
  assert.deepEqual(skippedAmong(rules, 'Can I return it?', Date.parse('2019-06-01T00:00:00Z')), [
    { ruleId: '1', ruleName: 'Off', state: 'inactive', date: null },
  ]);
});
