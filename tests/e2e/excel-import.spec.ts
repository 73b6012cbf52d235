import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { ImportDialog } from './page-models/import-dialog';
import { RulesPage } from './page-models/rules-page';
import { WorkspacePage } from './page-models/workspace-page';
import { registerTenant } from './support/seed';

test.use({ locale: 'en-US' });

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

function readSheet(path: string): string[][] {
  const book = XLSX.read(readFileSync(path), { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('no sheet');
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' });
}

test('imports a good .xlsx file: progress, report, rows in the grid', async ({ page, service }) => {
  await registerTenant(service);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  const importer = new ImportDialog(page);
  await editor.open(service);
  await editor.openRobot('Acme');

  await importer.open();
  await shoot(page, 'import-pick');
  await importer.chooseFile(join(FIXTURES, 'rules-good.xlsx'));
  await expect(importer.summary).toHaveText('30 rows: 30 ready, 0 with problems.');
  await importer.setBatchSize(7);
  await shoot(page, 'import-mapping');
  await importer.start();
  await importer.waitForReport();
  await expect(importer.progress).toBeHidden();
  await expect(importer.report.getByTestId('report-created')).toHaveText('30');
  await expect(importer.report.getByTestId('report-failed')).toHaveText('0');
  await shoot(page, 'import-report');
  await importer.close();

  await rules.waitForRows(30);
  await expect(rules.cell(0, 'ruleName')).toHaveText('退货政策 01');
  // Several phrasings in one cell became several questions; category and active applied.
  await expect(rules.cell(0, 'questions')).toContainText('怎么退货 01 · 怎么退货？01');
  await expect(rules.cell(0, 'category')).toHaveText('售后');
  await rules.filterStatus('Inactive');
  await rules.waitForRows(4);
});

test('refuses bad rows, reports each with its row, and downloads them', async ({
  page,
  service,
}) => {
  await registerTenant(service);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  const importer = new ImportDialog(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await importer.open();
  await importer.chooseFile(join(FIXTURES, 'rules-bad-rows.xlsx'));
  await expect(importer.summary).toHaveText('20 rows: 15 ready, 5 with problems.');
  await expect(importer.dialog.getByRole('list', { name: 'Rows with problems' })).toContainText(
    'Row 4',
  );
  await importer.start();
  await importer.waitForReport();
  await expect(importer.report.getByTestId('report-created')).toHaveText('14');
  await expect(importer.report.getByTestId('report-failed')).toHaveText('6');
  const failures = importer.failureRows();
  await expect(failures).toHaveCount(6);
  await expect(failures.nth(0)).toContainText('Answer must not be empty.');
  await expect(failures.filter({ hasText: 'already exists' })).toContainText('16');
  await shoot(page, 'import-report-failures');

  const download = page.waitForEvent('download');
  await importer.report.getByRole('button', { name: /Download the 6 failed rows/ }).click();
  const file = await (await download).path();
  const rows = readSheet(file);
  expect(rows).toHaveLength(7);
  expect(rows[0]?.at(-1)).toBe('Reason');
  expect(rows.slice(1).map((row) => row[0])).toContain('N'.repeat(201));
  expect(rows.slice(1).map((row) => row.at(-1))).toContain('Answer must not be empty.');
  await importer.close();
  await rules.waitForRows(14);
});

test('exports a robot and re-imports the export with nothing changed', async ({
  page,
  service,
}) => {
  await registerTenant(service);
  const editor = new EditorPage(page);
  const workspace = new WorkspacePage(page);
  const rules = new RulesPage(page);
  const importer = new ImportDialog(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await importer.open();
  await importer.chooseFile(join(FIXTURES, 'rules-good.xlsx'));
  await importer.start();
  await importer.waitForReport();
  await importer.close();
  await rules.waitForRows(30);
  // An edit with dates, so that every field takes part.
  await rules.revealColumn('begin');
  await rules.pasteOn(
    rules.cell(2, 'begin'),
    '2030-01-01T09:00:00+08:00\t2030-12-31T18:00:00+08:00',
  );
  await expect(rules.cell(2, 'begin')).not.toHaveText('always');

  const first = page.waitForEvent('download');
  await rules.view.getByRole('button', { name: 'Export' }).click();
  const exported = await (await first).path();
  const original = readSheet(exported);
  expect(original).toHaveLength(31);

  await editor.openTenant('Acme');
  await workspace.createRobot('Copy');
  await importer.open();
  await importer.chooseFile(exported);
  await expect(importer.summary).toHaveText('30 rows: 30 ready, 0 with problems.');
  await importer.start();
  await importer.waitForReport();
  await expect(importer.report.getByTestId('report-created')).toHaveText('30');
  await importer.close();
  await rules.waitForRows(30);

  const second = page.waitForEvent('download');
  await rules.view.getByRole('button', { name: 'Export' }).click();
  expect(readSheet(await (await second).path())).toEqual(original);
});

test('imports 5,000 rows and shows them in the grid', async ({ page, service }) => {
  await registerTenant(service);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  const importer = new ImportDialog(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await importer.open();
  await importer.chooseFile(join(FIXTURES, 'rules-5000.xlsx'));
  await expect(importer.summary).toHaveText('5,000 rows: 5,000 ready, 0 with problems.');
  await importer.start();
  await expect(importer.progress).toBeVisible();
  await shoot(page, 'import-progress');
  await importer.waitForReport();
  await expect(importer.report.getByTestId('report-created')).toHaveText('5,000');
  await importer.close();
  await rules.waitForRows(5000);
  await rules.grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(rules.rowNamed('Bulk 退货政策 4999')).toBeVisible();
});
