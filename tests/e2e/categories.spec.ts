import type { ConsoleCategory, ConsoleRule, RulePage } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { CategoriesDialog } from './page-models/categories-dialog';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';
import type { SeededRobot } from './support/seed';
import type { RunningService } from './support/service';

function robotApi(service: RunningService, robot: SeededRobot) {
  const api = consoleClient(service.baseUrl, service.token);
  const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
  return {
    categories: async () =>
      (await api.ok<{ categories: ConsoleCategory[] }>('GET', `${base}/categories`)).categories,
    rules: async () =>
      (await api.ok<RulePage>('GET', `${base}/rules?limit=1000&sort=created`)).rows,
    file: (ruleIds: string[], category: string) =>
      api.ok('POST', `${base}/rules/set-category`, { ruleIds, category }),
  };
}

/** Rule name → its category's name, as the service has them. */
async function filed(rules: Promise<ConsoleRule[]>): Promise<Record<string, string>> {
  return Object.fromEntries((await rules).map((rule) => [rule.ruleName, rule.categoryName]));
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);
    const [billing, shipping, returns] =
      lang === 'en' ? ['Billing', 'Shipping', 'Returns'] : ['账单', '配送', '退货'];

    test('manages the robot’s categories: counts, create, rename, merge, delete', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      const { succeed } = await importRules(service, robot, sampleRules(6));
      const api = robotApi(service, robot);
      const ids = succeed.map((rule) => rule.ruleId);
      await api.file(ids.slice(0, 3), billing);
      await api.file([ids[3] ?? ''], shipping);
      await api.file([ids[4] ?? ''], returns);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      const categories = new CategoriesDialog(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(6);

      await categories.open();
      await expect(categories.rows).toHaveCount(3);
      await expect(categories.row(billing)).toContainText(t('rules.count', { count: 3 }));
      await expect(categories.row(shipping)).toContainText(t('rules.count', { count: 1 }));

      // Created; a name the robot has already is refused next to the field.
      await categories.create(lang === 'en' ? 'Gifts' : '礼品卡');
      await expect(categories.rows).toHaveCount(4);
      await categories.create(` ${billing} `);
      await expect(categories.dialog.locator('.field-error')).toHaveText(
        t('errors.categoryNameTaken'),
      );
      await shoot(page, `categories-${lang}`);

      // Renamed: the grid shows the new name.
      const delivery = lang === 'en' ? 'Delivery' : '物流';
      await categories.rename(shipping, delivery);
      await expect(categories.row(delivery)).toBeVisible();
      expect((await filed(api.rules()))['Rule 0004']).toBe(delivery);

      // Two merged into one: the rules of the other follow, the other is gone.
      const merge = await categories.merge([delivery, returns], delivery);
      await expect(merge).toContainText(t('categories.mergeText', { name: delivery }));
      await shoot(page, `categories-merge-${lang}`);
      await merge.getByRole('button', { name: t('categories.mergeConfirm'), exact: true }).click();
      await expect(
        page.getByText(t('categories.merged', { name: delivery, count: 1 })),
      ).toBeVisible();
      await expect(categories.rows).toHaveCount(3);
      await expect(categories.row(delivery)).toContainText(t('rules.count', { count: 2 }));
      expect((await filed(api.rules()))['Rule 0005']).toBe(delivery);

      // Deleted after a confirmation: its rules are kept, without a category.
      const confirm = await categories.delete(billing);
      await expect(confirm).toContainText(t('categories.deleteText', { count: 3 }));
      await shoot(page, `categories-delete-${lang}`);
      await confirm.getByRole('button', { name: t('categories.delete'), exact: true }).click();
      await expect(categories.row(billing)).toHaveCount(0);
      const after = await filed(api.rules());
      expect(Object.keys(after)).toHaveLength(6);
      expect([after['Rule 0001'], after['Rule 0002'], after['Rule 0003']]).toEqual(['', '', '']);
      expect((await api.categories()).map((c) => c.name).sort()).toEqual(
        [delivery, lang === 'en' ? 'Gifts' : '礼品卡'].sort(),
      );

      // "No category" lists the rules without one, not every rule.
      await categories.close();
      await rules.filterCategory(t('rules.noCategory'));
      await expect(rules.total).toHaveText(t('rules.countFiltered', { shown: 4, count: 6 }));
      await expect(rules.cell(0, 'ruleName')).toHaveText('Rule 0001');
      await rules.filterCategory(t('rules.filterAll'));
      await rules.waitForRows(6);
      await categories.open();

      // The count of a category shows its rules in the grid.
      await categories.showRules(delivery);
      await expect(categories.dialog).toBeHidden();
      await rules.waitForRows(2);
      await expect(rules.categoryFilter()).toHaveValue(
        (await api.categories()).find((c) => c.name === delivery)?.categoryId ?? '',
      );
      await rules.revealColumn('category');
      await expect(rules.cell(0, 'category')).toHaveText(delivery);
    });

    test('the category column picks from the list, and makes a new one when asked', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(3));
      const api = robotApi(service, robot);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(3);
      const categories = new CategoriesDialog(page, lang);
      await categories.open();
      await categories.create(billing);
      await expect(categories.rows).toHaveCount(1);
      await categories.close();

      const picker = await rules.openCategory(0);
      await expect(picker.getByRole('option')).toHaveText([t('rules.noCategory'), `${billing}0`]);
      await shoot(page, `category-picker-${lang}`);
      await picker.getByRole('option', { name: billing }).click();
      await expect(rules.cell(0, 'category')).toHaveText(billing);
      const made = (await api.categories())[0];
      await expect.poll(async () => (await api.rules())[0]?.ruleCategoryId).toBe(made?.categoryId);

      // A name that is no category yet is offered, and made.
      const fresh = lang === 'en' ? 'Opening hours' : '营业时间';
      await rules.createCategory(1, fresh);
      await expect(rules.cell(1, 'category')).toHaveText(fresh);
      await expect
        .poll(async () => (await api.categories()).map((c) => [c.name, c.rules]))
        .toContainEqual([fresh, 1]);

      // None; undone, the category is back.
      await rules.pickCategory(0, null);
      await expect(rules.cell(0, 'category')).toHaveText('');
      await rules.clickToolbar(t('rules.undo'));
      await expect(rules.cell(0, 'category')).toHaveText(billing);

      // Pasted by name: a new name is made too.
      const pasted = lang === 'en' ? 'Pasted' : '粘贴的分类';
      await rules.pasteOn(rules.cell(1, 'category'), `${pasted}\r\n${billing}\r\n`);
      await expect(rules.cell(2, 'category')).toHaveText(billing);
      await expect(rules.cell(1, 'category')).toHaveText(pasted);
      expect(await filed(api.rules())).toEqual({
        'Rule 0001': billing,
        'Rule 0002': pasted,
        'Rule 0003': billing,
      });
      await rules.filterCategory(billing);
      await rules.waitForRows(2);
      await expect(rules.total).toHaveText(t('rules.countFiltered', { shown: 2, count: 3 }));
    });
  });
}
