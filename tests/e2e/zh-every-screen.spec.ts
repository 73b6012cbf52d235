/**
 * A Chinese pass over every screen (issue 29: "English or internal names in the Chinese editor"):
 * in zh-CN, with a tenant registered from the Chinese editor and Chinese data, every screen and
 * dialog is opened as a user would, photographed, and read: no visible text and no accessible
 * name (aria-label, title, placeholder) may hold a Latin word outside a small allow-list
 * (support/visible-words.ts) beyond the data the test seeded.
 */
import type { Page } from '@playwright/test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { SettingsPage } from './page-models/settings-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, translator } from './support/i18n';
import { importRules } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';
import type { RunningService } from './support/service';
import { latinLeaks } from './support/visible-words';

const t = translator('zh-CN');
const COMPANY = '演示商店';
const ADMIN = { username: 'admin_01', mail: 'admin@example.com' };

const RULE_TEXTS: [string, string[], string][] = [
  ['退货政策', ['怎么退货', '可以退货吗'], '签收后 7 天内可无理由退货。'],
  ['运费说明', ['运费多少', '包邮吗'], '满 99 元包邮。'],
  ['发票开具', ['能开发票吗', '怎么开发票'], '下单时填写发票抬头即可。'],
  ['营业时间', ['客服几点上班', '你们几点下班'], '客服每天 9:00–21:00 在线。'],
  ['退款进度', ['退款多久到账', '怎么退货'], '退款 1–3 个工作日原路返回。'],
];
const RULES: RuleInput[] = RULE_TEXTS.map(([ruleName, questions, answer]) => ({
  ruleName,
  questions,
  answerContentType: 'TEXT' as const,
  answer,
}));

/** A tenant registered from the Chinese editor (its robot is named and speaks in Chinese). */
async function seed(service: RunningService) {
  const api = consoleClient(service.baseUrl, service.token);
  const { tenantId } = await api.ok<{ tenantId: number }>('POST', '/tenants', {
    username: ADMIN.username,
    password: 'secret123',
    phoneNumber: '13800138000',
    mail: ADMIN.mail,
    company: COMPANY,
    language: 'zh',
  });
  const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
  const robot = workspace.tenants.find((x) => x.tenantId === tenantId)?.robots[0];
  if (!robot) throw new Error('no robot');
  const seeded = { tenantId, robotId: robot.robotId, robotSecret: robot.robotSecret };
  await importRules(service, seeded, RULES);
  const ask = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
    tenantId,
    robot.robotId,
    seeded.robotSecret,
  );
  for (const [question, user] of [
    ['怎么退货', 'u1'],
    ['运费多少', 'u2'],
    ['支持数字人民币吗', 'u3'],
    ['支持数字人民币吗', 'u4'],
    ['你们几点下班', 'u5'],
  ] as const) {
    await ask.ask(question, user);
  }
  return { ...seeded, robotName: robot.name };
}

test.use({ locale: BROWSER_LOCALE['zh-CN'] });

test('every screen of the Chinese editor speaks Chinese', async ({ page, service }) => {
  test.slow();
  const seeded = await seed(service);
  const data = [
    COMPANY,
    ADMIN.username,
    ADMIN.mail,
    seeded.robotId,
    seeded.robotSecret,
    E2E_CREDENTIALS.customerId,
    E2E_CREDENTIALS.adminKey,
    // The users who asked (the question log names them; the try pane's by the pane's name).
    ...['u1', 'u2', 'u3', 'u4', 'u5'],
  ];
  const leaks: Record<string, string[]> = {};
  const read = async (screen: string, at: Page = page) => {
    const found = await latinLeaks(at, data);
    if (found.length > 0) leaks[screen] = found;
    await shoot(at, `zh-${screen}`);
  };
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await read('workspace');

  await editor.openTenant(COMPANY);
  await read('tenant');
  const tenantPage = page.getByTestId('tenant-page');
  await tenantPage.getByRole('button', { name: `+ ${t('user.add')}` }).click();
  await page.getByTestId('user-dialog').waitFor();
  await read('user-dialog');
  await page
    .getByTestId('user-dialog')
    .getByRole('button', { name: t('common.cancel') })
    .click();

  await editor.openRobot(COMPANY, seeded.robotName);
  await expect(rules.grid.getByRole('row')).toHaveCount(RULES.length + 1);
  await read('rules-grid');

  // The conflicts: two rules share a phrasing.
  const badge = rules.grid.getByTestId('collision-badge').first();
  await expect(badge).toBeVisible({ timeout: 30_000 });
  await read('rules-grid-conflicts');
  await badge.click();
  await page.getByTestId('collisions-dialog').waitFor();
  await read('collisions-dialog');
  await page.keyboard.press('Escape');

  // A rule's matching (menus, negative keywords, similar phrasings).
  await rules.rowNamed('退货政策').getByTestId('matching-cell').click();
  await page.getByTestId('rule-matching-dialog').waitFor();
  await read('rule-matching-dialog');
  await page.keyboard.press('Escape');

  // The import dialog.
  await page
    .getByTestId('rules-view')
    .getByRole('button', { name: t('import.open'), exact: true })
    .click();
  await expect(page.getByTestId('import-dialog')).toContainText(t('import.choose'));
  await read('import-dialog');
  await page.keyboard.press('Escape');

  // The try pane, asked.
  const tryPane = new TryPane(page, 'zh-CN');
  await tryPane.open();
  await tryPane.ask('怎么退货');
  await read('try-pane');
  await tryPane.ask('支持数字人民币吗');
  await read('try-pane-fallback');

  // Help.
  await editor.openHelp();
  await read('help');
  await page.keyboard.press('Escape');

  // Publishing, its versions, test cases and thresholds.
  await editor.sidebar.getByRole('button', { name: t('robot.publishing') }).click();
  const publishing = page.getByTestId('publishing-page');
  await publishing.waitFor();
  await read('publishing');
  for (const tab of [
    'publishing.tab.versions',
    'publishing.tab.tests',
    'publishing.tab.thresholds',
  ] as const) {
    await publishing.getByRole('tab', { name: t(tab) }).click();
    await read(`publishing-${tab.split('.').pop() ?? tab}`);
  }

  // Inbox, dashboard and its question log.
  await editor.sidebar.getByRole('button', { name: t('inbox.title') }).click();
  await page.getByTestId('inbox-page').getByTestId('inbox-group').first().waitFor();
  await read('inbox');
  await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
  await page.getByTestId('dashboard-page').getByTestId('rule-hits').waitFor();
  await read('dashboard');

  // Settings (small talk and embedding model included), the custom model's fields.
  const settings = new SettingsPage(page, 'zh-CN');
  await settings.openFromSidebar(seeded.robotName);
  await read('settings');
  await page.getByTestId('embedding-card').getByTestId('embedding-mode').selectOption('custom');
  await page.getByTestId('embedding-card').scrollIntoViewIfNeeded();
  await read('settings-embedding');
  await settings.view.getByRole('button', { name: t('settings.discard') }).click();

  // API access, and the trash.
  await editor.openApiAccess();
  await read('api-access');
  await editor.sidebar.getByRole('button', { name: t('trash.open'), exact: true }).click();
  await page.getByTestId('trash-page').waitFor();
  await read('trash');

  expect(leaks).toEqual({});
  // The reading finds English where there is some: the same screen in the English editor.
  await editor.setLanguage('English');
  expect(await latinLeaks(page, data)).toContain('Trash');
});
