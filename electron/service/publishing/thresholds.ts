/**
 * Threshold tuning with evidence: the robot's test set asked once, then decided again at every
 * BESTMATCH and RECOMMEND threshold of a grid, counting answered / right / wrong / recommended.
 * @module
 */
import type { ThresholdCurves, ThresholdPoint } from '../publishing-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { decide } from '../matching/decide';
import type { MatchSettings } from '../matching/types';
import { askAll, meets } from './test-runs';
import type { Asked } from './test-runs';
import { withTargetIndex } from './targets';
import type { Target } from './targets';

/** Thresholds of the grid: 0 to 1 by 0.02. */
const GRID = Array.from({ length: 51 }, (_, i) => Math.round(i * 2) / 100);

function pointAt(
  asked: readonly Asked[],
  settings: MatchSettings,
  threshold: number,
): ThresholdPoint {
  const point = { threshold, answered: 0, right: 0, wrong: 0, recommended: 0, passed: 0 };
  for (const { test, decision } of asked) {
    const again = decide(decision.candidates, settings);
    if (again.kind === 'bestmatch') {
      point.answered++;
      if (test.expect === 'rule' && again.top.ruleId === test.ruleId) point.right++;
      else point.wrong++;
    } else if (again.kind === 'recommend') point.recommended++;
    if (meets(test, again)) point.passed++;
  }
  return point;
}

export async function thresholdCurves(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
): Promise<ThresholdCurves> {
  const cases = await ctx.store.testSets.cases(robot);
  const settings = robot.settings;
  const asked = await withTargetIndex(ctx, robot, target, (held) =>
    askAll(held, cases, settings, ctx.now()),
  );
  return {
    cases: cases.length,
    current: {
      bestmatchThreshold: settings.bestmatchThreshold,
      recommendThreshold: settings.recommendThreshold,
    },
    bestmatch: GRID.map((t) =>
      pointAt(
        asked,
        {
          ...settings,
          bestmatchThreshold: t,
          recommendThreshold: Math.min(t, settings.recommendThreshold),
        },
        t,
      ),
    ),
    recommend: GRID.filter((t) => t <= settings.bestmatchThreshold).map((t) =>
      pointAt(asked, { ...settings, recommendThreshold: t }, t),
    ),
  };
}
