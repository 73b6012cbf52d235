/**
 * The collision check in the editor: a phrasing added to the wrong rule gets both rules a marker
 * (after the edits settle), the marker's dialog groups the findings by cause with a labelled
 * score and leads to the other rule, the conflicts filter keeps the rules named, and the try
 * pane lists, below the explanation, only the findings that concern the answer it gave.
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
  // The same question twice: a finding that concerns neither 退款 nor 发票.
  { ruleName: '挂失', questions: ['我的银行卡丢了怎么办'] },
  { ruleName: '银行卡丢失', questions: ['我的银行卡丢了该怎么办'] },
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

    test('a phrasing in the wrong rule: marker, dialog by cause, filter, and the try pane below the explanation', async ({
      page,
      service,
    }) => {
      // Many steps, each waiting on the service: more time than one screen's test.
      test.slow();
      const robot = await registerTenant(service);
      await importRules(service, robot, RULES);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(RULES.length);
      const filter = rules.view.getByTestId('conflicts-filter');
      const onlyConflicts = filter.getByRole('checkbox');
      // The first check is back: the two rules written twice, nothing else.
      await expect(filter).toContainText(t('conflicts.filter', { count: 2 }));
      await expect(rules.grid.getByTestId('collision-badge')).toHaveCount(2);

      // The refund rule gets an invoice question: once the edits settle, the check runs again.
      await rules.editQuestions(0, [...(RULES[0]?.questions ?? []), MISPLACED]);
      await expect(filter.getByRole('status')).toHaveText(t('conflicts.checking'));
      const refundBadge = rules.cell(0, 'index').getByTestId('collision-badge');
      await expect(refundBadge).toBeVisible({ timeout: 30_000 });
      await expect(rules.cell(1, 'index').getByTestId('collision-badge')).toBeVisible();
      await expect(rules.cell(2, 'index').getByTestId('collision-badge')).toHaveCount(0);
      await expect(refundBadge).toHaveAttribute('title', new RegExp(MISPLACED));
      await expect(filter).toContainText(t('conflicts.filter', { count: 4 }));

      // The marker's dialog: the findings by cause, each cause with what it means, each score
      // with what it measures; a way to the other rule.
      await refundBadge.click();
      const dialog = page.getByTestId('collisions-dialog');
      await expect(dialog.getByRole('heading').first()).toHaveText(
        t('conflicts.title', { rule: '退款' }),
      );
      const group = dialog.getByTestId('collision-group');
      await expect(group).toHaveCount(1);
      const cause = await group.getAttribute('data-cause');
      expect(['reads-like-other', 'near-duplicate']).toContain(cause);
      await expect(group.getByRole('heading')).toHaveText(
        cause === 'near-duplicate'
          ? t('conflicts.cause.near-duplicate')
          : t('conflicts.cause.reads-like-other'),
      );
      const item = group.getByTestId('collision-item');
      await expect(item).toHaveCount(1);
      await expect(item).toContainText(MISPLACED);
      await expect(item).toContainText('发票');
      await expect(item).toContainText(t('conflicts.similarity', { score: '' }).trim());
      await shoot(page, `collisions-dialog-${lang}`);
      await item.getByRole('button', { name: t('conflicts.open', { rule: '发票' }) }).click();
      await expect(dialog).toHaveCount(0);
      // As from the try pane: a search for its name, the rule in view and highlighted.
      await expect(rules.search).toHaveValue('发票');
      await expect(rules.rowNamed('发票')).toHaveClass(/row-located/);

      // Conflicts only: the four rules named, not the fifth.
      await rules.search.fill('');
      await rules.waitForRows(RULES.length);
      await onlyConflicts.check();
      await expect(rules.total).toHaveText(
        t('rules.countFiltered', { shown: 4, count: RULES.length }),
      );
      await expect(rules.cell(0, 'ruleName')).toHaveText('退款');
      await expect(rules.cell(1, 'ruleName')).toHaveText('发票');

      // The try pane: asked, the phrasing gets its own rule (退款), 发票 close behind. Below the
      // explanation, the finding between them only, not the one between the two card rules
      // (candidates of the question too, at no score).
      const pane = new TryPane(page, lang);
      await pane.open();
      await pane.ask(MISPLACED);
      await expect(pane.verdict).toContainText('退款');
      const note = pane.result.getByTestId('try-collisions');
      await expect(note).toBeVisible();
      await expect(note).toContainText(t('try.collisions'));
      await expect(
        pane.result.locator('[data-testid="try-details"] ~ [data-testid="try-collisions"]'),
      ).toBeVisible();
      const listed = note.getByTestId('collision-item');
      await expect(listed).toHaveCount(1);
      await expect(listed).toContainText(MISPLACED);
      await expect(listed).not.toContainText('挂失');
      await expect(listed).toContainText(t('conflicts.similarity', { score: '' }).trim());
      await expect(
        listed.getByRole('button', { name: t('conflicts.open', { rule: '发票' }) }),
      ).toBeVisible();
      await note.scrollIntoViewIfNeeded();
      await shoot(page, `collisions-${lang}`);

      // The card question: its own finding only.
      await pane.ask('我的银行卡丢了怎么办');
      await expect(listed).toHaveCount(1);
      await expect(listed).toContainText('银行卡丢失');
      await expect(listed).not.toContainText(MISPLACED);
      // A question no finding concerns: no list at all.
      await pane.ask('营业时间是什么时候');
      await expect(pane.verdict).toContainText('营业时间');
      await expect(note).toHaveCount(0);
    });
  });
}

test.describe('a failed check', () => {
  test.use({ locale: BROWSER_LOCALE.en });
  const t = translator('en');

  test('is tried again by itself: the ⚠ goes, the count comes, with no edit', async ({
    page,
    service,
  }) => {
    const robot = await registerTenant(service);
    await importRules(service, robot, RULES);
    // The first check's request is cut, as a service restarting or a dropped connection would.
    let cut = 0;
    await page.route('**/console/api/**/collisions', async (route) => {
      if (cut === 0) {
        cut += 1;
        await route.abort('failed');
      } else await route.continue();
    });
    const editor = new EditorPage(page);
    const rules = new RulesPage(page, 'en');
    await editor.open(service);
    await editor.openRobot('Acme');
    await rules.waitForRows(RULES.length);
    const filter = rules.view.getByTestId('conflicts-filter');
    await expect(filter.getByRole('alert')).toBeVisible();
    await expect(filter).toContainText(t('conflicts.filter', { count: 2 }), { timeout: 60_000 });
    await expect(filter.getByRole('alert')).toHaveCount(0);
    expect(cut).toBe(1);
  });
});
