/**
 * Tab-separated text as Excel puts it on the clipboard: cells split by tabs, rows by line
 * breaks, and a cell holding a tab, a line break or a quote written in double quotes with its
 * quotes doubled.
 * @module
 */

export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const c = text[i];
    if (atCellStart && c === '"') {
      // A quoted cell: up to the closing quote, `""` being one quote.
      const start = i + 1;
      let j = start;
      let value = '';
      let closed = false;
      while (j < text.length) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          break;
        }
        value += text[j];
        j += 1;
      }
      const next = text[j + 1];
      if (closed && (next === undefined || next === '\t' || next === '\n' || next === '\r')) {
        cell = value;
        i = j + 1;
        atCellStart = false;
        continue;
      }
      // Not a well-formed quoted cell: read it as plain text.
    }
    atCellStart = false;
    if (c === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
    } else {
      cell += c;
    }
    i += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function quote(cell: string): string {
  return /[\t\n\r"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(quote).join('\t')).join('\r\n');
}
