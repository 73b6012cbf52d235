/**
 * Fusion of the lexical candidates with the nearest phrasings by cosine (an embedding model's):
 * one ranking and one 0..1 score that reads as the lexical score does (docs/matching.md,
 * "Fusion"). A candidate's log-odds are its lexical score's, plus the semantic evidence of the
 * robot's model weighted as the robot's own self-test found it worth (fusion-calibration.ts):
 *
 *   z = logit(lexical score) + gap·g + cosine·s + shift + offset
 *
 * where s is the rule's best cosine and g its lead over the best other rule (negative when
 * another rule is nearer). A model that told the self-test nothing gets no weight, and the
 * lexical candidates are returned as they are.
 * @module
 */
import type { VectorSearch } from './rule-vectors';
import type { Candidate } from './types';

/** What the self-test found the robot's model worth. */
export interface FusionModel {
  /** Weight of the rule's lead over the nearest other rule, by cosine. */
  gap: number;
  /** Weight of the rule's best cosine. */
  cosine: number;
  /** Moves the lexical channel's log-odds by what the semantic terms add on average. */
  shift: number;
  /** The robot's correction, never above 0: at most 1% of its probes answered wrongly. */
  offset: number;
  /** Self-test probes the model was fitted on… */
  probes: number;
  /** …and examples from the robot's traffic (fusion-traffic.ts). */
  examples: number;
  /** Log-likelihood the semantic terms gained on the probes (0: not worth using). */
  gain: number;
}

/** A model that adds nothing: fusion is off, the lexical candidates stand. */
export const NO_FUSION: FusionModel = {
  gap: 0,
  cosine: 0,
  shift: 0,
  offset: 0,
  probes: 0,
  examples: 0,
  gain: 0,
};

export const fusionActive = (model: FusionModel): boolean => model.gap !== 0 || model.cosine !== 0;

/** The rules of a fused ranking kept (the explanation's length). */
export const FUSED_COUNT = 10;
/** Rules taken from the vector search into the fusion. */
export const SEMANTIC_COUNT = 10;
const MAX_INEXACT = 0.99;
const LOW_SCORE = 0.02;

export const logit = (p: number): number => {
  const q = Math.min(MAX_INEXACT, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** What the fusion reads of one rule of the union of both channels. */
export interface FusionFeatures {
  ruleId: string;
  exact: boolean;
  /** Lexical log-odds (a rule the lexical list does not hold: below every rule it holds). */
  lexical: number;
  /** The rule's best cosine (0 without a vector) and its lead over the nearest other rule. */
  cosine: number;
  gap: number;
}

/** One rule of the union of both channels, with its candidate and nearest phrasing. */
export interface FusionRow extends FusionFeatures {
  candidate: Candidate | undefined;
  nearest: { question: string; cosine: number } | undefined;
}

/** The union of the lexical candidates and the nearest rules, with their features. */
export function fusionRows(lexical: readonly Candidate[], search: VectorSearch): FusionRow[] {
  const first = search.hits[0];
  const second = search.hits[1];
  let floor = logit(LOW_SCORE);
  for (const candidate of lexical) floor = Math.min(floor, logit(candidate.score));
  const rows: FusionRow[] = [];
  const seen = new Set<string>();
  const add = (ruleId: string, candidate: Candidate | undefined) => {
    if (seen.has(ruleId)) return;
    seen.add(ruleId);
    const hit = search.cosineOf(ruleId);
    const cosine = hit?.cosine ?? 0;
    const best = first?.ruleId === ruleId ? (second?.cosine ?? 0) : (first?.cosine ?? 0);
    rows.push({
      ruleId,
      exact: candidate !== undefined && candidate.score >= 1,
      lexical: candidate === undefined ? floor : logit(candidate.score),
      cosine,
      gap: hit === undefined ? -1 : cosine - best,
      candidate,
      nearest: hit && { question: hit.question, cosine: hit.cosine },
    });
  };
  for (const candidate of lexical) add(candidate.ruleId, candidate);
  for (const hit of search.hits) add(hit.ruleId, undefined);
  return rows;
}

/** The fused log-odds of a row under a model. */
export function fusedLogit(row: FusionFeatures, model: FusionModel): number {
  return row.lexical + model.gap * row.gap + model.cosine * row.cosine + model.shift + model.offset;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The fused candidates, best first (an exact phrasing first, at 1). Without an active model the
 * lexical candidates keep their order and scores; each is told its nearest phrasing all the same.
 */
export function fuse(
  lexical: readonly Candidate[],
  search: VectorSearch,
  model: FusionModel,
): Candidate[] {
  return fuseRows(fusionRows(lexical, search), model);
}

/** `fuse` of rows already made (`fusionRows`). */
export function fuseRows(rows: readonly FusionRow[], model: FusionModel): Candidate[] {
  const active = fusionActive(model);
  const scored = rows
    .filter((row) => active || row.candidate !== undefined)
    .map((row) => {
      const z = fusedLogit(row, model);
      const score = row.exact
        ? 1
        : active
          ? Math.min(MAX_INEXACT, sigmoid(z))
          : (row.candidate?.score ?? 0);
      const base: Candidate = row.candidate ?? {
        ruleId: row.ruleId,
        question: row.nearest?.question ?? '',
        score: 0,
        parts: {},
      };
      const candidate: Candidate = {
        ...base,
        score,
        parts: {
          ...base.parts,
          lexicalScore: row.candidate?.score ?? 0,
          vectorCosine: round4(row.cosine),
          vectorGap: round4(row.gap),
          ...(active ? { fusedOffset: model.offset } : {}),
        },
        ...(row.nearest ? { nearest: row.nearest } : {}),
      };
      return { candidate, z: row.exact ? Infinity : z };
    });
  if (active) scored.sort((a, b) => b.z - a.z);
  return scored.slice(0, FUSED_COUNT).map((entry) => entry.candidate);
}

/** The ranking of the model alone: rules by their nearest phrasing's cosine. */
export function vectorRanking(search: VectorSearch): string[] {
  return search.hits.map((hit) => hit.ruleId);
}

/** Rounds a fitted model for display and storage. */
export function roundedModel(model: FusionModel): FusionModel {
  return {
    gap: round4(model.gap),
    cosine: round4(model.cosine),
    shift: round4(model.shift),
    offset: model.offset,
    probes: model.probes,
    examples: model.examples,
    gain: round4(model.gain),
  };
}
