import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { WorkspacePage } from './page-models/workspace-page';

test.use({ locale: 'en-US' });

test('registers a tenant, with errors shown next to the fields', async ({ page, service }) => {
  const editor = new EditorPage(page);
  const workspace = new WorkspacePage(page);
  await editor.open(service);
  await expect(page.getByRole('heading', { name: 'Welcome to KB Studio' })).toBeVisible();
  // The token has left the address bar.
  expect(page.url()).not.toContain('token=');
  await shoot(page, 'welcome');

  await workspace.openRegister();
  await workspace.fillTenant({
    company: 'Acme 演示公司',
    username: 'a',
    password: '123',
    phoneNumber: '12345',
    mail: 'not-a-mail',
  });
  const dialog = workspace.registerDialog;
  await expect(workspace.fieldError(dialog, 'User name')).toHaveText(
    'User name must be at least 2 characters long.',
  );
  await expect(workspace.fieldError(dialog, 'Password')).toHaveText(
    'Password must be at least 6 characters long.',
  );
  await expect(workspace.fieldError(dialog, 'Phone number')).toContainText(
    'Phone number must be a mainland China mobile number',
  );
  await expect(workspace.fieldError(dialog, 'E-mail')).toHaveText(
    'E-mail must be an e-mail address such as name@example.com.',
  );
  await shoot(page, 'register-tenant-errors');

  await workspace.fillTenant({
    username: 'admin_01',
    password: 'secret123',
    phoneNumber: '13800138000',
    mail: 'admin@example.com',
  });
  await workspace.submitRegister();
  await expect(workspace.tenantPage.getByRole('heading', { name: 'Acme 演示公司' })).toBeVisible();
  await expect(workspace.admins()).toHaveCount(1);
  await expect(workspace.robots()).toContainText(['Default robot']);
  await expect(editor.sidebar.getByRole('button', { name: /Default robot/ })).toBeVisible();
});

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
