/**
 * Test cases in the editor: the rule picked by name (a combobox that searches the robot's rules),
 * a name typed wrong said at the rule field, a case changed in its form, and a failed case's
 * actions (open its rule in the grid, accept the answer given as the new expectation).
 */
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';

const RULES = [
  {
    ruleName: 'Returns policy',
    questions: ['How do I return an item?', 'Can I send my order back?'],
    answerContentType: 'TEXT' as const,
    answer: 'You can return any item within 7 days.',
  },
  {
    ruleName: 'Refund delay',
    questions: ['When will I get my refund?'],
    answerContentType: 'TEXT' as const,
    answer: 'Refunds arrive within 3 working days.',
  },
  {
    ruleName: 'Opening hours',
    questions: ['When do you open?'],
    answerContentType: 'TEXT' as const,
    answer: 'From 9 to 6.',
  },
];

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('a rule picked by name, a typo said at its field, a case edited, a failed case fixed', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, RULES);
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      const openTests = async () => {
        const publishing = await editor.openPublishing();
        await publishing.getByRole('tab', { name: t('publishing.tab.tests') }).click();
      };
      await openTests();
      const view = page.getByTestId('publishing-page');
      const form = view.getByTestId('case-add');
      const question = form.getByRole('textbox', { name: t('tests.question') });
      const rule = form.getByRole('combobox', { name: t('tests.ruleName') });
      const add = form.getByRole('button', { name: t('tests.add') });
      const cases = view.getByRole('table').first();

      // The rule is found by a part of its name and picked from the list.
      await question.fill('How do I return an item?');
      await rule.fill('eturn');
      await form.getByRole('option', { name: /Returns policy/ }).click();
      await expect(rule).toHaveValue('Returns policy');
      await add.click();
      await expect(
        cases.getByRole('row').filter({ hasText: 'How do I return an item?' }),
      ).toContainText('Returns policy');

      // A name typed wrong: said at the rule's field, with the name typed; nothing is added.
      await question.fill('When will I get my refund?');
      await rule.fill('Openin hour');
      await add.click();
      const said = t('tests.noSuchRule', { name: 'Openin hour' });
      await expect(rule).toHaveAttribute('aria-invalid', 'true');
      await expect(rule).toHaveAccessibleDescription(said);
      await expect(cases.getByRole('row')).toHaveCount(2);
      await shoot(page, `test-cases-typo-${lang}`);
      // Picked with the keyboard instead: the message goes, the case is added.
      await rule.fill('Opening');
      await expect(form.getByRole('option', { name: /Opening hours/ })).toBeVisible();
      await rule.press('ArrowDown');
      await rule.press('ArrowUp');
      await rule.press('Enter');
      await expect(rule).toHaveValue('Opening hours');
      await expect(rule).not.toHaveAttribute('aria-invalid', 'true');
      await add.click();
      await expect(cases.getByRole('row')).toHaveCount(3);

      // A case changed in its form: another question.
      await cases
        .getByRole('row')
        .filter({ hasText: 'How do I return an item?' })
        .getByRole('button', { name: t('common.edit') })
        .click();
      const edit = cases.locator('form');
      await edit
        .getByRole('textbox', { name: t('tests.question') })
        .fill('Can I send my order back?');
      await expect(edit.getByRole('combobox', { name: t('tests.ruleName') })).toHaveValue(
        'Returns policy',
      );
      await edit.getByRole('button', { name: t('common.save') }).click();
      await expect(cases.locator('form')).toHaveCount(0);
      await expect(cases).toContainText('Can I send my order back?');
      await expect(cases).not.toContainText('How do I return an item?');

      // The run: the refund question, expecting Opening hours, fails; its row says what to do.
      const run = view.getByTestId('test-run');
      await run.getByRole('button', { name: t('tests.runAll') }).click();
      const actions = run.getByRole('group', { name: t('tests.fix.title') });
      await expect(actions).toHaveCount(1);
      await expect(
        actions.getByRole('button', { name: t('tests.fix.teach', { rule: 'Opening hours' }) }),
      ).toBeVisible();
      await shoot(page, `test-cases-failed-${lang}`);

      // Open the expected rule: the grid shows it.
      await actions
        .getByRole('button', { name: t('tests.fix.open', { rule: 'Opening hours' }) })
        .click();
      const rulesView = page.getByTestId('rules-view');
      await expect(rulesView.getByRole('searchbox', { name: t('rules.search') })).toHaveValue(
        'Opening hours',
      );
      await expect(rulesView.getByRole('row').filter({ hasText: 'Opening hours' })).toHaveCount(1);

      // Back to the run: accept the answer given as the expectation; the next run passes.
      await openTests();
      // A kept run is named by what it tested and when (no "#1", nothing English in Chinese).
      const [before, after] = t('tests.runOf.draft', { time: '\u0000' }).split('\u0000');
      const draftRun = new RegExp(
        `^${escapeRegExp(before ?? '')}.+${escapeRegExp(after ?? '')} · `,
      );
      const kept = run.locator('.run-list');
      await expect(kept.getByRole('button', { name: draftRun })).toHaveCount(1);
      await expect(kept).not.toContainText('#');
      if (lang === 'zh-CN') await expect(kept).not.toContainText(/draft|Draft/);
      await shoot(page, `test-runs-kept-${lang}`);
      await kept.getByRole('button', { name: draftRun }).first().click();
      await actions.getByRole('button', { name: t('tests.fix.accept') }).click();
      await expect(actions.getByRole('status')).toHaveText(t('tests.fix.accepted'));
      await expect(
        cases.getByRole('row').filter({ hasText: 'When will I get my refund?' }),
      ).toContainText('Refund delay');
      await run.getByRole('button', { name: t('tests.runAll') }).click();
      const allPassed = t('tests.summary', {
        passed: 2,
        failed: 0,
        nowFailing: 0,
        nowPassing: 1,
        ms: 0,
      });
      await expect(run.getByTestId('run-summary')).toContainText(
        allPassed.split(/[（(]/)[0]?.trim() ?? allPassed,
      );
      await expect(actions).toHaveCount(0);

      // The last two runs compared: named as the list names them.
      await run.getByRole('button', { name: t('tests.compareLast') }).click();
      const compared = run.getByTestId('run-comparison').getByRole('heading');
      await expect(compared).toHaveText(
        new RegExp(`${draftRun.source.slice(1, -3)}.*${draftRun.source.slice(1, -3)}`),
      );
      await expect(compared).not.toContainText('#');
      await shoot(page, `test-runs-compared-${lang}`);
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
