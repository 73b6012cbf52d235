/**
 * The collision report measured (`npm run eval` prints it after the answer quality): on each
 * dataset, and on the templated shop knowledge base (tests/fixtures/shop-kb.ts),
 *   flaggedShare   share of the rules the report names (the grid marks them)
 *   findings       the report's findings by cause
 *   claims         its statements about what asking gives (the checked causes, and a risk's
 *                  "asked as written, the phrasing gets its own rule"), and
 *   falseClaims    how many of them asking (index.match, as the ask API) contradicts
 *   wrongAnswers   queries answered BESTMATCH with another rule than theirs, and
 *   recall         the share of them whose two rules the report names together (it predicted
 *                  the mistake)
 *   wrongFirst / recallFirst  the same for queries whose first candidate is another rule (the
 *                  RECOMMEND lists and NONE answers included)
 *   reportMs       time of the report (sliced; the whole run, turns of the event loop included)
 * @module
 */
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import type { CollisionCause, MatchSettings } from '../../electron/service/matching/types';
import { shopKnowledgeBase } from '../fixtures/shop-kb';
import { claimHolds } from '../helpers/collision-claims';

const NOW = Date.UTC(2025, 0, 1);

export interface ConflictRule {
  ruleName: string;
  questions: readonly string[];
  negativeKeywords?: readonly string[];
}

export interface ConflictQuery {
  question: string;
  ruleName: string | null;
}

export interface ConflictFigures {
  dataset: string;
  report: 'conflicts';
  rules: number;
  probed: number;
  flagged: number;
  flaggedShare: number;
  findings: Partial<Record<CollisionCause, number>>;
  claims: number;
  falseClaims: number;
  wrongAnswers: number;
  predicted: number;
  recall: number | null;
  wrongFirst: number;
  predictedFirst: number;
  recallFirst: number | null;
  reportMs: number;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export async function conflictFigures(
  dataset: string,
  rules: readonly ConflictRule[],
  queries: readonly ConflictQuery[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
): Promise<ConflictFigures> {
  const index = createRobotIndex();
  for (const rule of rules) {
    index.upsert({
      ruleId: rule.ruleName,
      ruleName: rule.ruleName,
      questions: rule.questions,
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
      ...(rule.negativeKeywords ? { negativeKeywords: rule.negativeKeywords } : {}),
    });
  }
  index.selfCalibrate(NOW);
  const start = performance.now();
  const report = await index.collisions({ nowMs: NOW, settings });
  const reportMs = performance.now() - start;

  const flagged = new Set<string>();
  const pairs = new Set<string>();
  const findings: Partial<Record<CollisionCause, number>> = {};
  let claims = 0;
  let falseClaims = 0;
  for (const finding of report.findings) {
    flagged.add(finding.ruleId).add(finding.otherRuleId);
    pairs.add(pairKey(finding.ruleId, finding.otherRuleId));
    findings[finding.cause] = (findings[finding.cause] ?? 0) + 1;
    const holds = claimHolds(index, finding, settings, NOW);
    if (holds === null) continue;
    claims += 1;
    if (!holds) falseClaims += 1;
  }

  let wrongAnswers = 0;
  let predicted = 0;
  let wrongFirst = 0;
  let predictedFirst = 0;
  for (const query of queries) {
    if (query.ruleName === null) continue;
    const decision = index.match(query.question, NOW, settings);
    if (decision.kind === 'bestmatch' && decision.top.ruleId !== query.ruleName) {
      wrongAnswers += 1;
      if (pairs.has(pairKey(query.ruleName, decision.top.ruleId))) predicted += 1;
    }
    const first = decision.candidates[0]?.ruleId;
    if (first !== undefined && first !== query.ruleName) {
      wrongFirst += 1;
      if (pairs.has(pairKey(query.ruleName, first))) predictedFirst += 1;
    }
  }
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  return {
    dataset,
    report: 'conflicts',
    rules: rules.length,
    probed: report.probed,
    flagged: flagged.size,
    flaggedShare: flagged.size / Math.max(1, rules.length),
    findings,
    claims,
    falseClaims,
    wrongAnswers,
    predicted,
    recall: share(predicted, wrongAnswers),
    wrongFirst,
    predictedFirst,
    recallFirst: share(predictedFirst, wrongFirst),
    reportMs,
  };
}

/** The templated shop knowledge base, with its planted conflicts and customers' questions. */
export function shopFigures(settings?: MatchSettings): Promise<ConflictFigures> {
  const { rules, queries } = shopKnowledgeBase();
  return conflictFigures('shop-templated (generated)', rules, queries, settings);
}

function format(value: number | null, digits = 3): string {
  return value === null ? '-' : value.toFixed(digits);
}

export function printConflictTable(rows: readonly ConflictFigures[]): void {
  const header = [
    'dataset',
    'rules',
    'flagged',
    'share',
    'claims',
    'false',
    'wrong BM',
    'predicted',
    'recall',
    'wrong 1st',
    'recall 1st',
    'findings by cause',
  ];
  const lines = rows.map((r) => [
    r.dataset,
    String(r.rules),
    String(r.flagged),
    format(r.flaggedShare),
    String(r.claims),
    String(r.falseClaims),
    String(r.wrongAnswers),
    String(r.predicted),
    format(r.recall),
    String(r.wrongFirst),
    format(r.recallFirst),
    Object.entries(r.findings)
      .map(([cause, count]) => `${cause} ${count}`)
      .join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]): string =>
    cells
      .map((c, i) =>
        i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  console.log('\ncollision report (conflicts): flagged rules, claims checked by asking, recall');
  console.log(render(header));
  for (const line of lines) console.log(render(line));
}
