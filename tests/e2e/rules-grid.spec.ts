import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { watchedTops, watchTop } from './support/layout-watch';
import { importRules, registerTenant, sampleRules } from './support/seed';
import { consoleClient } from '../helpers/console-client';

test.use({ locale: 'en-US' });

test('edits a cell, keeps it after a reload, and undoes it', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(5));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(5);
  await expect(rules.cell(0, 'ruleName')).toHaveText('Rule 0001');

  await rules.editText(0, 'ruleName', '退货政策 Returns');
  await expect(rules.cell(0, 'ruleName')).toHaveText('退货政策 Returns');
  await expect(rules.view.getByRole('button', { name: 'Undo' })).toBeEnabled();
  await rules.editAnswer(1, 'A new answer.');
  await expect(rules.cell(1, 'answer')).toHaveText('A new answer.');
  await rules.editQuestions(2, ['first phrasing', 'second phrasing', 'third phrasing']);
  await expect(rules.cell(2, 'questions')).toContainText('first phrasing · second phrasing');
  await shoot(page, 'rules-grid');

  await page.reload();
  await rules.waitForRows(5);
  await expect(rules.cell(0, 'ruleName')).toHaveText('退货政策 Returns');
  await expect(rules.cell(1, 'answer')).toHaveText('A new answer.');
  await expect(rules.cell(2, 'questions')).toContainText('third phrasing');

  // Undo works within a session: edit, undo (Ctrl+Z), redo (Ctrl+Y).
  await rules.editText(3, 'ruleName', 'Changed name');
  await expect(rules.cell(3, 'ruleName')).toHaveText('Changed name');
  await rules.cell(4, 'answer').click();
  await page.keyboard.press('Control+z');
  await expect(rules.cell(3, 'ruleName')).toHaveText('Rule 0004');
  await page.keyboard.press('Control+y');
  await expect(rules.cell(3, 'ruleName')).toHaveText('Changed name');
  await rules.undo();
  await expect(rules.cell(3, 'ruleName')).toHaveText('Rule 0004');
  await page.reload();
  await expect(rules.cell(3, 'ruleName')).toHaveText('Rule 0004');
});

test('the grid stays in place while the first conflict check runs and an edit is saved', async ({
  page,
  service,
}) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(5));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  // Every frame from the robot's opening on: where the grid's top is. A status coming and going
  // above it once wrapped the toolbar, and a click meant for one row landed on the next.
  await watchTop(page, '[data-testid="rules-view"] [role="grid"]');
  await editor.openRobot('Acme');
  await rules.waitForRows(5);
  const filter = rules.view.getByTestId('conflicts-filter');
  await expect(filter.getByRole('checkbox')).toBeEnabled();
  await expect(filter.getByRole('status')).toHaveCount(0);
  // An edit's "Saving…" and "Saved at" come and go in the header above the toolbar.
  await rules.editText(1, 'ruleName', 'A rule renamed to a longer name');
  await expect(page.getByTestId('save-indicator')).toContainText('✓');
  await expect(filter.getByRole('status')).toHaveCount(0);
  const tops = await watchedTops(page);
  expect(tops).toHaveLength(1);
});

test('an undo pressed while the edit is still being saved undoes that edit', async ({
  page,
  service,
}) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(3));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(3);
  // A slow save: the edit is shown at once, its answer comes a second later.
  await page.route('**/console/api/**/rules/*', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1000));
    await route.continue();
  });
  await rules.editText(1, 'ruleName', 'Renamed in a hurry');
  await expect(rules.cell(1, 'ruleName')).toHaveText('Renamed in a hurry');
  await rules.cell(2, 'answer').click();
  await page.keyboard.press('Control+z');
  await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
  await page.unroute('**/console/api/**/rules/*');
  await page.reload();
  await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
});

test('marks an invalid cell with the reason and does not send it', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(3));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(3);

  await rules.editText(0, 'ruleName', 'N'.repeat(201));
  await expect(rules.cell(0, 'ruleName')).toHaveClass(/cell-invalid/);
  await rules.cell(0, 'ruleName').click();
  await expect(rules.status).toHaveText('Rule name must be at most 200 characters long.');
  await shoot(page, 'rules-invalid-cell');

  // A name another rule has is refused by the service, and marked the same way.
  await rules.editText(1, 'ruleName', 'Rule 0003');
  await expect(rules.cell(1, 'ruleName')).toHaveClass(/cell-invalid/);
  await rules.cell(1, 'ruleName').click();
  await expect(rules.status).toHaveText('Another rule of this robot already has this name.');

  await page.reload();
  await expect(rules.cell(0, 'ruleName')).toHaveText('Rule 0001');
  await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
});

test('deletes several rows, and undoes the delete', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(6));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(6);

  await rules.selectRows(['Rule 0002', 'Rule 0004', 'Rule 0005']);
  await expect(rules.view.getByText('3 selected')).toBeVisible();
  await rules.clickToolbar(/^Delete$/);
  await rules.waitForRows(3);
  await expect(rules.rowNamed('Rule 0004')).toHaveCount(0);
  await expect(page.getByText('3 rules deleted.')).toBeVisible();

  await rules.undo();
  await rules.waitForRows(6);
  // Restored in their places (creation order).
  await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
  await expect(rules.cell(3, 'ruleName')).toHaveText('Rule 0004');

  // The Delete key deletes the selection too.
  await rules.selectRows(['Rule 0006']);
  await rules.cell(0, 'answer').click();
  await page.keyboard.press('Delete');
  await rules.waitForRows(5);
  await page.reload();
  await rules.waitForRows(5);
});

test('searches, filters by status and category, and sorts', async ({ page, service }) => {
  const robot = await registerTenant(service);
  const { succeed } = await importRules(service, robot, sampleRules(12));
  const api = consoleClient(service.baseUrl, service.token);
  const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
  for (const [i, rule] of succeed.entries()) {
    await api.ok('PATCH', `${base}/rules/${rule.ruleId}`, {
      categoryName: i % 3 === 0 ? 'Billing' : 'Shipping',
      ...(i % 4 === 0 ? { active: false } : {}),
    });
  }
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(12);

  await rules.search.fill('Rule 0007');
  await rules.waitForRows(1);
  await expect(rules.cell(0, 'ruleName')).toHaveText('Rule 0007');
  await rules.search.fill('');
  await rules.waitForRows(12);

  await rules.filterStatus('Inactive');
  await rules.waitForRows(3);
  await expect(rules.total).toHaveText('3 of 12 rules');
  await rules.filterCategory('Billing');
  await rules.waitForRows(1);
  await expect(rules.total).toHaveText('1 of 12 rules');
  await shoot(page, 'rules-filtered');
  await rules.filterStatus('All');
  await rules.waitForRows(4);
  await rules.filterCategory('All');
  await rules.waitForRows(12);

  await rules.grid.getByRole('columnheader', { name: 'Rule name' }).click();
  await rules.grid.getByRole('columnheader', { name: 'Rule name' }).click();
  await expect(rules.cell(0, 'ruleName')).toHaveText('Rule 0012');
});

test('adds and duplicates rules; warns about shared phrasings', async ({ page, service }) => {
  await registerTenant(service);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(0);

  await rules.clickToolbar('+ Add rule');
  const input = rules.grid.locator('input.cell-input');
  await input.fill('Opening hours');
  await input.press('Enter');
  // Still a draft: questions and answer are missing, and marked.
  await expect(rules.cell(0, 'questions')).toHaveClass(/cell-invalid/);
  await rules.editQuestions(0, ['When are you open?', '几点开门']);
  await rules.editAnswer(0, 'Every day from 9:00 to 18:00.');
  await rules.waitForRows(1);

  await rules.selectRows(['Opening hours']);
  await rules.clickToolbar('Duplicate');
  await rules.waitForRows(2);
  await expect(rules.rowNamed('Opening hours (copy)')).toHaveCount(1);
  await expect(page.getByTestId('duplicates-notice')).toContainText(
    '2 phrasings belong to more than one rule',
  );
  await expect(rules.grid.getByTestId('duplicate-badge')).toHaveCount(2);
  await shoot(page, 'rules-duplicates');
});

test('copies cells to and pastes cells from Excel (TSV)', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, sampleRules(3));
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(3);

  expect(await rules.copyFrom(rules.cell(0, 'questions'))).toBe(
    '"question Rule 1\n另一种问法 Rule 1"',
  );

  // Two rows × two columns from the name column on; then two new rows past the end.
  await rules.pasteOn(
    rules.cell(1, 'ruleName'),
    'Pasted A\t"q A1\nq A2"\r\nPasted B\tq B1\r\nPasted C\tq C1\tanswer C\r\nPasted D\tq D1\tanswer D\r\n',
  );
  await rules.waitForRows(5);
  await expect(rules.rowNamed('Pasted A')).toContainText('q A1 · q A2');
  await expect(rules.rowNamed('Pasted B')).toContainText('q B1');
  await expect(rules.rowNamed('Pasted D')).toContainText('answer D');

  // One undo step takes the whole paste back.
  await rules.undo();
  await rules.waitForRows(3);
  await expect(rules.cell(1, 'ruleName')).toHaveText('Rule 0002');
  await expect(rules.cell(2, 'ruleName')).toHaveText('Rule 0003');
});
