import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { WorkspacePage } from './page-models/workspace-page';
import { apiNamesIn } from '../unit/renderer/api-names';
import type { MessageKey, MessageParams } from '../../renderer/i18n/types';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);
    /** The sentence of a problem of `field`, as the form says it. */
    const says = (key: MessageKey, field: MessageKey, params: MessageParams = {}) =>
      t(key, { subject: t('problem.subject', { field: t(field) }), ...params });

    test('registers a tenant, with errors next to the fields that name them', async ({
      page,
      service,
    }) => {
      const editor = new EditorPage(page);
      const workspace = new WorkspacePage(page, lang);
      await editor.open(service);
      await expect(page.getByRole('heading', { name: t('home.welcome') })).toBeVisible();
      // The token has left the address bar.
      expect(page.url()).not.toContain('token=');
      await shoot(page, `welcome-${lang}`);

      await workspace.openRegister();
      await workspace.fillTenant({
        company: 'Acme 演示公司',
        username: 'a',
        password: '123',
        phoneNumber: '12345',
        mail: 'not-a-mail',
      });
      const dialog = workspace.registerDialog;
      await expect(workspace.fieldError(dialog, t('user.username'))).toHaveText(
        says('validation.minLength', 'user.username', { count: 2 }),
      );
      await expect(workspace.fieldError(dialog, t('user.password'))).toHaveText(
        says('validation.minLength', 'user.password', { count: 6 }),
      );
      await expect(workspace.fieldError(dialog, t('tenant.phoneNumber'))).toHaveText(
        says('validation.phone', 'tenant.phoneNumber'),
      );
      await expect(workspace.fieldError(dialog, t('tenant.mail'))).toHaveText(
        says('validation.mail', 'tenant.mail'),
      );
      const errors = await dialog.locator('.field-error').allInnerTexts();
      expect(errors).toHaveLength(4);
      for (const error of errors) expect(apiNamesIn(error)).toEqual([]);
      await shoot(page, `register-tenant-errors-${lang}`);

      await workspace.fillTenant({
        username: 'admin_01',
        password: 'secret123',
        phoneNumber: '13800138000',
        mail: 'admin@example.com',
      });
      await workspace.submitRegister();
      await expect(
        workspace.tenantPage.getByRole('heading', { name: 'Acme 演示公司' }),
      ).toBeVisible();
      await expect(workspace.admins()).toHaveCount(1);
      // Named in the editor's language (the robot's name is data, but this one the editor chose).
      const robotName = lang === 'en' ? 'Default robot' : '默认机器人';
      await expect(workspace.robots()).toContainText([robotName]);
      await expect(editor.sidebar.getByRole('button', { name: robotName })).toBeVisible();
      await shoot(page, `tenant-page-${lang}`);

      // The robot made with the tenant speaks the editor's language to its customers.
      const api = consoleClient(service.baseUrl, service.token);
      const made = (await api.ok<ConsoleWorkspace>('GET', '/workspace')).tenants[0]?.robots[0];
      expect(made?.settings.language).toBe(lang === 'en' ? 'en' : 'zh');
      expect(made?.settings.fallbackText).toMatch(lang === 'en' ? /^Sorry/ : /^抱歉/);
    });
  });
}

test.describe('en', () => {
  test.use({ locale: 'en-US' });

  test('adds and edits administrators; creates and renames robots', async ({ page, service }) => {
    const editor = new EditorPage(page);
    const workspace = new WorkspacePage(page);
    await editor.open(service);
    await workspace.openRegister();
    await workspace.fillTenant({
      company: 'Beta Ltd',
      username: 'owner',
      password: 'secret123',
      phoneNumber: '+4420123456',
      mail: 'owner@beta.example',
    });
    await workspace.submitRegister();
    await workspace.tenantPage.waitFor();

    await workspace.addAdmin('张三_admin', 'secret456');
    await expect(workspace.userDialog).toBeHidden();
    await expect(workspace.admins()).toHaveCount(2);
    await expect(workspace.admins().nth(1)).toContainText('张三_admin');

    // A taken name is refused by the service, and said next to the field.
    await workspace.addAdmin('OWNER', 'secret456');
    await expect(workspace.fieldError(workspace.userDialog, 'User name')).toHaveText(
      'Another administrator of this tenant already has this user name.',
    );
    await workspace.userDialog.getByRole('button', { name: 'Cancel' }).click();

    await workspace.editAdmin('张三_admin', 'lisi');
    await expect(workspace.userDialog).toBeHidden();
    await expect(workspace.admins().nth(1)).toContainText('lisi');

    await workspace.createRobot('Support bot');
    await expect(page.getByTestId('rules-view')).toBeVisible();
    await expect(page.getByRole('heading', { name: /Support bot/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No rules yet' })).toBeVisible();
    await shoot(page, 'rules-empty');

    await editor.openTenant('Beta Ltd');
    await workspace.renameRobot('Support bot', 'Helpdesk');
    await expect(workspace.robots()).toContainText(['Default robot', 'Helpdesk']);
    await shoot(page, 'tenant-page');
  });
});
