/**
 * A Chinese pass over every screen (issue 29: "English or internal names in the Chinese editor"):
 * in zh-CN, with a tenant registered from the Chinese editor and Chinese data, every screen and
 * dialog is opened as a user would, photographed, and read: no visible text and no accessible
 * name (aria-label, title, placeholder) may hold a Latin word outside a small allow-list
 * (support/visible-words.ts) beyond the data the test seeded.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import type {
  ConsoleWorkspace,
  RulePage,
  SmallTalkIntentView,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { ImportDialog } from './page-models/import-dialog';
import { RulesPage } from './page-models/rules-page';
import { SettingsPage } from './page-models/settings-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, translator } from './support/i18n';
import { importRules } from './support/seed';
import { E2E_CREDENTIALS, startService } from './support/service';
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

/**
 * A small sheet as a Chinese user fills the template: a good row, a row without an answer and a
 * name repeated within the file (the preview says both), at `path`.
 */
function writeChineseSheet(path: string): void {
  const rows = [
    ['规则名称', '问法1', '问法2', '答案', '分类'],
    ['会员积分', '积分怎么用', '积分能抵现吗', '每 100 积分抵 1 元。', '会员'],
    ['会员等级', '怎么升级会员', '', '', '会员'],
    ['会员积分', '积分会过期吗', '', '积分有效期两年。', '会员'],
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), '规则');
  writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
}

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
  const read = async (screen: string, at: Page = page, more: readonly string[] = []) => {
    const found = await latinLeaks(at, [...more, ...data]);
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

  // The grid's cell editors: the name's text box and the answer's dialog (named in Chinese).
  await rules.cell(0, 'ruleName').dblclick();
  const nameEditor = rules.grid.getByRole('textbox', {
    name: t('rules.col.ruleName'),
    exact: true,
  });
  await nameEditor.waitFor();
  await read('grid-name-editor');
  await nameEditor.press('Escape');
  await nameEditor.waitFor({ state: 'detached' });
  await rules.cell(0, 'answer').dblclick();
  const answerEditor = page.getByRole('dialog', { name: t('rules.col.answer') });
  await answerEditor.waitFor();
  await read('grid-answer-editor');
  await page.keyboard.press('Escape');
  await answerEditor.waitFor({ state: 'detached' });

  // The import dialog.
  await page
    .getByTestId('rules-view')
    .getByRole('button', { name: t('import.open'), exact: true })
    .click();
  await expect(page.getByTestId('import-dialog')).toContainText(t('import.choose'));
  await read('import-dialog');
  // Its preview, once a file is chosen: the mapping, the rows, the problems found.
  const sheet = test.info().outputPath('规则导入.xlsx');
  writeChineseSheet(sheet);
  const importer = new ImportDialog(page, 'zh-CN');
  await importer.chooseFile(sheet);
  await expect(importer.summary).toHaveText(
    t('import.summary', { count: 3, ready: 1, invalid: 2 }),
  );
  await read('import-preview');
  await importer.dialog.getByText(t('import.advanced'), { exact: true }).click();
  await read('import-preview-advanced');
  await page.keyboard.press('Escape');
  await importer.dialog.waitFor({ state: 'hidden' });

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
  const publishing = await editor.openPublishing();
  await read('publishing');
  for (const tab of [
    'publishing.tab.versions',
    'publishing.tab.tests',
    'publishing.tab.thresholds',
  ] as const) {
    await publishing.getByRole('tab', { name: t(tab) }).click();
    await read(`publishing-${tab.split('.').pop() ?? tab}`);
  }

  // Review mode: the switch asks first; then a change, its preview, a second version and the
  // diff between the two real versions; the rollback asks in the editor's own dialog.
  await publishing.getByRole('tab', { name: t('publishing.tab.versions') }).click();
  await publishing
    .getByRole('combobox', { name: t('publishing.modeLabel') })
    .selectOption('review');
  const switching = page.getByTestId('mode-switch-dialog');
  await expect(switching).toContainText(t('publishing.switchPublishes', { version: 1 }));
  await read('mode-switch-dialog');
  await switching.getByRole('button', { name: t('publishing.switchConfirm.review') }).click();
  const history = publishing.getByTestId('version-history');
  await expect(history.getByRole('row')).toHaveCount(2);
  const api = consoleClient(service.baseUrl, service.token);
  const R = `/tenants/${seeded.tenantId}/robots/${seeded.robotId}`;
  const ruleId = async (name: string) =>
    (await api.ok<RulePage>('GET', `${R}/rules?q=${encodeURIComponent(name)}`)).rows[0]?.ruleId;
  await api.ok('PATCH', `${R}/rules/${await ruleId('退货政策')}`, {
    answer: '签收后 15 天内可无理由退货。',
    questions: ['怎么退货', '能退货吗'],
  });
  await api.ok('POST', `${R}/rules`, {
    ruleName: '会员积分',
    questions: ['积分怎么用'],
    answerContentType: 'TEXT',
    answer: '每 100 积分抵 1 元。',
  });
  await page.reload();
  await expect(history.getByRole('row')).toHaveCount(2);
  await read('publishing-review');
  await publishing.getByRole('textbox', { name: t('publishing.note') }).fill('退货期限改为 15 天');
  await publishing.getByRole('button', { name: t('publishing.check') }).click();
  const gate = publishing.getByTestId('publish-gate');
  await gate.getByTestId('diff-view').waitFor();
  await read('publish-gate');
  await gate.getByRole('button', { name: t('publishing.publish'), exact: true }).click();
  await expect(history.getByRole('row')).toHaveCount(3);
  await history
    .getByRole('row')
    .filter({ hasText: /^v2/ })
    .getByRole('button', { name: t('publishing.diffPrevious') })
    .click();
  const diff = publishing.getByTestId('diff-view').last();
  await expect(diff.locator('ins.diff-word').first()).toBeVisible();
  await diff.scrollIntoViewIfNeeded();
  await read('publish-diff');
  await history
    .getByRole('row')
    .filter({ hasText: /^v1/ })
    .getByRole('button', { name: t('publishing.rollback') })
    .click();
  await page.getByTestId('rollback-dialog').waitFor();
  await read('rollback-dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('rollback-dialog').waitFor({ state: 'hidden' });

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
  // The small-talk answers, open: each intent's language is named in Chinese, its built-in
  // answer says the persona, not its placeholder. The English intents' examples and answers are
  // what English-speaking customers ask and read: data.
  const { intents } = await consoleClient(service.baseUrl, service.token).ok<{
    intents: SmallTalkIntentView[];
  }>('GET', '/small-talk');
  const english = intents.filter((intent) => intent.language === 'en');
  const chat = page.getByTestId('chit-chat-card');
  const persona = await chat.getByTestId('chit-chat-persona').inputValue();
  await chat.locator('summary').click();
  await chat.locator('.chat-answer').first().scrollIntoViewIfNeeded();
  await read(
    'settings-small-talk',
    page,
    english
      .flatMap((intent) => [
        intent.examples.join(' / '),
        intent.answer.split('{persona}').join(persona),
      ])
      // The longest first: a short one ("ok") taken out of a longer one would leave the rest.
      .sort((a, b) => b.length - a.length),
  );
  await chat.locator('summary').click();
  await expect(chat.locator('.chat-answer').first()).toBeHidden();
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

/** A program's name as it signs in (the sessions dialog shows it: data). */
const ELSEWHERE = 'Elsewhere/1.0';

/** A team server's editor in Chinese: the sign-in form, and the sessions dialog. */
test('the team server’s sign-in and sessions speak Chinese', async ({ page }) => {
  const team = await startService(['--team']);
  try {
    const api = new OpenApiClient({ baseUrl: team.baseUrl, ...E2E_CREDENTIALS });
    await api.registerTenant({
      username: ADMIN.username,
      password: 'secret123',
      phoneNumber: '13800138000',
      mail: ADMIN.mail,
      company: COMPANY,
    });
    // Another session of the same administrator, opened from another program.
    const elsewhere = await fetch(`${team.baseUrl}/console/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': ELSEWHERE },
      body: JSON.stringify({ username: ADMIN.username, password: 'secret123' }),
    });
    expect(elsewhere.status).toBe(200);
    const userAgent = await page.evaluate<string>('navigator.userAgent');
    // The sessions list cuts a long user agent (59 characters and "…").
    const data = [
      COMPANY,
      ADMIN.username,
      ADMIN.mail,
      userAgent,
      userAgent.slice(0, 59),
      ELSEWHERE,
      // The first robot's id (an identifier the API takes, shown on the tenant page as data).
      'default',
    ];
    // Registered over the openapi, which takes no language: the first robot is stored as
    // "Default robot", a name nobody chose, which the Chinese editor says in Chinese (no "Default
    // robot" on any screen).
    const leaks: Record<string, string[]> = {};
    const read = async (screen: string) => {
      const found = await latinLeaks(page, data);
      if (found.length > 0) leaks[screen] = found;
      await shoot(page, `zh-${screen}`);
    };
    await page.goto(team.editorUrl);
    await page.getByRole('heading', { name: t('signIn.title') }).waitFor();
    await read('sign-in');
    await page.getByLabel(t('signIn.username')).fill(ADMIN.username);
    await page.getByLabel(t('signIn.password')).fill('secret123');
    await page.getByRole('button', { name: t('signIn.submit') }).click();
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    const editor = new EditorPage(page);
    await editor.openRobot(COMPANY, t('robot.defaultName'));
    await expect(page.getByTestId('rules-view')).toContainText(t('robot.defaultName'));
    await read('robot-registered-over-the-openapi');
    await editor.openTenant(COMPANY);
    await expect(page.getByTestId('tenant-page')).toContainText(t('robot.defaultName'));
    await read('tenant-registered-over-the-openapi');
    await page.getByRole('button', { name: t('sessions.open') }).click();
    const dialog = page.getByTestId('sessions-dialog');
    await expect(dialog.getByTestId('session-row')).toHaveCount(2);
    await read('sessions-dialog');
    expect(leaks).toEqual({});
  } finally {
    await team.stop();
  }
});
