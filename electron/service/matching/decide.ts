/**
 * Turns scored candidates into the answer kind: BESTMATCH, RECOMMEND or NONE.
 * @module
 */
import type { Candidate, MatchDecision, MatchSettings } from './types';

/**
 * RECOMMEND lists rules scoring at least this share of the recommend threshold: the list is
 * a "did you mean" menu, where a related rule just under the threshold still helps the user.
 */
const RECOMMEND_FLOOR_SHARE = 0.5;

/**
 * `candidates` must be distinct rules sorted by descending score; an exact phrasing scores
 * exactly 1 and only an exact phrasing does.
 */
export function decide(candidates: Candidate[], settings: MatchSettings): MatchDecision {
  const top = candidates[0];
  if (top === undefined) return { kind: 'none', candidates };
  const runnerUp = candidates[1]?.score ?? 0;
  // An exact phrasing is the author's own answer to this very question; it wins unless another
  // rule has the same phrasing, which is a genuine ambiguity.
  const exactWin = top.score === 1 && runnerUp < 1;
  const clearWin =
    top.score >= settings.bestmatchThreshold && top.score - runnerUp >= settings.margin;
  if (exactWin || clearWin) return { kind: 'bestmatch', top, candidates };
  if (top.score >= settings.recommendThreshold) {
    const floor = settings.recommendThreshold * RECOMMEND_FLOOR_SHARE;
    const items = candidates
      .filter((candidate, i) => i === 0 || candidate.score >= floor)
      .slice(0, Math.max(1, settings.maxRecommend));
    return { kind: 'recommend', items, candidates };
  }
  return { kind: 'none', candidates };
}
