/**
 * `npx tsx tests/eval/build-pair-set.ts <pairs.csv>... --name N --phrasings K --source S --license L`:
 * turns a paraphrase-pair corpus (CSV with columns query1, query2, label; label 1 = same
 * meaning) into a retrieval set in the eval format (tests/eval/dataset.ts). Questions linked by
 * "same meaning" labels (directly or through others; compared without spaces and punctuation)
 * make one rule: its first K questions (query1 texts first) are its phrasings, and at least one
 * is left as a query. Second questions labelled 0 (a near miss: the same topic, another
 * question) that are no rule's question nor anyone's paraphrase become out-of-scope queries.
 * Pair-built sets compare engines: a "wrong" answer may still be a rule with the same meaning
 * that the labels never linked.
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field.length > 0 || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.some((cell) => cell.length > 0));
}

const node2 = (question: string): string => question.replace(/[\s\p{P}\p{S}]+/gu, '').toLowerCase();

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      phrasings: { type: 'string', default: '1' },
      source: { type: 'string', default: '' },
      license: { type: 'string', default: '' },
      out: { type: 'string' },
    },
  });
  const phrasings = Number(values.phrasings);
  // Questions linked by "same meaning" labels form one rule (union-find over their normalised
  // text): otherwise a question equal to another rule's phrasing counts as a wrong answer.
  const parent = new Map<string, string>();
  const text = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    parent.set(key, root);
    return root;
  };
  const node = (question: string): string => {
    const key = node2(question);
    if (!parent.has(key)) {
      parent.set(key, key);
      text.set(key, question);
    }
    return key;
  };
  const firsts: string[] = [];
  const nearMisses: string[] = [];
  for (const path of positionals) {
    const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
    const column = (name: string) => (header ?? []).indexOf(name);
    const [q1, q2, label] = [column('query1'), column('query2'), column('label')];
    for (const row of rows) {
      const first = (row[q1] ?? '').trim();
      const second = (row[q2] ?? '').trim();
      if (first.length === 0 || second.length === 0) continue;
      if (row[label] !== '1') {
        nearMisses.push(second);
        continue;
      }
      const a = node(first);
      firsts.push(a);
      const [ra, rb] = [find(a), find(node(second))];
      if (ra !== rb) parent.set(rb, ra);
    }
  }
  const members = new Map<string, string[]>();
  // Query1 texts first, so that they become the rules' phrasings.
  const keys = [...new Set([...firsts, ...parent.keys()])];
  for (const key of keys) {
    const root = find(key);
    const list = members.get(root) ?? [];
    members.set(root, list);
    list.push(key);
  }
  const rules: { ruleName: string; questions: string[]; answer: string }[] = [];
  const queries: { question: string; ruleName: string }[] = [];
  for (const list of members.values()) {
    if (list.length < 2) continue;
    const questions = list
      .slice(0, Math.min(phrasings, list.length - 1))
      .map((k) => text.get(k) ?? k);
    const ruleName = questions[0] ?? '';
    rules.push({ ruleName, questions, answer: `Answer for ${ruleName}` });
    for (const key of list.slice(questions.length)) {
      queries.push({ question: text.get(key) ?? key, ruleName });
    }
  }
  const oosQueries = [...new Set(nearMisses)]
    .filter((question) => !parent.has(node2(question)))
    .filter((_, i) => i % 4 === 0)
    .map((question) => ({ question, ruleName: null }));
  const dataset = {
    name: values.name,
    language: 'zh',
    source: values.source,
    license: values.license,
    rules,
    queries,
    oosQueries,
  };
  const json = `${JSON.stringify(dataset, null, 1)}\n`;
  if (values.out) writeFileSync(values.out, json);
  else process.stdout.write(json);
  console.error(
    `${rules.length} rules, ${queries.length} queries, ${oosQueries.length} out-of-scope queries`,
  );
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) main();
