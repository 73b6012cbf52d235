import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { importRules, registerTenant, sampleRules } from './support/seed';

test.use({ locale: 'en-US' });

test('switches to Chinese and back, with numbers and dates in the locale', async ({
  page,
  service,
}) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(1234));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await expect(rules.total).toHaveText('1,234 rules');

  await editor.setLanguage('简体中文');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(rules.total).toHaveText('1,234 条规则');
  await expect(rules.view.getByRole('button', { name: '+ 添加规则' })).toBeVisible();
  await expect(rules.grid.getByRole('columnheader', { name: '规则名称' })).toBeVisible();
  // The updated column uses the Chinese date format (year first), the full date in its tooltip.
  await new RulesPage(page, 'zh-CN').showColumn('rules.col.updated', true);
  await page.keyboard.press('Escape');
  await rules.revealColumn('updated');
  await expect(rules.cell(0, 'updated')).toHaveText(/^\d{4}\/\d{2}\/\d{2}$/);
  await expect(rules.cell(0, 'updated').locator('span')).toHaveAttribute('title', /年/);
  await rules.revealColumn('ruleName');
  // Validation messages follow the language.
  await new RulesPage(page, 'zh-CN').editText(0, 'ruleName', '   ');
  await rules.cell(0, 'ruleName').click();
  await expect(rules.status).toHaveText('「规则名称」不能只包含空白。');
  await page.keyboard.press('Escape');
  await shoot(page, 'rules-chinese');

  // The choice is kept.
  await page.reload();
  await expect(rules.total).toHaveText('1,234 条规则');
  const help = await editor.openHelp();
  await expect(help.getByRole('heading', { name: '键盘快捷键' })).toBeVisible();
  await shoot(page, 'help-chinese');
  await page.keyboard.press('Escape');

  await editor.setLanguage('English');
  await expect(rules.total).toHaveText('1,234 rules');
  const helpEn = await editor.openHelp();
  await expect(helpEn.getByText('Undo', { exact: true })).toBeVisible();
  await shoot(page, 'help');
});
