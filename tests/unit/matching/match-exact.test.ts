/**
 * `matchExact` (test runs' shortcut) must give `match`'s decision whenever it gives one: the
 * same kind, rule and score, on a knowledge base with shared phrasings, switched-off and
 * out-of-window rules, synonyms and typed variants of every phrasing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { generateRules } from '../../bench/generate-rules';
import { matchableRule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 23);
const DAY = 86_400_000;

function knowledgeBase(): MatchableRule[] {
  const rules = generateRules(400, 7).map((input, i) =>
    matchableRule(`r${i}`, input.questions, {
      ruleName: input.ruleName,
      active: i % 17 !== 3,
      effectEndMs: i % 23 === 5 ? NOW - DAY : null,
      effectBeginMs: i % 29 === 7 ? NOW + DAY : null,
    }),
  );
  // Two rules sharing a phrasing: an ambiguity `match` does not answer BESTMATCH.
  rules.push(matchableRule('shared-a', ['where is my parcel', 'parcel tracking']));
  rules.push(matchableRule('shared-b', ['where is my parcel', 'lost parcel claim']));
  return rules;
}

const variants = (question: string): string[] => [
  question,
  question.toUpperCase(),
  ` ${question}? `,
  question.split(' ').slice(1).join(' '),
];

test('matchExact answers only as match does', () => {
  const index = createRobotIndex();
  for (const rule of knowledgeBase()) index.upsert(rule);
  index.setSynonyms([['refund', 'reimbursement']]);
  let shortcuts = 0;
  let asked = 0;
  for (const rule of knowledgeBase()) {
    for (const question of [...rule.questions, rule.ruleName].flatMap(variants)) {
      if (question.trim() === '') continue;
      asked++;
      const quick = index.matchExact(question, NOW);
      if (!quick) continue;
      shortcuts++;
      const full = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
      assert.equal(full.kind, 'bestmatch', question);
      assert.equal(quick.kind, 'bestmatch');
      if (full.kind === 'bestmatch' && quick.kind === 'bestmatch') {
        assert.equal(quick.top.ruleId, full.top.ruleId, question);
        assert.equal(quick.top.score, full.top.score, question);
      }
    }
  }
  // Not vacuous: most whole phrasings of rules in effect take the shortcut.
  assert.ok(shortcuts > asked / 4, `${shortcuts} shortcuts of ${asked} questions`);
  assert.equal(index.matchExact('where is my parcel', NOW), undefined, 'shared phrasing');
  assert.equal(index.matchExact('a question no rule has', NOW), undefined);
});

test('matchExact leaves robots with match policies to match', () => {
  const index = createRobotIndex();
  index.upsert(matchableRule('plain', ['opening hours']));
  index.upsert(matchableRule('guarded', ['store hours'], { negativeKeywords: ['holiday'] }));
  assert.equal(index.matchExact('opening hours', NOW), undefined);
});
