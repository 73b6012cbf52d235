import { consoleClient } from '../helpers/console-client';
import type { RulePage } from '../../electron/service/console-types';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';
import type { SeededRobot } from './support/seed';
import type { RunningService } from './support/service';

async function ruleNames(service: RunningService, robot: SeededRobot): Promise<string[]> {
  const api = consoleClient(service.baseUrl, service.token);
  const page = await api.ok<RulePage>(
    'GET',
    `/tenants/${robot.tenantId}/robots/${robot.robotId}/rules?limit=1000`,
  );
  return page.rows.map((rule) => rule.ruleName);
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('a new rule stays where it was added, selected: Delete right after deletes it', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(40));
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(40);

      await rules.addRule();
      // A new draft says nothing is wrong before anything is entered.
      await expect(rules.row(0).locator('.cell-invalid')).toHaveCount(0);
      await expect(rules.status).toHaveText(t('rules.statusHint'));
      await shoot(page, `rules-draft-${lang}`);
      await rules.nameInput().fill('Opening hours');
      await rules.nameInput().press('Enter');
      // Now the missing fields are marked, and said with their names.
      await expect(rules.cell(0, 'questions')).toHaveClass(/cell-invalid/);
      await rules.cell(0, 'answer').click();
      await expect(rules.status).toHaveText(
        t('validation.empty', { subject: t('problem.subject', { field: t('rules.col.answer') }) }),
      );
      await rules.editQuestions(0, ['When are you open?', '几点开门']);
      await rules.editAnswer(0, 'Every day from 9:00 to 18:00.');
      await rules.waitForRows(41);

      // Created: still the first row, marked as added, selected; the save is confirmed.
      await expect(rules.cell(0, 'ruleName')).toHaveText('Opening hours');
      await expect(rules.row(0).getByTestId('added-badge')).toBeVisible();
      await expect(rules.row(0).getByRole('checkbox').first()).toBeChecked();
      await expect(rules.view.getByText(t('rules.selectedCount', { count: 1 }))).toBeVisible();
      await expect(page.getByTestId('save-indicator')).toContainText(
        t('save.savedAt', { time: '' }).trim().split(' ')[0] ?? '',
      );
      await shoot(page, `rules-added-${lang}`);
      await page.keyboard.press('Delete');
      await rules.waitForRows(40);
      await expect(page.getByText(t('rules.deleted', { count: 1 }))).toBeVisible();
      const names = await ruleNames(service, robot);
      expect(names).toHaveLength(40);
      expect(names).not.toContain('Opening hours');
      expect(names).toContain('Rule 0001');
    });

    test('shows whether each rule is in effect now', async ({ page, service }) => {
      const robot = await registerTenant(service);
      const { succeed } = await importRules(service, robot, sampleRules(4));
      const api = consoleClient(service.baseUrl, service.token);
      const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}/rules`;
      const [, second, third, fourth] = succeed;
      await api.ok('PATCH', `${base}/${second?.ruleId}`, { active: false });
      await api.ok('PATCH', `${base}/${third?.ruleId}`, {
        effectBeignDate: '2099-06-01T00:00:00+08:00',
      });
      await api.ok('PATCH', `${base}/${fourth?.ruleId}`, {
        effectBeignDate: '2020-01-01T00:00:00+08:00',
        effectEndDate: '2021-01-01T00:00:00+08:00',
      });
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(4);

      const states = [
        'state.active',
        'state.inactive',
        'state.scheduled',
        'state.expired',
      ] as const;
      for (const [i, state] of states.entries()) {
        await expect(rules.cell(i, 'active')).toHaveText(t(state));
      }
      await expect(rules.cell(2, 'active').locator('[data-state]')).toHaveAttribute(
        'title',
        new RegExp('2099'),
      );
      await shoot(page, `rules-states-${lang}`);
      // A filter for each state; the count says how many of all the rules are shown.
      for (const [i, state] of states.entries()) {
        await rules.filterStatus(t(state));
        await expect(rules.total).toHaveText(t('rules.countFiltered', { shown: 1, count: 4 }));
        await expect(rules.cell(0, 'ruleName')).toHaveText(succeed[i]?.ruleName ?? '');
        await expect(rules.cell(0, 'active')).toHaveText(t(state));
      }
      await shoot(page, `rules-state-filter-${lang}`);
      await rules.filterStatus(t('rules.filterAll'));
      await rules.waitForRows(4);
    });

    test('search finds a rule whatever the case, width or Chinese script typed', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, [
        ...sampleRules(30),
        {
          ruleName: '忘记密码',
          questions: ['忘记密码怎么办'],
          answerContentType: 'TEXT',
          answer: '点击“找回密码”。',
        },
        {
          ruleName: 'Password reset',
          questions: ['How do I reset my Password?'],
          answerContentType: 'TEXT',
          answer: 'Use the reset link.',
        },
      ]);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(32);

      const finds = async (typed: string, ruleName: string) => {
        await rules.search.fill(typed);
        await expect(rules.total).toHaveText(t('rules.countFiltered', { shown: 1, count: 32 }));
        await expect(rules.cell(0, 'ruleName')).toHaveText(ruleName);
      };
      await finds('密碼', '忘记密码');
      await shoot(page, `rules-search-${lang}`);
      await finds('PASSWORD RESET', 'Password reset');
      await finds('ｐａｓｓｗｏｒｄ　ｒｅｓｅｔ', 'Password reset');
      await rules.search.fill('');
      await rules.waitForRows(32);
    });

    test('columns can be hidden, moved and resized, and are remembered', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(3));
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(3);

      // At 1280 pixels every column of the default layout is whole on screen.
      const grid = await rules.grid.boundingBox();
      const headers = rules.grid.getByRole('columnheader');
      await expect(headers).toHaveCount(11);
      for (const box of await headers.evaluateAll((cells) =>
        cells.map((cell) => cell.getBoundingClientRect().toJSON() as DOMRectLike),
      )) {
        expect(box.right).toBeLessThanOrEqual((grid?.x ?? 0) + (grid?.width ?? 0) + 0.5);
      }
      await expect(rules.header('rules.col.hits')).toBeVisible();
      // The least looked-at columns wait in the Columns menu.
      await expect(rules.header('rules.col.updated')).toHaveCount(0);
      await expect(rules.header('rules.col.lastHit')).toHaveCount(0);

      await rules.showColumn('rules.col.hits', false);
      await expect(rules.header('rules.col.hits')).toHaveCount(0);
      await shoot(page, `rules-columns-${lang}`);
      await page.keyboard.press('Escape');
      await rules.header('rules.col.answer').dragTo(rules.header('rules.col.questions'));
      await expect(headers.nth(3)).toHaveText(t('rules.col.answer'));
      const before = (await rules.header('rules.col.ruleName').boundingBox())?.width ?? 0;
      await rules.resizeColumn('rules.col.ruleName', 80);
      await expect
        .poll(async () => (await rules.header('rules.col.ruleName').boundingBox())?.width ?? 0)
        .toBeGreaterThan(before + 40);

      await page.reload();
      await rules.waitForRows(3);
      await expect(rules.header('rules.col.hits')).toHaveCount(0);
      await expect(headers.nth(3)).toHaveText(t('rules.col.answer'));
      expect((await rules.header('rules.col.ruleName').boundingBox())?.width ?? 0).toBeGreaterThan(
        before + 40,
      );

      await rules.resetColumns();
      await expect(rules.header('rules.col.hits')).toBeVisible();
      await expect(headers.nth(3)).toHaveText(t('rules.col.questions'));
      expect((await rules.header('rules.col.ruleName').boundingBox())?.width ?? 0).toBeCloseTo(
        before,
        0,
      );
    });
  });
}

interface DOMRectLike {
  right: number;
}
