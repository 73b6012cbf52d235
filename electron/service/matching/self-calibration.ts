/**
 * Per-robot calibration. The offline model (calibrate.ts) reads a candidate's score parts the
 * same way in every knowledge base, but what a part means depends on the knowledge base: with
 * ten phrasings per rule a large lead is rare by chance, with one phrasing per rule and
 * thousands of similar rules a wrong rule often leads by as much. The robot's self-test
 * (self-test.ts) measures this on its own rules, and the robot's scores are lowered (an offset
 * added to every inexact candidate's log-odds) until its own phrasings are almost never
 * answered with a wrong rule.
 * @module
 */
import type { Probe } from './self-test';
import { CERTAIN_LOGIT } from './self-test';

/**
 * The robot's offset: the largest (in 0, −0.25, … −MAX_LOWER) under which at most
 * `WRONG_ANSWER_RATE` of its probes would be answered BESTMATCH with another rule. A probe is a
 * phrasing the robot's own author wrote for one rule; when the knowledge base answers it with
 * another rule, confidently, real questions will fare no better.
 */
export function calibrationOffset(
  probes: readonly Probe[],
  decision: DecisionSettings = DEFAULT_DECISION,
  rate = WRONG_ANSWER_RATE,
  highest = 0,
): number {
  if (probes.length === 0) return 0;
  const allowed = Math.floor(rate * probes.length);
  for (let offset = highest; offset > -MAX_LOWER; offset -= STEP) {
    let wrong = 0;
    for (const probe of probes) {
      if (probe.topRuleId !== probe.ruleId && answers(probe, offset, decision)) wrong += 1;
    }
    if (wrong <= allowed) return offset;
  }
  return -MAX_LOWER;
}

/** The part of a robot's settings the offset is fitted for. */
export interface DecisionSettings {
  bestmatchThreshold: number;
  margin: number;
}

const DEFAULT_DECISION: DecisionSettings = { bestmatchThreshold: 0.94, margin: 0.1 };
/** Share of probes that may be answered BESTMATCH with a wrong rule. */
export const WRONG_ANSWER_RATE = 0.01;
const STEP = 0.25;
const MAX_LOWER = 4;
const MAX_INEXACT = 0.99;

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Whether the probe's best rule would be BESTMATCH under `offset` (as decide.ts decides). */
function answers(probe: Probe, offset: number, decision: DecisionSettings): boolean {
  const topExact = probe.topLogit >= CERTAIN_LOGIT;
  const secondExact = probe.secondLogit >= CERTAIN_LOGIT;
  const top = topExact ? 1 : Math.min(MAX_INEXACT, sigmoid(probe.topLogit + offset));
  const second = secondExact ? 1 : Math.min(top, MAX_INEXACT, sigmoid(probe.secondLogit + offset));
  if (top === 1 && second < 1) return true;
  return top >= decision.bestmatchThreshold && top - second >= decision.margin;
}
