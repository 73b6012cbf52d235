/**
 * How spreadsheet columns map to rule fields, guessed from the header row (English or Chinese,
 * the export's and the template's headers included) and changeable in the import dialog.
 * @module
 */

export type ColumnRole =
  | 'ignore'
  | 'ruleName'
  | 'question'
  | 'answer'
  | 'category'
  | 'active'
  | 'begin'
  | 'end'
  | 'policy'
  | 'negative'
  | 'menu';

export const COLUMN_ROLES: readonly ColumnRole[] = [
  'ignore',
  'ruleName',
  'question',
  'answer',
  'category',
  'active',
  'begin',
  'end',
  'policy',
  'negative',
  'menu',
];

const HEADER_WORDS: [ColumnRole, RegExp][] = [
  ['ruleName', /^(rule ?name|name|rule|规则名称?|名称|标准问题?)$/],
  ['question', /^(questions?|phrasings?|问题|问法|相似问|问句|相似问法)( ?\d+)?$/],
  ['answer', /^(answers?|答案|回答|回复)$/],
  ['category', /^(category|rule ?category ?id|分类|类别|类目)$/],
  ['active', /^(active|enabled|启用|是否启用|状态)$/],
  [
    'begin',
    /^(effective from|effect ?beign ?date|effect ?begin ?date|start|生效时间|开始时间|生效日期)$/,
  ],
  ['end', /^(effective until|effective to|effect ?end ?date|end|失效时间|结束时间|失效日期)$/],
  ['policy', /^(match ?policy|matching|match|匹配方式|匹配)$/],
  ['negative', /^(negative ?keywords?|排除词|否定词)$/],
  ['menu', /^(menu|菜单)$/],
];

export function guessRole(header: string): ColumnRole {
  const word = header.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const [role, pattern] of HEADER_WORDS) if (pattern.test(word)) return role;
  return 'ignore';
}

export interface Mapping {
  hasHeader: boolean;
  roles: ColumnRole[];
}

/** A mapping from the first row: its headers when it looks like one, else by position. */
export function guessMapping(rows: readonly string[][]): Mapping {
  const first = rows[0] ?? [];
  const width = Math.max(0, ...rows.slice(0, 50).map((row) => row.length));
  const guessed = Array.from({ length: width }, (_, i) => guessRole(first[i] ?? ''));
  if (guessed.includes('ruleName') || guessed.includes('answer')) {
    return { hasHeader: true, roles: guessed };
  }
  // No header: name, question, answer, then ignore.
  const roles = Array.from({ length: width }, (_, i): ColumnRole =>
    i === 0 ? 'ruleName' : i === 1 ? 'question' : i === 2 ? 'answer' : 'ignore',
  );
  return { hasHeader: false, roles };
}

/** What the mapping lacks to make rules: the name, at least one question, the answer. */
export function missingRoles(mapping: Mapping): ColumnRole[] {
  return (['ruleName', 'question', 'answer'] as const).filter(
    (role) => !mapping.roles.includes(role),
  );
}
