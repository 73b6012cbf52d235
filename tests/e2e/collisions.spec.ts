/**
 * The collision check in the editor: a phrasing added to the wrong rule gets both rules a marker
 * (after the edits settle), the marker's dialog leads to the other rule, the conflicts filter
 * keeps the two rules, and the try pane says why the question went to the other rule.
 */
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';

const RULES = [
  { ruleName: '退款', questions: ['怎么退款', '退款多久到账', '申请退款'] },
  { ruleName: '发票', questions: ['怎么开发票', '发票怎么开', '电子发票在哪里下载'] },
  { ruleName: '营业时间', questions: ['你们几点开门', '营业时间是什么时候'] },
].map((rule) => ({
  ...rule,
  answerContentType: 'TEXT' as const,
  answer: `关于${rule.ruleName}。`,
}));

const MISPLACED = '发票怎么开具';

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('a phrasing closer to another rule: marker, dialog, filter and try pane', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, RULES);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(3);
      const filter = rules.view.getByTestId('conflicts-filter');
      const onlyConflicts = filter.getByRole('checkbox');
      // The first check is back: nothing collides yet.
      await expect(filter).toContainText(t('conflicts.filter', { count: 0 }));
      await expect(rules.grid.getByTestId('collision-badge')).toHaveCount(0);

      // The refund rule gets an invoice question: once the edits settle, the check runs again.
      await rules.editQuestions(0, [...(RULES[0]?.questions ?? []), MISPLACED]);
      await expect(filter.getByRole('status')).toHaveText(t('conflicts.checking'));
      const refundBadge = rules.cell(0, 'index').getByTestId('collision-badge');
      await expect(refundBadge).toBeVisible({ timeout: 30_000 });
      await expect(rules.cell(1, 'index').getByTestId('collision-badge')).toBeVisible();
      await expect(rules.cell(2, 'index').getByTestId('collision-badge')).toHaveCount(0);
      await expect(refundBadge).toHaveAttribute('title', new RegExp(MISPLACED));
      await expect(filter).toContainText(t('conflicts.filter', { count: 2 }));

      // The marker's dialog says which phrasing goes to which rule, and leads there.
      await refundBadge.click();
      const dialog = page.getByTestId('collisions-dialog');
      await expect(dialog.getByRole('heading')).toHaveText(t('conflicts.title', { rule: '退款' }));
      const item = dialog.getByTestId('collision-item').first();
      await expect(item).toContainText(MISPLACED);
      await expect(item).toContainText('发票');
      await shoot(page, `collisions-dialog-${lang}`);
      await item.getByRole('button', { name: t('conflicts.open', { rule: '发票' }) }).click();
      await expect(dialog).toHaveCount(0);
      // As from the try pane: a search for its name, the rule in view and highlighted.
      await expect(rules.search).toHaveValue('发票');
      await expect(rules.rowNamed('发票')).toHaveClass(/row-located/);

      // Conflicts only: the two rules of the collision, not the third.
      await rules.search.fill('');
      await rules.waitForRows(3);
      await onlyConflicts.check();
      await expect(rules.total).toHaveText(t('rules.countFiltered', { shown: 2, count: 3 }));
      await expect(rules.cell(0, 'ruleName')).toHaveText('退款');
      await expect(rules.cell(1, 'ruleName')).toHaveText('发票');

      // The try pane: the question goes to the invoice rule, and says the two rules collide.
      const pane = new TryPane(page, lang);
      await pane.open();
      await pane.ask(MISPLACED);
      const note = pane.result.getByTestId('try-collisions');
      await expect(note).toBeVisible();
      await expect(note).toContainText(t('try.collisions'));
      // The answer's rule (refunds) loses the phrasing to invoices: said once, from its side.
      await expect(note.getByRole('listitem').first()).toHaveText(
        new RegExp(
          `^${t('conflicts.loses', {
            rule: '退款',
            question: MISPLACED,
            other: '发票',
            otherQuestion: '.+',
          }).replace(/[()（）]/g, '.')}`,
        ),
      );
      await expect(
        note.getByRole('button', { name: t('conflicts.open', { rule: '发票' }) }).first(),
      ).toBeVisible();
      await shoot(page, `collisions-${lang}`);
    });
  });
}
