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
}

/** Coefficients of the logistic model (intercept last). */
export const CALIBRATION = {
  margin: 1,
  closest: 3,
  coverage: 2,
  fuzzy: 1,
  intercept: -4,
} as const;

/** A lead this large is as good as certain; capping keeps one huge margin from dominating. */
const MARGIN_CAP = 8;
/** Only an exact phrasing may score 1. */
const MAX_INEXACT = 0.99;

export function calibrate(input: CalibrationInput): number {
  const margin = Math.max(-MARGIN_CAP, Math.min(MARGIN_CAP, input.margin));
  const z =
    CALIBRATION.margin * margin +
    CALIBRATION.closest * input.closest +
    CALIBRATION.coverage * input.coverage +
    CALIBRATION.fuzzy * input.fuzzy +
    CALIBRATION.intercept;
  const p = 1 / (1 + Math.exp(-z));
  return Math.min(MAX_INEXACT, Math.max(0, p));
}
