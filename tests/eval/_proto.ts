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

const opts = {
  wordStop: true,
  ngramMin: 3,
  ngramMax: 5,
  hanStop: true,
  hanTri: false,
};

function wordFeatures(text: string): Vec {
  const t = tokenize(normalizeText(text));
  const v: Vec = new Map();
  const add = (k: string, w = 1) => v.set(k, (v.get(k) ?? 0) + w);
  for (const w of t.words) add('w:' + w);
  for (const run of t.hanRuns) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      if (!opts.hanStop || !isHanStopChar(chars[i]!)) add('h:' + chars[i]);
      if (i + 1 < chars.length) add('h:' + chars[i] + chars[i + 1]);
      if (opts.hanTri && i + 2 < chars.length) add('h:' + chars[i] + chars[i + 1] + chars[i + 2]);
    }
  }
  return v;
}
function charFeatures(text: string): Vec {
  const t = tokenize(normalizeText(text));
  const v: Vec = new Map();
  const add = (k: string, w = 1) => v.set(k, (v.get(k) ?? 0) + w);
  for (const w of t.words) {
    const s = '<' + w + '>';
    for (let n = opts.ngramMin; n <= opts.ngramMax; n++)
      for (let i = 0; i + n <= s.length; i++) add('c:' + s.slice(i, i + n));
    if (s.length < opts.ngramMin) add('c:' + s);
  }
  for (const run of t.hanRuns) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      if (!opts.hanStop || !isHanStopChar(chars[i]!)) add('h:' + chars[i]);
      if (i + 1 < chars.length) add('h:' + chars[i] + chars[i + 1]);
    }
  }
  return v;
}

class Space {
  df = new Map<string, number>();
  n = 0;
  fit(vs: Vec[]) {
    for (const v of vs) {
      this.n++;
      for (const k of v.keys()) this.df.set(k, (this.df.get(k) ?? 0) + 1);
    }
  }
  idf(k: string) {
    return Math.log((this.n + 1) / ((this.df.get(k) ?? 0) + 1)) + 1;
  }
  weigh(v: Vec, sub = true): Vec {
    const o: Vec = new Map();
    let norm = 0;
    for (const [k, tf] of v) {
      const w = (sub ? 1 + Math.log(tf) : tf) * this.idf(k);
      o.set(k, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [k, w] of o) o.set(k, w / norm);
    return o;
  }
}
function dot(a: Vec, b: Vec) {
  let s = 0;
  const [x, y] = a.size < b.size ? [a, b] : [b, a];
  for (const [k, w] of x) s += w * (y.get(k) ?? 0);
  return s;
}
function normalize(v: Vec): Vec {
  let n = 0;
  for (const w of v.values()) n += w * w;
  n = Math.sqrt(n) || 1;
  const o: Vec = new Map();
  for (const [k, w] of v) o.set(k, w / n);
  return o;
}

interface Model {
  score(q: string): number[];
}

function build(
  rules: { ruleName: string; questions: string[] }[],
  feat: (t: string) => Vec,
  cfg: { maxW: number; cenW: number; top2W: number },
): Model {
  const space = new Space();
  const raw = rules.map((r) => r.questions.map(feat));
  space.fit(raw.flat());
  const vecs = raw.map((ps) => ps.map((p) => space.weigh(p)));
  const cents = vecs.map((ps) => {
    const c: Vec = new Map();
    for (const p of ps) for (const [k, w] of p) c.set(k, (c.get(k) ?? 0) + w);
    return normalize(c);
  });
  return {
    score(q: string) {
      const qv = space.weigh(feat(q));
      return vecs.map((ps, r) => {
        const sims = ps.map((p) => dot(qv, p)).sort((a, b) => b - a);
        const mx = sims[0] ?? 0;
        const t2 = ((sims[0] ?? 0) + (sims[1] ?? 0)) / 2;
        return cfg.maxW * mx + cfg.cenW * dot(qv, cents[r]!) + cfg.top2W * t2;
      });
    },
  };
}

function argmax(a: number[]) {
  let b = 0;
  for (let i = 1; i < a.length; i++) if (a[i]! > a[b]!) b = i;
  return b;
}

function evalQueries(ds: DS, mk: (rules: DS['rules']) => Model, limit = 3000) {
  const m = mk(ds.rules);
  const names = ds.rules.map((r) => r.ruleName);
  let ok = 0;
  const qs = ds.queries.filter((_, i) => i % Math.ceil(ds.queries.length / limit) === 0);
  for (const q of qs) if (names[argmax(m.score(q.question))] === q.ruleName) ok++;
  return ok / qs.length;
}
// Leave-one-out over rule phrasings: each phrasing is a query against rules without it.
function evalLoo(ds: DS, mk: (rules: DS['rules']) => Model) {
  let ok = 0,
    n = 0;
  for (let k = 0; k < 10; k++) {
    const rules = ds.rules.map((r) => ({
      ruleName: r.ruleName,
      questions: r.questions.filter((_, i) => i !== k),
    }));
    const m = mk(rules);
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
const bank = load('banking77-faq-full.json');
const smp = load('smp2017-faq.json');

const configs: Record<string, (rules: DS['rules']) => Model> = {
  wordMax: (r) => build(r, wordFeatures, { maxW: 1, cenW: 0, top2W: 0 }),
  wordCen: (r) => build(r, wordFeatures, { maxW: 0, cenW: 1, top2W: 0 }),
  wordMaxCen: (r) => build(r, wordFeatures, { maxW: 0.5, cenW: 0.5, top2W: 0 }),
  charMax: (r) => build(r, charFeatures, { maxW: 1, cenW: 0, top2W: 0 }),
  charCen: (r) => build(r, charFeatures, { maxW: 0, cenW: 1, top2W: 0 }),
  charMaxCen: (r) => build(r, charFeatures, { maxW: 0.5, cenW: 0.5, top2W: 0 }),
  charTop2Cen: (r) => build(r, charFeatures, { maxW: 0, cenW: 0.5, top2W: 0.5 }),
};
const only = process.argv[2];
for (const [name, mk] of Object.entries(configs)) {
  if (only && !name.includes(only)) continue;
  console.log(
    name.padEnd(14),
    'bankDev',
    evalQueries(bank, mk).toFixed(3),
    'bankLOO',
    evalLoo(bank, mk).toFixed(3),
    'smpLOO',
    evalLoo(smp, mk).toFixed(3),
  );
}

// ---- second round
function wordBigrams(text: string): Vec {
  const t = tokenize(normalizeText(text));
  const v: Vec = new Map();
  for (let i = 0; i + 1 < t.words.length; i++) {
    const k = 'b:' + t.words[i] + '_' + t.words[i + 1];
    v.set(k, (v.get(k) ?? 0) + 1);
  }
  return v;
}
class RuleSpace extends Space {
  fitRules(vs: Vec[][]) {
    for (const ps of vs) {
      this.n++;
      const seen = new Set<string>();
      for (const v of ps) for (const k of v.keys()) seen.add(k);
      for (const k of seen) this.df.set(k, (this.df.get(k) ?? 0) + 1);
    }
  }
}
function build2(
  rules: { ruleName: string; questions: string[] }[],
  parts: { feat: (t: string) => Vec; w: number; icf: boolean }[],
  cfg: { maxW: number; cenW: number },
): Model {
  const models = parts.map((part) => {
    const raw = rules.map((r) =>
      [...r.questions, ...(useName ? [r.ruleName.replace(/_/g, ' ')] : [])].map(part.feat),
    );
    const space = new RuleSpace();
    if (part.icf) space.fitRules(raw);
    else space.fit(raw.flat());
    const vecs = raw.map((ps) => ps.map((p) => space.weigh(p)));
    const cents = vecs.map((ps) => {
      const c: Vec = new Map();
      for (const p of ps) for (const [k, w] of p) c.set(k, (c.get(k) ?? 0) + w);
      return normalize(c);
    });
    return { space, vecs, cents, part };
  });
  return {
    score(q: string) {
      const out = new Array<number>(rules.length).fill(0);
      for (const m of models) {
        const qv = m.space.weigh(m.part.feat(q));
        m.vecs.forEach((ps, r) => {
          let mx = 0;
          for (const p of ps) mx = Math.max(mx, dot(qv, p));
          out[r]! += m.part.w * (cfg.maxW * mx + cfg.cenW * dot(qv, m.cents[r]!));
        });
      }
      return out;
    },
  };
}
let useName = false;
const configs2: Record<string, (rules: DS['rules']) => Model> = {
  wordICF: (r) => build2(r, [{ feat: wordFeatures, w: 1, icf: true }], { maxW: 0.5, cenW: 0.5 }),
  wordCharMC: (r) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: false },
        { feat: charFeatures, w: 1, icf: false },
      ],
      { maxW: 0.5, cenW: 0.5 },
    ),
  wordCharICF: (r) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: true },
        { feat: charFeatures, w: 1, icf: true },
      ],
      { maxW: 0.5, cenW: 0.5 },
    ),
  wordCharBiMC: (r) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: false },
        { feat: charFeatures, w: 1, icf: false },
        { feat: wordBigrams, w: 0.5, icf: false },
      ],
      { maxW: 0.5, cenW: 0.5 },
    ),
  wordCharCen: (r) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: false },
        { feat: charFeatures, w: 1, icf: false },
      ],
      { maxW: 0.3, cenW: 0.7 },
    ),
};
for (const [name, mk] of Object.entries(configs2)) {
  if (only && !name.includes(only)) continue;
  console.log(
    name.padEnd(14),
    'bankDev',
    evalQueries(bank, mk).toFixed(3),
    'bankLOO',
    evalLoo(bank, mk).toFixed(3),
    'smpLOO',
    evalLoo(smp, mk).toFixed(3),
  );
}
useName = true;
console.log('withName', 'bankDev', evalQueries(bank, configs2.wordCharMC!).toFixed(3));
if (process.argv[3] === 'errors') {
  useName = true;
  const m = build2(
    bank.rules,
    [
      { feat: wordFeatures, w: 1, icf: true },
      { feat: charFeatures, w: 1, icf: true },
    ],
    { maxW: 0.3, cenW: 0.7 },
  );
  const names = bank.rules.map((r) => r.ruleName);
  const conf = new Map<string, number>();
  let shown = 0;
  bank.queries.forEach((q, i) => {
    if (i % 3) return;
    const s = m.score(q.question);
    const p = names[argmax(s)]!;
    if (p !== q.ruleName) {
      const k = q.ruleName + ' -> ' + p;
      conf.set(k, (conf.get(k) ?? 0) + 1);
      if (shown++ < 60 && i % 9 === 0) console.log(q.question, '|', q.ruleName, '->', p);
    }
  });
  console.log([...conf].sort((a, b) => b[1] - a[1]).slice(0, 30));
}
if (process.argv[3] === 'grid') {
  useName = true;
  const mkC = (cen: number, bi: number, ch: number) => (r: DS['rules']) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: true },
        { feat: charFeatures, w: ch, icf: true },
        { feat: wordBigrams, w: bi, icf: true },
      ],
      { maxW: 1 - cen, cenW: cen },
    );
  for (const [cen, bi, ch] of [
    [0.7, 0, 1],
    [0.7, 0.3, 1],
    [0.7, 0.5, 1],
    [0.85, 0.3, 1],
    [0.7, 0.3, 0.5],
    [0.7, 0.3, 2],
    [1, 0.3, 1],
  ] as const) {
    console.log(
      cen,
      bi,
      ch,
      'bankDev',
      evalQueries(bank, mkC(cen, bi, ch)).toFixed(3),
      'smpLOO',
      evalLoo(smp, mkC(cen, bi, ch)).toFixed(3),
    );
  }
}
if (process.argv[3] === 'stop') {
  useName = true;
  const mkC = (r: DS['rules']) =>
    build2(
      r,
      [
        { feat: wordFeatures, w: 1, icf: true },
        { feat: charFeatures, w: 0.5, icf: true },
        { feat: wordBigrams, w: 0.3, icf: true },
      ],
      { maxW: 0.3, cenW: 0.7 },
    );
  const sw = ENGLISH_STOP_WORDS as Set<string>;
  const saved = [...sw];
  for (const keep of [
    ['can', 'will', 'would', 'could', 'should', 'may', 'do', 'does', 'did'],
    ['i', 'me', 'my', 'you', 'your', 'it', 'this', 'that'],
    ['to', 'of', 'in', 'on', 'at', 'for'],
    saved,
  ]) {
    for (const k of keep) sw.delete(k);
    console.log('without', keep.slice(0, 3), 'bankDev', evalQueries(bank, mkC).toFixed(3));
    for (const k of saved) sw.add(k);
  }
}
if (process.argv[3] === 'stop2') {
  useName = true;
  const sw = ENGLISH_STOP_WORDS as Set<string>;
  const saved = [...sw];
  for (const ch of [0, 0.5])
    for (const stops of [
      [],
      ['a', 'an', 'the'],
      [
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
      ],
    ]) {
      sw.clear();
      for (const k of stops) sw.add(k);
      const mkC = (r: DS['rules']) =>
        build2(
          r,
          [
            { feat: wordFeatures, w: 1, icf: true },
            { feat: charFeatures, w: ch, icf: true },
            { feat: wordBigrams, w: 0.3, icf: true },
          ],
          { maxW: 0.3, cenW: 0.7 },
        );
      console.log(
        'ch',
        ch,
        'stops',
        stops.length,
        'bankDev',
        evalQueries(bank, mkC).toFixed(3),
        'bankLOO',
        evalLoo(bank, mkC).toFixed(3),
      );
    }
  for (const k of saved) sw.add(k);
}
