import { readFileSync } from 'node:fs';
import { normalizeText } from '../../electron/service/matching/normalize';
import { tokenize, isHanStopChar } from '../../electron/service/matching/tokenize';
import { ENGLISH_STOP_WORDS } from '../../electron/service/matching/stop-words';

interface DS {
  name: string;
  rules: { ruleName: string; questions: string[] }[];
  queries: { question: string; ruleName: string }[];
}
type Vec = Map<string, number>;
const sw = ENGLISH_STOP_WORDS as Set<string>;
sw.clear();
for (const k of [
  'a',
  'an',
  'the',
  'please',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'just',
  'really',
  'very',
])
  sw.add(k);

export const P = {
  bi: 0.3,
  ch: 0.5,
  cen: 0.7,
  joined: false,
  skip: false,
  idfPow: 1,
  idfKind: 'smooth' as 'smooth' | 'bm25' | 'plain',
  nameW: 1,
  bm25: false,
  k1: 1.2,
  b: 0.75,
  chMin: 3,
  chMax: 5,
  hanBiOnly: false,
  crossCh: false,
  top2: false,
};

const memo = new Map<string, Record<string, Vec>>();
function feats(text: string): Record<string, Vec> {
  const key = text;
  const hit = memo.get(key);
  if (hit) return hit;
  const t = tokenize(normalizeText(text));
  const w: Vec = new Map(),
    b: Vec = new Map(),
    c: Vec = new Map();
  const add = (v: Vec, k: string, x = 1) => v.set(k, (v.get(k) ?? 0) + x);
  for (const x of t.words) add(w, x);
  for (let i = 0; i + 1 < t.words.length; i++) {
    add(b, t.words[i] + '_' + t.words[i + 1]);
    if (P.joined) add(w, t.words[i]! + t.words[i + 1]);
    if (P.skip && i + 2 < t.words.length) add(b, t.words[i] + '__' + t.words[i + 2]);
  }
  const wordsForCh = P.crossCh ? [t.words.join(' ')] : t.words;
  for (const x of wordsForCh) {
    const s = '<' + x + '>';
    for (let n = P.chMin; n <= P.chMax; n++)
      for (let i = 0; i + n <= s.length; i++) add(c, s.slice(i, i + n));
    if (s.length < P.chMin) add(c, s);
  }
  for (const run of t.hanRuns) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      if (!isHanStopChar(chars[i]!)) add(w, chars[i]!);
      if (i + 1 < chars.length) add(w, chars[i]! + chars[i + 1]);
      if (i + 1 < chars.length) add(c, chars[i]! + chars[i + 1]);
      if (i + 2 < chars.length) add(c, chars[i]! + chars[i + 1] + chars[i + 2]);
    }
  }
  const r = { w, b, c };
  memo.set(key, r);
  return r;
}

function norm(v: Vec): Vec {
  let n = 0;
  for (const x of v.values()) n += x * x;
  n = Math.sqrt(n) || 1;
  const o: Vec = new Map();
  for (const [k, x] of v) o.set(k, x / n);
  return o;
}
function dot(a: Vec, b: Vec) {
  let s = 0;
  const [x, y] = a.size < b.size ? [a, b] : [b, a];
  for (const [k, w] of x) s += w * (y.get(k) ?? 0);
  return s;
}

export interface Model {
  score(q: string): number[];
}
export function build(rules: DS['rules']): Model {
  const nsW: Record<string, number> = { w: 1, b: P.bi, c: P.ch };
  const spaces = Object.keys(nsW).map((ns) => {
    const raw = rules.map((r) => {
      const ps = r.questions.map((q) => ({ v: feats(q)[ns]!, m: 1 }));
      if (P.nameW > 0) ps.push({ v: feats(r.ruleName.replace(/_/g, ' '))[ns]!, m: P.nameW });
      return ps;
    });
    const df = new Map<string, number>();
    for (const ps of raw) {
      const seen = new Set<string>();
      for (const p of ps) for (const k of p.v.keys()) seen.add(k);
      for (const k of seen) df.set(k, (df.get(k) ?? 0) + 1);
    }
    const N = rules.length;
    const idf = (k: string) => {
      const d = df.get(k) ?? 0;
      let x: number;
      if (P.idfKind === 'smooth') x = Math.log((N + 1) / (d + 1)) + 1;
      else if (P.idfKind === 'bm25') x = Math.log(1 + (N - d + 0.5) / (d + 0.5));
      else x = Math.log((N + 1) / (d + 0.5));
      return Math.pow(x, P.idfPow);
    };
    const weigh = (v: Vec): Vec => {
      const o: Vec = new Map();
      for (const [k, tf] of v) o.set(k, (1 + Math.log(tf)) * idf(k));
      return norm(o);
    };
    const vecs = raw.map((ps) => ps.map((p) => ({ v: weigh(p.v), m: p.m })));
    const cents = vecs.map((ps) => {
      const c: Vec = new Map();
      for (const p of ps) for (const [k, w] of p.v) c.set(k, (c.get(k) ?? 0) + w * p.m);
      return norm(c);
    });
    return { ns, weigh, vecs, cents };
  });
  return {
    score(q: string) {
      const f = feats(q);
      const out = new Array<number>(rules.length).fill(0);
      for (const s of spaces) {
        const qv = s.weigh(f[s.ns]!);
        const wgt = nsW[s.ns]!;
        s.vecs.forEach((ps, r) => {
          let m1 = 0,
            m2 = 0;
          for (const p of ps) {
            const d = dot(qv, p.v);
            if (d > m1) {
              m2 = m1;
              m1 = d;
            } else if (d > m2) m2 = d;
          }
          const mx = P.top2 ? (m1 + m2) / 2 : m1;
          out[r]! += wgt * ((1 - P.cen) * mx + P.cen * dot(qv, s.cents[r]!));
        });
      }
      return out;
    },
  };
}

function argmax(a: number[]) {
  let b = 0;
  for (let i = 1; i < a.length; i++) if (a[i]! > a[b]!) b = i;
  return b;
}
export function evalQueries(ds: DS, limit = 3100) {
  const m = build(ds.rules);
  const names = ds.rules.map((r) => r.ruleName);
  let ok = 0;
  const stride = Math.max(1, Math.floor(ds.queries.length / limit));
  const qs = ds.queries.filter((_, i) => i % stride === 0);
  for (const q of qs) if (names[argmax(m.score(q.question))] === q.ruleName) ok++;
  return ok / qs.length;
}
export function evalLoo(ds: DS) {
  let ok = 0,
    n = 0;
  for (let k = 0; k < 10; k++) {
    const rules = ds.rules.map((r) => ({
      ruleName: r.ruleName,
      questions: r.questions.filter((_, i) => i !== k),
    }));
    const m = build(rules);
    ds.rules.forEach((r, ri) => {
      const q = r.questions[k];
      if (q === undefined) return;
      n++;
      if (argmax(m.score(q)) === ri) ok++;
    });
  }
  return ok / n;
}
const load = (f: string) => JSON.parse(readFileSync('/work/shared/data/' + f, 'utf8')) as DS;
export const bank = load('banking77-faq-full.json');
export const smp = load('smp2017-faq.json');

// Variants from argv: key=value,...
const base = { ...P };
for (const spec of process.argv.slice(2)) {
  Object.assign(P, base);
  for (const kv of spec.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=') as [keyof typeof P, string];
    const cur = P[k];
    (P as Record<string, unknown>)[k] =
      typeof cur === 'number' ? Number(v) : typeof cur === 'boolean' ? v === '1' : v;
  }
  memo.clear();
  const smpMode = process.env.SMP === '1';
  const t0 = Date.now();
  const r = smpMode
    ? `smpLOO ${evalLoo(smp).toFixed(3)}`
    : `bankDev ${evalQueries(bank).toFixed(3)} bankLOO ${evalLoo(bank).toFixed(3)}`;
  console.log(spec.padEnd(30), r, `${Date.now() - t0}ms`);
}
