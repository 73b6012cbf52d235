/**
 * A saved index opens to the same index: same answers, same explanations, and later writes
 * behave as on the original. Damaged bytes are refused, never half-read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_MATCH_SETTINGS,
  createRobotIndex,
  loadRobotIndex,
  saveRobotIndex,
  writeRobotIndex,
} from '../../../electron/service/matching/index';
import type { SynonymAwareRobotIndex } from '../../../electron/service/matching/index';
import { SnapshotWriter } from '../../../electron/service/matching/binary-snapshot';
import { isNormalizationStable, normalizeText } from '../../../electron/service/matching/normalize';
import { toSimplified } from '../../../electron/service/matching/to-simplified';
import type { MatchableRule, RobotIndex } from '../../../electron/service/matching/types';
import { matchableRule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 22);

const rule = (ruleId: string, questions: string[], extra: Partial<MatchableRule> = {}) =>
  matchableRule(ruleId, questions, { ruleName: `规则 ${ruleId}`, ...extra });

function sample(): RobotIndex {
  const index = createRobotIndex();
  const topics = ['退款', '密码', '银行卡', 'refund', 'password', 'card', '營業時間', 'top-up'];
  for (let i = 0; i < 400; i += 1) {
    const topic = topics[i % topics.length] ?? '';
    index.upsert(
      rule(
        `r${i}`,
        [`怎么办理${topic} ${i}`, `How do I fix my ${topic} number ${i}?`, `${topic}的问题 #${i}`],
        i % 9 === 0 ? { active: false } : i % 11 === 0 ? { effectEndMs: NOW - 1 } : {},
      ),
    );
  }
  // Replacements and removals leave tombstones that the saved index must keep skipping.
  for (let i = 0; i < 400; i += 13) index.remove(`r${i}`);
  for (let i = 5; i < 400; i += 17) index.upsert(rule(`r${i}`, [`replaced question ${i}`]));
  return index;
}

function copyAligned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

const QUESTIONS = [
  '怎么办理退款 8',
  'how do i fix my refund',
  '營業時間的问题',
  'replaced question 22',
  'pasword numbr 33',
  '完全无关的问题',
  'r0',
];

test('a saved index answers exactly as the original, and follows later writes the same way', () => {
  const original = sample();
  const loaded = loadRobotIndex(copyAligned(saveRobotIndex(original)));
  assert.ok(loaded);
  assert.equal(loaded.size, original.size);
  const answers = (index: RobotIndex) =>
    QUESTIONS.map((q) => JSON.stringify(index.match(q, NOW, DEFAULT_MATCH_SETTINGS)));
  assert.deepEqual(answers(loaded), answers(original));
  for (const index of [original, loaded]) {
    index.upsert(rule('fresh', ['a brand new zebra question']));
    index.upsert(rule('r1', ['怎么办理退款 8']));
    index.remove('r2');
  }
  assert.deepEqual(answers(loaded), answers(original));
  const zebra = loaded.match('a brand new zebra question', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(zebra.kind, 'bestmatch');
  // Saving the opened index again gives an index that still answers the same.
  const again = loadRobotIndex(copyAligned(saveRobotIndex(loaded)));
  assert.ok(again);
  assert.deepEqual(answers(again), answers(original));
});

test('damaged or foreign bytes are refused', () => {
  const bytes = saveRobotIndex(sample());
  assert.throws(() => loadRobotIndex(copyAligned(bytes.subarray(0, bytes.length >> 1))));
  const wrongMagic = copyAligned(bytes);
  wrongMagic[0] = 0;
  assert.throws(() => loadRobotIndex(wrongMagic));
  assert.throws(() => loadRobotIndex(copyAligned(new TextEncoder().encode('{"not":"an index"}'))));
});

test('text that skips Unicode normalisation really is unchanged by it', () => {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0x3001, 0x3035],
    [0x4e00, 0x9fff],
  ];
  for (const [from, to] of ranges) {
    for (let code = from; code <= to; code += 1) {
      const char = String.fromCodePoint(code);
      assert.ok(isNormalizationStable(char));
      if (code > 0x7e) {
        assert.equal(char.normalize('NFKC'), char, `U+${code.toString(16)} changes under NFKC`);
        assert.equal(char.normalize('NFD'), char, `U+${code.toString(16)} changes under NFD`);
        assert.equal(char.toLowerCase(), char);
      }
    }
  }
  assert.equal(normalizeText('ＡＢＣ，我們'), normalizeText('abc 我们'));
});

test('Traditional characters are converted and Simplified text is left alone', () => {
  assert.equal(toSimplified('資料庫'), '资料库');
  assert.equal(toSimplified('怎麼辦理開戶'), '怎么办理开户');
  assert.equal(toSimplified('怎么办理开户'), '怎么办理开户');
  assert.equal(toSimplified('为什么不能转账'), '为什么不能转账');
});

test('a saved index opens in another process, whatever Han text that process saw first', async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-index-'));
  try {
    const file = join(dir, 'index.bin');
    writeFileSync(file, saveRobotIndex(sample()));
    const script = `
      import { readFileSync } from 'node:fs';
      import { textTerms } from './electron/service/matching/features.ts';
      import { loadRobotIndex, DEFAULT_MATCH_SETTINGS } from './electron/service/matching/index.ts';
      textTerms('完全不同的汉字先出现：鳄鱼、麒麟、龙虾');
      const bytes = readFileSync(${JSON.stringify(file)});
      const copy = new Uint8Array(bytes.length); copy.set(bytes);
      const index = loadRobotIndex(copy);
      if (!index) { console.log('null'); process.exit(0); }
      console.log(JSON.stringify(index.match('怎么办理退款 8', ${NOW}, DEFAULT_MATCH_SETTINGS)));
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: process.cwd(),
        encoding: 'utf8',
      },
    );
    assert.equal(child.status, 0, child.stderr);
    const expected = JSON.stringify(sample().match('怎么办理退款 8', NOW, DEFAULT_MATCH_SETTINGS));
    assert.equal(child.stdout.trim(), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an index streamed in pieces is the same bytes, and texts in any script come back', () => {
  const index = sample();
  index.upsert(
    rule('emoji', ['😀 表情 café', 'lone \ud800 surrogate', '', 'ok'], { ruleName: '名字 ✓' }),
  );
  const pieces: Uint8Array[] = [];
  const length = writeRobotIndex(index, (chunk) => pieces.push(chunk.slice()));
  const whole = saveRobotIndex(index);
  assert.equal(length, whole.length);
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(whole));
  const loaded = loadRobotIndex(copyAligned(whole));
  assert.ok(loaded);
  const decision = loaded.match('😀 表情 café', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(decision.kind, 'bestmatch');
  if (decision.kind === 'bestmatch') {
    assert.equal(decision.top.ruleId, 'emoji');
    assert.equal(decision.top.question, '😀 表情 café');
  }
  // Ids of rules never asked about are read on the first write that needs them.
  loaded.remove('emoji');
  loaded.upsert(rule('r3', ['brand new words for r3']));
  assert.equal(loaded.size, index.size - 1);
  assert.equal(topOf(loaded, 'brand new words for r3'), 'r3');
});

/** The rule and phrasing an exact match answers with. */
function exactTop(index: SynonymAwareRobotIndex, question: string): [string, string] | undefined {
  const decision = index.matchExact(question, NOW);
  return decision?.kind === 'bestmatch' ? [decision.top.ruleId, decision.top.question] : undefined;
}

function topOf(index: RobotIndex, question: string): string | undefined {
  const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
  return decision.kind === 'bestmatch' ? decision.top.ruleId : undefined;
}

test('a file of an older format is not opened: the caller re-indexes', () => {
  // Format 4 kept the forward lists as Int32 arrays; 5 reads them as varints.
  const old = new SnapshotWriter();
  old.value('format', 4);
  assert.equal(loadRobotIndex(copyAligned(old.toBytes())), null);
});

test('every phrasing reads back as written, through term ids of three bytes, compaction and a save', () => {
  const index = createRobotIndex({ selfCalibration: false });
  // A number per rule: over 16,384 terms, so the late rules' ids take three bytes.
  const texts = (i: number) => [`how do i renew card ${i}`, '', `续费 编号${i}`, `last ${i} one`];
  for (let i = 0; i < 9000; i += 1) index.upsert(rule(`r${i}`, texts(i)));
  index.upsert(rule('nul', ['before', 'a\u0000b question', 'zebra crossing']));
  // Replacing enough rules to compact the store (its dead phrasings rewritten away).
  for (let i = 0; i < 9000; i += 2) index.upsert(rule(`r${i}`, [...texts(i), `extra ${i}`]));
  const check = (checked: SynonymAwareRobotIndex) => {
    for (const i of [0, 1, 4, 5, 8191, 8999]) {
      for (const text of [...texts(i), ...(i % 2 === 0 ? [`extra ${i}`] : [])]) {
        if (text === '') continue;
        assert.deepEqual(exactTop(checked, text), [`r${i}`, text]);
      }
    }
    // The question after one holding a NUL keeps its own text, saved or not.
    assert.deepEqual(exactTop(checked, 'zebra crossing'), ['nul', 'zebra crossing']);
    assert.equal(topOf(checked, 'how do i renew card 8999'), 'r8999');
  };
  check(index);
  const loaded = loadRobotIndex(copyAligned(saveRobotIndex(index)));
  assert.ok(loaded);
  check(loaded);
});
