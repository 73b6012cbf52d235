// PLACEHOLDER: the lead's stand-in so the service core can be tested before the matching engine
// lands. helper-1 (matching engine) owns this file and replaces it whole.
import type { Candidate, MatchDecision, MatchSettings, MatchableRule, RobotIndex } from './types';

export const DEFAULT_MATCH_SETTINGS: MatchSettings = {
  bestmatchThreshold: 0.8,
  recommendThreshold: 0.3,
  margin: 0.05,
  maxRecommend: 5,
};

const norm = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
const grams = (s: string) => {
  const t = norm(s);
  const words = new Set(t.split(' ').filter(Boolean));
  for (const ch of t.replace(/\s/g, '')) if (/\p{Script=Han}/u.test(ch)) words.add(ch);
  return words;
};

export function createRobotIndex(): RobotIndex {
  const rules = new Map<string, MatchableRule>();
  return {
    get size() {
      return rules.size;
    },
    upsert: (rule) => void rules.set(rule.ruleId, rule),
    remove: (id) => void rules.delete(id),
    match(question: string, nowMs: number, settings: MatchSettings): MatchDecision {
      const q = grams(question);
      const nq = norm(question);
      const candidates: Candidate[] = [];
      for (const rule of rules.values()) {
        if (!rule.active) continue;
        if (rule.effectBeginMs !== null && nowMs < rule.effectBeginMs) continue;
        if (rule.effectEndMs !== null && nowMs > rule.effectEndMs) continue;
        let best = { question: '', score: 0 };
        for (const phrasing of rule.questions) {
          if (norm(phrasing) === nq) {
            best = { question: phrasing, score: 1 };
            break;
          }
          const p = grams(phrasing);
          let common = 0;
          for (const g of q) if (p.has(g)) common++;
          const score = common / Math.max(q.size, p.size, 1);
          if (score > best.score) best = { question: phrasing, score };
        }
        if (best.score > 0)
          candidates.push({
            ruleId: rule.ruleId,
            question: best.question,
            score: best.score,
            parts: {},
          });
      }
      candidates.sort((a, b) => b.score - a.score);
      const top = candidates[0];
      const second = candidates[1];
      if (
        top &&
        top.score >= settings.bestmatchThreshold &&
        (!second || top.score - second.score >= settings.margin)
      )
        return { kind: 'bestmatch', top, candidates };
      if (top && top.score >= settings.recommendThreshold)
        return { kind: 'recommend', items: candidates.slice(0, settings.maxRecommend), candidates };
      return { kind: 'none', candidates };
    },
  };
}
