import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { ImportDialog } from './page-models/import-dialog';
import { RulesPage } from './page-models/rules-page';
import { WorkspacePage } from './page-models/workspace-page';
import type { RulePage } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenant } from './support/seed';
import { apiNamesIn } from '../unit/renderer/api-names';
import type { MessageKey, MessageParams } from '../../renderer/i18n/types';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

function readSheet(path: string): string[][] {
  const book = XLSX.read(readFileSync(path), { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('no sheet');
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' });
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);
    /** A problem of `field` in sheet row `row`, as the import says it. */
    const inRow = (row: number, key: MessageKey, field: string, params: MessageParams = {}) =>
      t(key, { subject: t('problem.subjectInRow', { row, field }), ...params });

    test('refuses bad rows, names the row and the field of each, and downloads them', async ({
      page,
      service,
    }) => {
      await registerTenant(service);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      const importer = new ImportDialog(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await importer.open();
      await importer.chooseFile(join(FIXTURES, 'rules-bad-rows.xlsx'));
      await expect(importer.summary).toHaveText(
        t('import.summary', { count: 20, ready: 14, invalid: 6 }),
      );
      // Row 16 repeats row 15's rule name: said in the preview, not only by the import.
      const repeated = readSheet(join(FIXTURES, 'rules-bad-rows.xlsx'))[15]?.[0] ?? '';
      const sameName = t('problem.inRow', {
        row: 16,
        message: t('errors.duplicateInFile', { name: repeated.trim(), row: 15 }),
      });
      await expect(
        importer.dialog.getByRole('list', { name: t('import.problems') }).getByRole('listitem'),
      ).toHaveText([
        inRow(4, 'validation.empty', t('rules.col.answer')),
        inRow(7, 'validation.maxLength', t('rules.col.ruleName'), { count: 200 }),
        inRow(10, 'validation.maxLength', t('rules.questionN', { n: 1 }), { count: 200 }),
        inRow(13, 'validation.active', t('field.active'), { value: 'maybe' }),
        sameName,
        inRow(19, 'validation.empty', t('rules.col.questions')),
      ]);
      await shoot(page, `import-problems-${lang}`);
      await importer.start();
      await importer.waitForReport();
      await expect(importer.report.getByTestId('report-created')).toHaveText('14');
      await expect(importer.report.getByTestId('report-failed')).toHaveText('6');
      const failures = importer.failureRows();
      await expect(failures).toHaveCount(6);
      await expect(failures.nth(0)).toContainText(
        t('validation.empty', { subject: t('problem.subject', { field: t('rules.col.answer') }) }),
      );
      // The repeated name is in the report too, with the row it repeats.
      const taken = failures.filter({ has: page.getByRole('cell', { name: '16', exact: true }) });
      await expect(taken).toContainText(
        t('errors.duplicateInFile', { name: repeated.trim(), row: 15 }),
      );
      expect(apiNamesIn(await importer.report.innerText())).toEqual([]);
      await shoot(page, `import-report-failures-${lang}`);

      const download = page.waitForEvent('download');
      await importer.report
        .getByRole('button', { name: t('import.downloadFailed', { count: 6 }) })
        .click();
      const file = await (await download).path();
      const rows = readSheet(file);
      expect(rows).toHaveLength(7);
      expect(rows[0]?.at(-1)).toBe(t('sheet.reason'));
      expect(rows.slice(1).map((row) => row[0])).toContain('N'.repeat(201));
      expect(rows.slice(1).map((row) => row.at(-1))).toContain(
        t('validation.empty', { subject: t('problem.subject', { field: t('rules.col.answer') }) }),
      );
      await importer.close();
      await rules.waitForRows(14);
    });
  });
}

test.describe('en', () => {
  test.use({ locale: 'en-US' });

  test('imports a good .xlsx file: progress, report, rows in the grid', async ({
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

  test('exports a robot and re-imports the export with nothing changed', async ({
    page,
    service,
  }) => {
    const robot = await registerTenant(service);
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
    // A match policy, negative keywords and a menu naming two rules take part too.
    const api = consoleClient(service.baseUrl, service.token);
    const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
    const [a, b, c] = (await api.ok<RulePage>('GET', `${base}/rules?limit=3&sort=created`)).rows;
    if (!a || !b || !c) throw new Error('the sheet made fewer than 3 rules');
    await api.ok('PATCH', `${base}/rules/${a.ruleId}`, {
      matchPolicy: 'contains',
      negativeKeywords: ['VIP', '会员'],
    });
    await api.ok('PATCH', `${base}/rules/${c.ruleId}`, {
      menu: [
        { ruleId: a.ruleId, text: 'First => one' },
        { ruleId: b.ruleId, text: '第二项' },
      ],
    });

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
    const again = readSheet(await (await second).path());
    expect(again).toEqual(original);
    expect(again[3]?.at(-1)).toBe(`First => one => ${a.ruleName}\n第二项 => ${b.ruleName}`);
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
});
