/**
 * Maps a rule's score parts to one number in 0..1 that reads as "probability that this rule is
 * the right answer". A logistic model over a handful of parts, fitted offline on the
 * development split and synthetic data (tests/eval/fit-calibration.ts); its coefficients live
 * here so that thresholds in MatchSettings keep their meaning across knowledge bases.
 * @module
 */

export interface CalibrationInput {
  /** Ranking-score lead over the best other rule (negative when another rule leads). */
  margin: number;
  /** Cosine with the closest phrasing, 0..1. */
  closest: number;
  /** Share of the question's word weight found in the rule, 0..1. */
  coverage: number;
  /** fuse.js similarity with the closest phrasing, 0..1 (0 when not computed). */
  fuzzy: number;
  /** The rule's share of the ranking evidence among the scored rules, 0..1. */
  posterior: number;
}

/** Coefficients of the logistic model (intercept last). */
export const CALIBRATION = {
  margin: 0.39,
  closest: -0.266,
  coverage: 1.099,
  fuzzy: 2.536,
  posterior: 2.373,
  intercept: -1.222,
} as const;

/** A lead this large is as good as certain; capping keeps one huge margin from dominating. */
const MARGIN_CAP = 8;
/** Only an exact phrasing may score 1. */
const MAX_INEXACT = 0.99;

/** A part that could not be computed (an empty or infinite ranking score) counts as nothing. */
const finite = (value: number, otherwise: number) => (Number.isNaN(value) ? otherwise : value);

/**
 * Coverage enters the model as a logarithm: going from 10% to 30% of the question known matters
 * far more than going from 70% to 90%, and a linear term let one shared phrase carry an
 * otherwise unknown question into RECOMMEND.
 */
export function coverageFeature(coverage: number): number {
  return Math.log(Math.max(0, coverage) + 0.05);
}

const FUZZY_FLOOR = 0.3;
/**
 * fuse.js finds some weak match between almost any two texts; similarity below the floor is
 * noise and counts as none.
 */
export function fuzzyFeature(similarity: number): number {
  return Math.max(0, similarity - FUZZY_FLOOR) / (1 - FUZZY_FLOOR);
}

/**
 * The score of a candidate. `offset` is the robot's own correction to the logit, fitted by its
 * self-test (self-calibration.ts); 0 is the model as fitted offline.
 */
export function calibrate(input: CalibrationInput, offset = 0): number {
  const p = 1 / (1 + Math.exp(-(calibrationLogit(input) + offset)));
  return Math.min(MAX_INEXACT, Math.max(0, p));
}

/** The logistic model's log-odds for a candidate, before any robot's offset. */
export function calibrationLogit(input: CalibrationInput): number {
  // NaN arises when the leader's ranking score is infinite (an exact phrasing): then every
  // other rule trails by as much as can be.
  const margin = Math.max(-MARGIN_CAP, Math.min(MARGIN_CAP, finite(input.margin, -MARGIN_CAP)));
  const z =
    CALIBRATION.margin * margin +
    CALIBRATION.closest * finite(input.closest, 0) +
    CALIBRATION.coverage * coverageFeature(finite(input.coverage, 0)) +
    CALIBRATION.fuzzy * fuzzyFeature(finite(input.fuzzy, 0)) +
    CALIBRATION.posterior * finite(input.posterior, 0) +
    CALIBRATION.intercept;
  return z;
}
