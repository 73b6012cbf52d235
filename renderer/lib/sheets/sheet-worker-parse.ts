/**
 * Reading a user's spreadsheet into text rows, inside the spreadsheet worker: .xlsx with
 * read-excel-file (a maintained reader: unzip by fflate, XML by a streaming parser, no
 * regular expressions over the file's text), .csv and .txt with Papa Parse. Both replace the
 * reader of the xlsx package (0.18.5, the last on npm), which has a prototype-pollution
 * (CVE-2023-30533) and a ReDoS (CVE-2024-22363) advisory for crafted files. Only .xlsx and
 * CSV are read: a file of any other format (xlsx also guessed HTML, XML 2003, SYLK…) is refused.
 * @module
 */
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/universal';
import type { PlainSheet } from './sheet-messages';

/** A cell as the import reads it: text as written, TRUE/FALSE, dates in ISO 8601. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString();
  return String(cell);
}

/** Rows with every cell empty are skipped, as a person reading the sheet would. */
function withoutBlankRows(rows: string[][]): string[][] {
  return rows.filter((row) => row.some((cell) => cell !== ''));
}

export function parseCsv(text: string): string[][] {
  const { data } = Papa.parse<string[]>(text, { skipEmptyLines: true });
  return withoutBlankRows(data.map((row) => row.map(cellText)));
}

export class UnreadableFileError extends Error {}

/** The sheets of a file, by its name's extension: .csv/.txt as UTF-8 CSV, else .xlsx. */
export async function parseSpreadsheetBytes(
  fileName: string,
  bytes: ArrayBuffer,
): Promise<PlainSheet[]> {
  if (/\.(csv|txt)$/i.test(fileName)) {
    return [{ name: 'Sheet1', rows: parseCsv(new TextDecoder('utf-8').decode(bytes)) }];
  }
  let sheets: Awaited<ReturnType<typeof readXlsxFile<string>>>;
  try {
    // Numbers as written in the file (no float rounding), text untrimmed (kept as sent).
    sheets = await readXlsxFile(bytes, { trim: false, parseNumber: (text) => text });
  } catch (error) {
    throw new UnreadableFileError(
      `not an .xlsx workbook, or a damaged one (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return sheets.map(({ sheet, data }) => ({
    name: String(sheet),
    rows: withoutBlankRows(data.map((row) => row.map(cellText))),
  }));
}
