import type {
  ConsoleTrash,
  ConsoleWorkspace,
  RulePage,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { SettingsPage } from './page-models/settings-page';
import { TrashPage } from './page-models/trash-page';
import { WorkspacePage } from './page-models/workspace-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';
import type { RunningService } from './support/service';

/** What the service has: the live workspace and its trash. */
function serviceView(service: RunningService) {
  const api = consoleClient(service.baseUrl, service.token);
  return {
    workspace: () => api.ok<ConsoleWorkspace>('GET', '/workspace'),
    trash: () => api.ok<ConsoleTrash>('GET', '/trash'),
    api,
  };
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('deletes a robot, an administrator and a tenant after asking; undo and the Trash bring them back', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service, 'Acme');
      await registerTenant(service, 'Globex');
      const view = serviceView(service);
      const tenant = `/tenants/${robot.tenantId}`;
      await view.api.ok('POST', `${tenant}/robots`, { name: 'Support bot' });
      await view.api.ok('POST', `${tenant}/users`, {
        username: 'editor_02',
        password: 'secret123',
        role: 'ADMIN',
      });
      await importRules(service, robot, sampleRules(3));
      const editor = new EditorPage(page);
      const workspace = new WorkspacePage(page, lang);
      const trash = new TrashPage(page, lang);
      await editor.open(service);
      await editor.openTenant('Acme');
      await expect(workspace.robots()).toHaveCount(2);

      // A robot: asked first (Cancel deletes nothing), then deleted; Undo brings it back.
      await trash.askDeleteRobot(t('robot.defaultName'));
      await expect(trash.confirm).toContainText(t('robot.deleteText', { count: 3 }));
      await expect(trash.confirm).toContainText(t('trash.keptText'));
      await shoot(page, `delete-robot-${lang}`);
      await trash.confirm.getByRole('button', { name: t('common.cancel') }).click();
      expect((await view.workspace()).tenants[0]?.robots).toHaveLength(2);
      await trash.askDeleteRobot(t('robot.defaultName'));
      await trash.confirmWith(t('robot.deleteConfirm'));
      await expect(workspace.robots()).toHaveCount(1);
      await expect(trash.toast(t('robot.deleted', { name: t('robot.defaultName') }))).toBeVisible();
      expect((await view.trash()).robots.map((r) => r.name)).toEqual(['Default robot']);
      await trash.undo(t('robot.deleted', { name: t('robot.defaultName') }));
      await expect(workspace.robots()).toHaveCount(2);
      expect((await view.trash()).robots).toEqual([]);
      // Its rules came back with it.
      const rules = await view.api.ok<RulePage>(
        'GET',
        `${tenant}/robots/${robot.robotId}/rules?limit=10`,
      );
      expect(rules.total).toBe(3);

      // An administrator: deleted, then restored from the Trash page.
      await trash.askDeleteUser('editor_02');
      await expect(trash.confirm).toContainText(t('user.deleteText'));
      await trash.confirmWith(t('user.deleteConfirm'));
      await expect(workspace.admins()).toHaveCount(1);
      await trash.askDeleteRobot('Support bot');
      await trash.confirmWith(t('robot.deleteConfirm'));
      await expect(workspace.robots()).toHaveCount(1);
      await trash.openTrash();
      await expect(trash.rows('trash.users')).toHaveCount(1);
      await expect(trash.rows('trash.users')).toContainText('editor_02');
      await expect(trash.rows('trash.users')).toContainText('Acme');
      await expect(trash.rows('trash.robots')).toContainText('Support bot');
      await shoot(page, `trash-${lang}`);
      await trash.restore('editor_02');
      await expect(trash.toast(t('trash.restored', { name: 'editor_02' }))).toBeVisible();
      await expect(trash.trashPage.getByRole('table', { name: t('trash.users') })).toBeHidden();
      await editor.openTenant('Acme');
      await expect(workspace.admins()).toHaveCount(2);

      // A tenant: gone from the sidebar, then back from the Trash.
      await trash.askDeleteTenant();
      await expect(trash.confirm).toContainText(t('tenant.deleteText'));
      await shoot(page, `delete-tenant-${lang}`);
      await trash.confirmWith(t('tenant.deleteConfirm'));
      await expect(editor.sidebar.getByRole('button', { name: /Acme/ })).toHaveCount(0);
      expect((await view.workspace()).tenants.map((x) => x.company)).toEqual(['Globex']);
      await trash.openTrash();
      await expect(trash.rows('trash.tenants')).toContainText('Acme');
      await trash.restore('Acme');
      await expect(editor.sidebar.getByRole('button', { name: /Acme/ })).toHaveCount(1);
      await expect(trash.rows('trash.robots')).toContainText('Support bot');
      expect((await view.workspace()).tenants.map((x) => x.company).sort()).toEqual([
        'Acme',
        'Globex',
      ]);
    });

    test('deletes a robot from its settings page, back on its tenant with Undo', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service, 'Acme');
      const view = serviceView(service);
      await view.api.ok('POST', `/tenants/${robot.tenantId}/robots`, { name: 'Support bot' });
      const editor = new EditorPage(page);
      const workspace = new WorkspacePage(page, lang);
      const settings = new SettingsPage(page, lang);
      const trash = new TrashPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme', 'Support bot');
      await settings.openFromSidebar('Support bot');

      await settings.view
        .getByRole('button', { name: t('robot.deleteConfirm') })
        .scrollIntoViewIfNeeded();
      await shoot(page, `settings-delete-${lang}`);
      await settings.view.getByRole('button', { name: t('robot.deleteConfirm') }).click();
      await trash.confirm.waitFor();
      await expect(trash.confirm).toContainText(t('robot.deleteText', { count: 0 }));
      await trash.confirmWith(t('robot.deleteConfirm'));
      await expect(workspace.tenantPage).toBeVisible();
      await expect(workspace.robots()).toHaveCount(1);
      expect((await view.trash()).robots.map((r) => r.name)).toEqual(['Support bot']);
      await trash.undo(t('robot.deleted', { name: 'Support bot' }));
      await expect(workspace.robots()).toHaveCount(2);
      expect((await view.trash()).robots).toEqual([]);
    });

    test('restores deleted rules from the robot’s trash, at their place', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service, 'Acme');
      const { succeed } = await importRules(service, robot, sampleRules(5));
      const view = serviceView(service);
      const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}/rules`;
      const ids = succeed.map((rule) => rule.ruleId);
      await view.api.ok('POST', `${base}/delete`, { ruleIds: [ids[1], ids[3]] });
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      const trash = new TrashPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(3);

      await trash.openRuleTrash();
      const list = trash.ruleTrash.getByRole('table', { name: t('ruleTrash.list') });
      await expect(list.locator('tbody tr')).toHaveCount(2);
      const restoreButton = trash.ruleTrash.getByRole('button', {
        name: t('ruleTrash.restore', { count: 1 }),
      });
      await trash.ruleTrash
        .getByRole('checkbox', { name: t('ruleTrash.selectNamed', { name: 'Rule 0002' }) })
        .check();
      await shoot(page, `rule-trash-${lang}`);
      await restoreButton.click();
      await trash.ruleTrash.waitFor({ state: 'detached' });
      await expect(trash.toast(t('ruleTrash.restored', { count: 1 }))).toBeVisible();
      await rules.waitForRows(4);
      await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
      const page2 = await view.api.ok<RulePage>('GET', `${base}?limit=10&sort=created`);
      expect(page2.rows.map((r) => r.ruleName)).toEqual([
        'Rule 0001',
        'Rule 0002',
        'Rule 0003',
        'Rule 0005',
      ]);

      await trash.openRuleTrash();
      await expect(list.locator('tbody tr')).toHaveCount(1);
      await expect(list).toContainText('Rule 0004');
    });
  });
}
