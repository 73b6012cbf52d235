/**
 * The editor's address on this computer stays the same across restarts (its token is kept in the
 * data directory): a tab left open and a bookmark (the address bar never shows the token) keep
 * working after one. Replacing the address (API access) keeps this browser's tabs working and
 * turns the old address away.
 */
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('open tabs and bookmarks keep working after a restart; a new address on demand', async ({
      page,
      browser,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(3));
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      const rulesView = page.getByTestId('rules-view');
      await expect(rulesView.getByTestId('rule-total')).toHaveText(t('rules.count', { count: 3 }));
      // What a bookmark keeps: the address bar, without the token.
      const bookmark = page.url();
      expect(bookmark).not.toContain(service.token);
      const printed = service.editorUrl;

      await service.restart();
      expect(service.editorUrl, 'the same address after a restart').toBe(printed);

      // The tab left open: its next calls are answered.
      await editor.openApiAccess();
      await editor.openRobot('Acme');
      await expect(rulesView.getByTestId('rule-total')).toHaveText(t('rules.count', { count: 3 }));
      await editor.openApiAccess();
      // A bookmark opened in a new tab of the same browser.
      const tab = await page.context().newPage();
      await tab.goto(bookmark);
      await expect(tab.getByTestId('rules-view').getByTestId('rule-total')).toHaveText(
        t('rules.count', { count: 3 }),
      );

      // The address card: the token masked, the whole address copied.
      const card = page.getByTestId('editor-address');
      await expect(card).toContainText(t('api.editorTitle'));
      await expect(card.getByTestId('editor-address-value')).not.toContainText(service.token);
      await shoot(page, `editor-address-${lang}`);

      // A new address: this tab and the other tab of this browser keep working ...
      await card.getByRole('button', { name: t('api.editorRotate') }).click();
      const dialog = page.getByTestId('editor-rotate-dialog');
      await expect(dialog).toContainText(t('api.editorRotateText'));
      await shoot(page, `editor-address-rotate-${lang}`);
      await dialog.getByRole('button', { name: t('api.editorRotate') }).click();
      await expect(page.getByText(t('api.editorRotated'))).toBeVisible();
      await editor.openRobot('Acme');
      await expect(rulesView.getByTestId('rule-total')).toHaveText(t('rules.count', { count: 3 }));
      await tab.reload();
      await expect(tab.getByTestId('rules-view').getByTestId('rule-total')).toHaveText(
        t('rules.count', { count: 3 }),
      );

      // ... and the old address, opened in another browser, is turned away.
      const other = await browser.newContext({ locale: BROWSER_LOCALE[lang] });
      try {
        const stranger = await other.newPage();
        await stranger.goto(printed);
        await expect(stranger.getByText(t('token.title'))).toBeVisible();
      } finally {
        await other.close();
      }
    });
  });
}
