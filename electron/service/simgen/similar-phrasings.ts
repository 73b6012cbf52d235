/**
 * Similar phrasings proposed for a rule that allows it (`allowSimGen`), offline and by rule:
 * synonym groups (the robot's and a small built-in table), Chinese particles and word order,
 * Traditional Chinese, and common typos. Only proposals: the editor accepts or rejects each
 * (docs/conversation.md, "Similar phrasings").
 * @module
 */
import { Converter } from 'opencc-js/cn2t';
import { normalizeText } from '../matching/normalize';

/** Interchangeable words common in customer-service questions (first member: any). */
const BUILT_IN_SYNONYMS: readonly (readonly string[])[] = [
  ['怎么', '如何', '怎样'],
  ['可以', '能', '能不能'],
  ['退款', '退钱'],
  ['快递', '物流'],
  ['手机号', '手机号码'],
  ['账号', '账户'],
  ['修改', '更改', '更换'],
  ['查询', '查看', '查一下'],
  ['取消', '撤销'],
  ['多久', '多长时间'],
  ['什么时候', '何时'],
  ['how do I', 'how can I', 'how to'],
  ['change', 'update'],
  ['cancel', 'stop'],
  ['refund', 'money back'],
  ['order', 'purchase'],
  ['delivery', 'shipping'],
  ['account', 'profile'],
  ['can I', 'is it possible to'],
];

/** Question particles and polite openings a Chinese question is asked with or without. */
const TRAILING_PARTICLES = ['吗', '呢', '吧', '啊', '呀'];
const OPENINGS = ['请问', '我想问一下', '麻烦问下'];

/** Common confusions, both ways: 的/得/地 misuse, homophones typed by pinyin input. */
const CHINESE_TYPOS: readonly [string, string][] = [
  ['登录', '登陆'],
  ['账号', '帐号'],
  ['账户', '帐户'],
  ['在哪', '再哪'],
  ['怎么', '怎莫'],
  ['发票', '发漂'],
  ['订单', '定单'],
];

/** Common English misspellings of words frequent in questions. */
const ENGLISH_TYPOS: readonly [string, string][] = [
  ['receive', 'recieve'],
  ['address', 'adress'],
  ['password', 'pasword'],
  ['account', 'acount'],
  ['delivery', 'delivary'],
  ['cancel', 'cancell'],
  ['refund', 'refound'],
  ['payment', 'payement'],
];

const HAN = /\p{Script=Han}/u;

let toTraditional: ((text: string) => string) | null = null;

function replaceAll(text: string, from: string, to: string): string {
  return text.split(from).join(to);
}

function withSynonyms(text: string, groups: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  for (const group of groups) {
    for (const member of group) {
      if (member === '' || !lower.includes(member.toLowerCase())) continue;
      const at = lower.indexOf(member.toLowerCase());
      // 怎么办 is one expression: 如何办 is not Chinese.
      if (text.slice(at + member.length).startsWith('办')) break;
      const capital = at === 0 && text[0] !== text[0]?.toLowerCase();
      for (const other of group) {
        if (other === member) continue;
        const word = capital ? other[0]?.toUpperCase() + other.slice(1) : other;
        out.push(text.slice(0, at) + word + text.slice(at + member.length));
      }
      break;
    }
  }
  return out;
}

function chineseVariants(text: string): string[] {
  const out: string[] = [];
  const trimmed = text.replace(/[？?。！!，,\s]+$/u, '');
  const particle = TRAILING_PARTICLES.find((p) => trimmed.endsWith(p));
  if (particle) out.push(trimmed.slice(0, -particle.length));
  else if (!/[什么怎哪谁几多]/u.test(trimmed)) out.push(`${trimmed}吗`);
  const opening = OPENINGS.find((o) => trimmed.startsWith(o));
  if (opening) out.push(trimmed.slice(opening.length));
  else out.push(`请问${trimmed}`);
  // Word order: "怎么退货" → "退货怎么办" (the other way round rarely reads as Chinese).
  const how = /^(怎么|如何)([^怎如]{2,})$/u.exec(trimmed);
  if (how) out.push(`${how[2]}${how[1] === '怎么' ? '怎么办' : '如何操作'}`);
  for (const [right, wrong] of CHINESE_TYPOS) {
    if (trimmed.includes(right)) out.push(replaceAll(trimmed, right, wrong));
  }
  toTraditional ??= Converter({ from: 'cn', to: 'tw' });
  out.push(toTraditional(text));
  return out;
}

function englishVariants(text: string): string[] {
  const out: string[] = [];
  const trimmed = text.replace(/[?.!\s]+$/u, '');
  if (/^(how|what|where|when|why|can|do|does|is|are)\b/i.test(trimmed)) {
    out.push(trimmed.toLowerCase());
  }
  for (const [right, wrong] of ENGLISH_TYPOS) {
    const at = trimmed.toLowerCase().indexOf(right);
    if (at >= 0) out.push(trimmed.slice(0, at) + wrong + trimmed.slice(at + right.length));
  }
  return out;
}

/**
 * Up to `limit` new phrasings for a rule's `questions`: none equal to one of them or to each
 * other as the matcher reads text (case, width, punctuation), nor to a phrasing in `taken`
 * (the robot's other rules: a proposal must not make a duplicate).
 */
export function similarPhrasings(
  questions: readonly string[],
  options: {
    synonyms?: readonly (readonly string[])[];
    taken?: ReadonlySet<string>;
    limit?: number;
  } = {},
): string[] {
  const groups = [...(options.synonyms ?? []), ...BUILT_IN_SYNONYMS];
  const seen = new Set(questions.map(normalizeText));
  const proposals: string[] = [];
  const limit = options.limit ?? 20;
  for (const question of questions) {
    const variants = [
      ...withSynonyms(question, groups),
      ...(HAN.test(question) ? chineseVariants(question) : englishVariants(question)),
    ];
    for (const variant of variants) {
      const text = variant.trim();
      const key = normalizeText(text);
      // Traditional and Simplified read the same to the matcher: still worth proposing, since
      // the exact-match policy and the editor's search see them as written.
      const traditional = HAN.test(text) && text !== question && key === normalizeText(question);
      if (text === '' || (!traditional && seen.has(key)) || options.taken?.has(key)) continue;
      if (proposals.includes(text) || text.length > 200) continue;
      seen.add(key);
      proposals.push(text);
      if (proposals.length >= limit) return proposals;
    }
  }
  return proposals;
}
