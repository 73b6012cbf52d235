import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchSettings, RobotIndex } from '../../../electron/service/matching/types';
import { outcomeOf } from '../../../electron/service/publishing/impact-outcome';
import { fillIndex, matchableRules } from '../../bench/generate-rules';
import { zipfKb } from '../../bench/zipf-kb';
import { NOW, indexOf, scenario } from '../../helpers/impact-scenario';

/**
 * `decideKind` (decision 192) against `decide`, question by question: the same kind and rule,
 * and every kind met (the bounds decide some, fuse.js the rest).
 */
function sameAsDecide(
  index: RobotIndex,
  questions: readonly string[],
  settings: MatchSettings,
  what: string,
): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const question of questions) {
    const expected = outcomeOf(index.decide?.(question, NOW, settings) as never);
    const got = index.decideKind?.(question, NOW, settings);
    assert.deepEqual(
      got && { kind: got.kind, ruleId: got.ruleId },
      { kind: expected.kind, ruleId: expected.ruleId },
      `${what}: ${question}`,
    );
    kinds[expected.kind] = (kinds[expected.kind] ?? 0) + 1;
  }
  return kinds;
}

/** Settings where the margin, the BESTMATCH and the RECOMMEND thresholds all bite. */
const SETTINGS: MatchSettings[] = [
  DEFAULT_MATCH_SETTINGS,
  { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: 0.6, recommendThreshold: 0.4, margin: 0.05 },
  { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: 0.8, recommendThreshold: 0.3, margin: 0.3 },
];

test('decideKind answers what decide answers, on a self-calibrated robot and its draft, under several thresholds', () => {
  const { before, after, questions } = scenario(21, 7);
  for (const [name, rules] of [
    ['published', before],
    ['draft', after],
  ] as const) {
    const index = indexOf(rules);
    SETTINGS.forEach((settings, i) => {
      const kinds = sameAsDecide(
        index,
        questions.map((question) => question.text),
        settings,
        `${name}, settings ${i}`,
      );
      for (const kind of ['bestmatch', 'recommend', 'none']) {
        assert.ok((kinds[kind] ?? 0) > 0, `not vacuous: ${kind} met (${name}, settings ${i})`);
      }
    });
  }
});

test('decideKind answers what decide answers on a Zipf knowledge base (the impact bench’s)', () => {
  const kb = zipfKb(1500, 7);
  const index = fillIndex(createRobotIndex(), matchableRules(kb.rules));
  index.selfCalibrate?.(NOW);
  const questions = kb.questions(1500);
  SETTINGS.forEach((settings, i) => {
    const kinds = sameAsDecide(index, questions, settings, `Zipf, settings ${i}`);
    assert.ok((kinds.bestmatch ?? 0) > 0 && (kinds.recommend ?? 0) > 0, `not vacuous (${i})`);
  });
});
