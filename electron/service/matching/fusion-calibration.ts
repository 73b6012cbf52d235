/**
 * What a robot's embedding model is worth on its own rules: the self-test's probes (each phrasing
 * asked without itself, self-test.ts) answered by both channels, and a logistic model fitted on
 * them with the lexical log-odds as a fixed offset, so that only the semantic terms are learnt.
 * A model whose terms do not improve the fit's log-likelihood by GAIN_MIN gets no weight (a model
 * of noise changes nothing); one that does is weighted as fitted, and the robot's offset is then
 * lowered, as self-calibration.ts does for the lexical channel, until at most 1% of its probes
 * would be answered BESTMATCH with another rule.
 * @module
 */
import type { FusionFeatures, FusionModel } from './fusion';
import { NO_FUSION, fusedLogit } from './fusion';
import { calibrationOffset } from './self-calibration';
import type { Probe } from './self-test';
import { CERTAIN_LOGIT } from './self-test';

/**
 * One probe's union of candidates, and the rule it belongs to; or one question of the robot's
 * traffic that the lexical channel answered BESTMATCH, and that answer's rule (fusion-traffic.ts).
 */
export interface FusionProbe {
  ruleId: string;
  rows: readonly FusionFeatures[];
}

/**
 * Log-likelihood the semantic terms must add over the lexical channel alone (with its own
 * intercept): twice it is a likelihood-ratio statistic of 2 degrees of freedom, 6 ≈ p < 0.05.
 */
const GAIN_MIN = 3;
/**
 * Ridge on the weights: a model that separates the probes perfectly keeps finite weights. Where
 * the self-test has rows of the probe's own rule, the data bound the weights and 0.5 is what
 * was measured (decision 78). Where only the traffic has them (one phrasing a rule) its examples
 * and the probes (their rule absent) are separable and the ridge alone sets the weights: 0.5
 * held a perfect model to BESTMATCH for 0.25 of the right answers on pairs-dev, 0.1 for 0.37,
 * while 0.1 everywhere made the weak models of the other sets overweighted (decision 143).
 */
const RIDGE = 0.5;
const RIDGE_TRAFFIC_ONLY = 0.1;
/**
 * How far the offset may be raised where only the traffic has the probes' own rules: there every
 * self-test probe has its rule absent, so any BESTMATCH on it is wrong, and an example is wrong
 * when the fused answer leaves the lexical BESTMATCH; the offset is the highest (from +3 down)
 * at which at most 1% of both would be. Elsewhere it is never raised, as the lexical channel's.
 */
const MAX_RAISE = 3;
const ITERATIONS = 30;

interface Fit {
  weights: number[];
  logLikelihood: number;
}

/**
 * Logistic regression with offset (`offsets[i]` added to each row's log-odds) by Newton's
 * method; `features[i]` are a row's features, the last weight the intercept (not penalised).
 */
function fitLogistic(
  features: number[][],
  offsets: number[],
  labels: number[],
  ridge: number,
): Fit {
  const n = features.length;
  const k = (features[0]?.length ?? 0) + 1;
  const w = new Array<number>(k).fill(0);
  const x = (i: number, j: number) => (j === k - 1 ? 1 : (features[i]?.[j] ?? 0));
  const linear = (i: number) => {
    let z = offsets[i] ?? 0;
    for (let j = 0; j < k; j += 1) z += (w[j] ?? 0) * x(i, j);
    return z;
  };
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    const gradient = new Array<number>(k).fill(0);
    const hessian = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (let i = 0; i < n; i += 1) {
      const p = 1 / (1 + Math.exp(-linear(i)));
      const error = (labels[i] ?? 0) - p;
      const weight = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < k; a += 1) {
        const xa = x(i, a);
        (gradient as number[])[a] = (gradient[a] ?? 0) + error * xa;
        const rowH = hessian[a] as number[];
        for (let b = 0; b < k; b += 1) rowH[b] = (rowH[b] ?? 0) + weight * xa * x(i, b);
      }
    }
    for (let a = 0; a < k - 1; a += 1) {
      gradient[a] = (gradient[a] ?? 0) - ridge * (w[a] ?? 0);
      (hessian[a] as number[])[a] = (hessian[a]?.[a] ?? 0) + ridge;
    }
    const step = solve(hessian, gradient);
    let size = 0;
    for (let j = 0; j < k; j += 1) {
      w[j] = (w[j] ?? 0) + (step[j] ?? 0);
      size = Math.max(size, Math.abs(step[j] ?? 0));
    }
    if (size < 1e-6) break;
  }
  let logLikelihood = 0;
  for (let i = 0; i < n; i += 1) {
    const z = linear(i);
    // log(sigmoid(z)) and log(1 − sigmoid(z)) without overflow.
    const logP = -Math.log1p(Math.exp(-Math.abs(z))) + Math.min(0, z);
    const logQ = logP - z;
    logLikelihood += labels[i] === 1 ? logP : logQ;
  }
  return { weights: w, logLikelihood };
}

/** Solves a small symmetric system by Gaussian elimination with partial pivoting. */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i] ?? 0]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let row = col + 1; row < n; row += 1) {
      if (Math.abs(a[row]?.[col] ?? 0) > Math.abs(a[pivot]?.[col] ?? 0)) pivot = row;
    }
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const head = a[col] as number[];
    const p = head[col] ?? 0;
    if (Math.abs(p) < 1e-12) continue;
    for (let row = 0; row < n; row += 1) {
      if (row === col) continue;
      const target = a[row] as number[];
      const factor = (target[col] ?? 0) / p;
      for (let c = col; c <= n; c += 1) target[c] = (target[c] ?? 0) - factor * (head[c] ?? 0);
    }
  }
  return a.map((row, i) => {
    const p = row[i] ?? 0;
    return Math.abs(p) < 1e-12 ? 0 : (row[n] ?? 0) / p;
  });
}

/** The probe as self-calibration.ts reads it: its best two rules' log-odds under `model`. */
function asProbe(probe: FusionProbe, model: FusionModel): Probe {
  const ranked = probe.rows
    .map((row) => ({ row, z: row.exact ? CERTAIN_LOGIT : fusedLogit(row, model) }))
    .sort((a, b) => b.z - a.z);
  const top = ranked[0];
  const second = ranked[1];
  return {
    ruleId: probe.ruleId,
    question: '',
    ruleHasOthers: true,
    topRuleId: top?.row.ruleId ?? null,
    topScore: 0,
    topLogit: top?.z ?? -CERTAIN_LOGIT,
    secondLogit: second?.z ?? -CERTAIN_LOGIT,
    ownScore: 0,
    ownRank: -1,
    rival: null,
  };
}

/**
 * The robot's fusion model from its probes (each probe's rows scored with the robot's lexical
 * offset, as its questions are). `decision`: the BESTMATCH threshold and margin it is fitted for.
 */
export function fitFusion(
  selfTest: readonly FusionProbe[],
  decision?: { bestmatchThreshold: number; margin: number },
  traffic: readonly FusionProbe[] = [],
): FusionModel {
  const probes = traffic.length === 0 ? selfTest : [...selfTest, ...traffic];
  const counts = { probes: selfTest.length, examples: traffic.length };
  const features: number[][] = [];
  const offsets: number[] = [];
  const labels: number[] = [];
  for (const probe of probes) {
    for (const row of probe.rows) {
      if (row.exact) continue;
      features.push([row.gap, row.cosine]);
      offsets.push(row.lexical);
      labels.push(row.ruleId === probe.ruleId ? 1 : 0);
    }
  }
  if (labels.length === 0 || !labels.includes(1)) return { ...NO_FUSION, ...counts };
  const selfTestPositive = selfTest.some((probe) =>
    probe.rows.some((row) => !row.exact && row.ruleId === probe.ruleId),
  );
  const ridge = selfTestPositive ? RIDGE : RIDGE_TRAFFIC_ONLY;
  const lexicalOnly = fitLogistic(
    features.map(() => []),
    offsets,
    labels,
    ridge,
  );
  const fused = fitLogistic(features, offsets, labels, ridge);
  const gain = fused.logLikelihood - lexicalOnly.logLikelihood;
  const [gap = 0, cosine = 0, intercept = 0] = fused.weights;
  // A model worth nothing, or one that reads nearer as less likely, is left out.
  if (!(gain >= GAIN_MIN) || gap <= 0) return { ...NO_FUSION, ...counts, gain };
  const shift = intercept - (lexicalOnly.weights[0] ?? 0);
  const model: FusionModel = { gap, cosine, shift, offset: 0, ...counts, gain };
  const offset = calibrationOffset(
    probes.map((probe) => asProbe(probe, model)),
    decision,
    undefined,
    selfTestPositive ? 0 : MAX_RAISE,
  );
  return { ...model, offset };
}
