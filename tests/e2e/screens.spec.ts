/**
 * The screens no other test photographs (dialogs, the API page, help, an empty trash), in both
 * languages, at 1280×800 and 1920×1080: each is opened as a user would and checked to be whole.
 */
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { apiNamesIn } from '../unit/renderer/api-names';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('every dialog and page opens whole, in the editor’s language', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(60));
      const editor = new EditorPage(page);
      await editor.open(service);

      // The tenant's dialogs.
      await editor.openTenant('Acme');
      const tenantPage = page.getByTestId('tenant-page');
      await tenantPage.getByRole('button', { name: `+ ${t('user.add')}` }).click();
      const userDialog = page.getByTestId('user-dialog');
      await expect(userDialog.getByLabel(t('user.username'))).toBeVisible();
      await shoot(page, `user-dialog-${lang}`);
      await userDialog.getByRole('button', { name: t('common.cancel') }).click();
      await tenantPage.getByRole('button', { name: `+ ${t('robot.create')}` }).click();
      const robotDialog = page.getByTestId('robot-dialog');
      await expect(robotDialog.getByLabel(t('robot.nameField'))).toBeVisible();
      await shoot(page, `robot-dialog-${lang}`);
      await robotDialog.getByRole('button', { name: t('common.cancel') }).click();

      // The rules view, its import dialog, and help.
      await editor.openRobot('Acme');
      const view = page.getByTestId('rules-view');
      await expect(view.getByTestId('rule-total')).toHaveText(t('rules.count', { count: 60 }));
      expect(apiNamesIn(await view.innerText())).toEqual([]);
      await shoot(page, `rules-view-${lang}`);
      await view.getByRole('button', { name: t('import.open'), exact: true }).click();
      const importDialog = page.getByTestId('import-dialog');
      await expect(importDialog).toContainText(t('import.choose'));
      await shoot(page, `import-pick-${lang}`);
      await page.keyboard.press('Escape');
      await expect(importDialog).toBeHidden();
      const help = await editor.openHelp();
      await expect(help).toContainText(t('help.title'));
      await shoot(page, `help-${lang}`);
      await page.keyboard.press('Escape');

      // API access, and an empty trash.
      await editor.openApiAccess();
      await shoot(page, `api-access-${lang}`);
      await editor.sidebar.getByRole('button', { name: t('trash.open'), exact: true }).click();
      await expect(page.getByTestId('trash-page')).toContainText(t('trash.empty'));
      await shoot(page, `trash-empty-${lang}`);
    });
  });
}
