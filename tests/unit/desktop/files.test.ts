import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  EXCEL_FILTERS,
  openExcelFile,
  safeFileName,
  saveFile,
} from '../../../electron/desktop/files';
import type { FileDialogs } from '../../../electron/desktop/files';

describe('Excel open and save', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'kbstudio-files-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const dialogs = (
    open: string | null,
    save: string | null,
    seen: unknown[] = [],
  ): FileDialogs => ({
    chooseFileToOpen: async (filters) => (seen.push(filters), open),
    chooseFileToSave: async (name, filters) => (seen.push(name, filters), save),
  });

  test('open: the chosen workbook comes back as name and exact bytes', async () => {
    const path = join(dir, 'rules.xlsx');
    writeFileSync(path, Buffer.from([0x50, 0x4b, 3, 4, 9]));
    const seen: unknown[] = [];
    const file = await openExcelFile(dialogs(path, null, seen));
    assert.ok(file);
    assert.equal(file.name, 'rules.xlsx');
    assert.ok(file.bytes instanceof ArrayBuffer);
    assert.deepEqual([...new Uint8Array(file.bytes)], [0x50, 0x4b, 3, 4, 9]);
    assert.deepEqual(seen, [EXCEL_FILTERS]);
  });

  test('open: cancelled gives null', async () => {
    assert.equal(await openExcelFile(dialogs(null, null)), null);
  });

  test('save: writes the bytes where chosen, replacing a file whole', async () => {
    const path = join(dir, 'out.xlsx');
    writeFileSync(path, 'old content that is longer');
    const seen: unknown[] = [];
    const bytes = new Uint8Array([1, 2, 3]);
    assert.equal(await saveFile(dialogs(null, path, seen), 'out.xlsx', bytes.buffer), true);
    assert.deepEqual([...readFileSync(path)], [1, 2, 3]);
    assert.deepEqual(seen, ['out.xlsx', EXCEL_FILTERS]);
    assert.ok(!readdirSync(dir).some((name) => name.endsWith('.tmp')));
  });

  test('save: cancelled writes nothing and gives false', async () => {
    assert.equal(await saveFile(dialogs(null, null), 'x.xlsx', new Uint8Array([1])), false);
  });

  test('save: arguments from the renderer are checked', async () => {
    await assert.rejects(saveFile(dialogs(null, null), 'x.xlsx', 'text'), TypeError);
    const seen: unknown[] = [];
    await saveFile(dialogs(null, null, seen), '../../etc/passwd', new Uint8Array([1]));
    assert.equal(seen[0], 'passwd');
  });

  test('suggested names are reduced to a safe bare file name', () => {
    assert.equal(safeFileName('C:\\Users\\x\\kb.xlsx'), 'kb.xlsx');
    assert.equal(safeFileName('a<b>:"c|?*.xlsx'), 'a_b___c___.xlsx');
    assert.equal(safeFileName('规则 2024.xlsx'), '规则 2024.xlsx');
    for (const bad of ['', '...', '/', 42, null])
      assert.equal(safeFileName(bad), 'knowledge-base.xlsx');
  });
});
