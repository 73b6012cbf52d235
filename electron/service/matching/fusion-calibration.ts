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
 * while 0.1 everywhere made the weak models of the other sets overweighted (decision 145).
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
function* fitLogistic(
  features: Float64Array,
  width: number,
  offsets: Float64Array,
  labels: Uint8Array,
  ridge: number,
): Generator<void, Fit> {
  // Flat typed arrays, no closure per element: a refit of 1,000 probes and 1,000 examples
  // (~25k rows) must stay well within one turn of the event loop.
  const n = offsets.length;
  const k = width + 1;
  const w = new Float64Array(k);
  const x = new Float64Array(k);
  const gradient = new Float64Array(k);
  const hessian = new Float64Array(k * k);
  const load = (i: number) => {
    for (let j = 0; j < width; j += 1) x[j] = features[i * width + j] as number;
    x[width] = 1;
  };
  const linear = (i: number) => {
    let z = offsets[i] as number;
    for (let j = 0; j < k; j += 1) z += (w[j] as number) * (x[j] as number);
    return z;
  };
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    gradient.fill(0);
    hessian.fill(0);
    for (let i = 0; i < n; i += 1) {
      load(i);
      const p = 1 / (1 + Math.exp(-linear(i)));
      const error = (labels[i] as number) - p;
      const weight = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < k; a += 1) {
        const xa = x[a] as number;
        gradient[a] = (gradient[a] as number) + error * xa;
        for (let b = 0; b < k; b += 1) {
          hessian[a * k + b] = (hessian[a * k + b] as number) + weight * xa * (x[b] as number);
        }
      }
    }
    for (let a = 0; a < k - 1; a += 1) {
      gradient[a] = (gradient[a] as number) - ridge * (w[a] as number);
      hessian[a * k + a] = (hessian[a * k + a] as number) + ridge;
    }
    const rows = Array.from({ length: k }, (_, a) =>
      Array.from(hessian.subarray(a * k, a * k + k)),
    );
    const step = solve(rows, Array.from(gradient));
    let size = 0;
    for (let j = 0; j < k; j += 1) {
      w[j] = (w[j] as number) + (step[j] ?? 0);
      size = Math.max(size, Math.abs(step[j] ?? 0));
    }
    if (size < 1e-6) break;
    // One Newton step over every row at a time: the caller may hand the event loop back here.
    yield;
  }
  let logLikelihood = 0;
  for (let i = 0; i < n; i += 1) {
    load(i);
    const z = linear(i);
    // log(sigmoid(z)) and log(1 − sigmoid(z)) without overflow.
    const logP = -Math.log1p(Math.exp(-Math.abs(z))) + Math.min(0, z);
    const logQ = logP - z;
    logLikelihood += labels[i] === 1 ? logP : logQ;
  }
  return { weights: Array.from(w), logLikelihood };
}

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
  const fitting = fitFusionInSteps(selfTest, decision, traffic);
  for (;;) {
    const next = fitting.next();
    if (next.done) return next.value;
  }
}

/**
 * `fitFusion` one Newton step at a time (each a pass over the rows, ~1 ms at 25k rows): the
 * calibration's run hands the event loop back between steps (semantic-index.ts).
 */
export function* fitFusionInSteps(
  selfTest: readonly FusionProbe[],
  decision?: { bestmatchThreshold: number; margin: number },
  traffic: readonly FusionProbe[] = [],
): Generator<void, FusionModel> {
  const probes = traffic.length === 0 ? selfTest : [...selfTest, ...traffic];
  const counts = { probes: selfTest.length, examples: traffic.length };
  let n = 0;
  for (const probe of probes) for (const row of probe.rows) if (!row.exact) n += 1;
  const features = new Float64Array(2 * n);
  const offsets = new Float64Array(n);
  const labels = new Uint8Array(n);
  let at = 0;
  for (const probe of probes) {
    for (const row of probe.rows) {
      if (row.exact) continue;
      features[2 * at] = row.gap;
      features[2 * at + 1] = row.cosine;
      offsets[at] = row.lexical;
      labels[at] = row.ruleId === probe.ruleId ? 1 : 0;
      at += 1;
    }
  }
  if (n === 0 || !labels.includes(1)) return { ...NO_FUSION, ...counts };
  const selfTestPositive = selfTest.some((probe) =>
    probe.rows.some((row) => !row.exact && row.ruleId === probe.ruleId),
  );
  const ridge = selfTestPositive ? RIDGE : RIDGE_TRAFFIC_ONLY;
  const lexicalOnly = yield* fitLogistic(new Float64Array(0), 0, offsets, labels, ridge);
  const fused = yield* fitLogistic(features, 2, offsets, labels, ridge);
  const gain = fused.logLikelihood - lexicalOnly.logLikelihood;
  const [gap = 0, cosine = 0, intercept = 0] = fused.weights;
  // A model worth nothing, or one that reads nearer as less likely, is left out.
  if (!(gain >= GAIN_MIN) || gap <= 0) return { ...NO_FUSION, ...counts, gain };
  const shift = intercept - (lexicalOnly.weights[0] ?? 0);
  const model: FusionModel = { gap, cosine, shift, offset: 0, ...counts, gain };
  yield;
  const offset = calibrationOffset(
    probes.map((probe) => asProbe(probe, model)),
    decision,
    undefined,
    selfTestPositive ? 0 : MAX_RAISE,
  );
  return { ...model, offset };
}
