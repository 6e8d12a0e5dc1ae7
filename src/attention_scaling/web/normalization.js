// The normalisation explorer's numbers at any magnitude m in [0.1, 10], any QK-norm gain g in
// [1, 128] and each of three normalisations (attention_scaling.figures.NormalizationFigure.update):
// one query's weights over its 16 keys at d_k = 64, and the largest weight's mean and middle 80 %
// over many queries, at the current m and along the magnitude grid for every mode. The payload is
// a handful of constants (attention_scaling.web.normalization_payload): the one draw is the
// attention explorer's (numerics.shared_draw, drawn here from the seed) and the many queries are
// its five numbers a row (numerics.EnsembleParts), with the keys' rest for the norms.
import {formatGeneral} from "./format.js";
import {expectation, inSteps, meansOf, measures, softmax} from "./numerics.js";
import {chi2Quantile, normals, uniforms} from "./random.js";
import {readoutParts} from "./readout.js";
import {meansNote, weightRows} from "./scale.js";

export const MODES = ["scaled", "qk-l2", "qk-layernorm"];
export const MAGNITUDE_RANGE = [0.1, 10];
export const GAIN_RANGE = [1, 128];

const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

// normalization.l2_normalize: x / |x|
function unit(x) {
  const norm = Math.sqrt(dot(x, x));
  return x.map(v => v / Math.max(norm, 1e-12));
}

// normalization.layer_norm without gain or bias: (x - mean) / sqrt(var + eps)
function layerNorm(x, eps) {
  let mu = 0;
  for (const v of x) mu += v;
  mu /= x.length;
  let variance = 0;
  for (const v of x) variance += (v - mu) * (v - mu);
  variance /= x.length;
  const scale = Math.sqrt(variance + eps);
  return x.map(v => (v - mu) / scale);
}

// numerics.ensemble_parts(d_k, n_keys, n_queries, seed): streams `stream` + 0..4, key j of
// query i at value i * stride + j of its stream
// numerics.ensemble_parts, row by row (`each` rows a step: a generator): each row reads its own
// `keys` values of a stride-wide block of the streams, the same numbers as the whole streams'.
function* ensembleParts(seed, stream, dK, rows, keys, stride, out, each) {
  const chi2 = d => (u => (d > 0 ? chi2Quantile(d, u) : 0));
  out.qMean = normals(seed, stream, rows);
  out.qRest = Float64Array.from(uniforms(seed, stream + 1, rows), chi2(dK - 1));
  out.kMean = [];
  out.kAlong = [];
  out.kRest = [];
  for (let i = 0; i < rows; i++) {
    out.kMean.push(normals(seed, stream + 2, keys, i * stride));
    out.kAlong.push(dK > 1 ? normals(seed, stream + 3, keys, i * stride) : new Float64Array(keys));
    out.kRest.push(Float64Array.from(uniforms(seed, stream + 4, keys, i * stride), chi2(dK - 2)));
    if ((i + 1) % each === 0) yield;
  }
}

// A normalisation explorer; one model a payload (the page's preparation and its view share it).
// model.warm() is its first work (the queries' parts, then the two fixed curves over the grid) in
// steps of a few milliseconds, for a page to run between them (player.js); state() finishes what
// is left at once.
const MODELS = new WeakMap();

export function normalizationModel(payload) {
  if (MODELS.has(payload)) return MODELS.get(payload);
  const {seed, dK, nKeys, maxDim, maxKeys, nQueries, streams, grid, eps} = payload;
  const root = Math.sqrt(dK);
  const q = normals(seed, streams.draw, dK);
  const k = Array.from({length: nKeys}, (_, j) => normals(seed, streams.draw, dK, (1 + j) * maxDim));
  const p = {};
  let scores = null, cosines = null;
  function logits(m, mode, gain) {
    const m2 = m * m;
    if (mode === "scaled") return scores.map(row => row.map(s => m2 * s / root));
    if (mode === "qk-l2") return cosines.map(row => row.map(c => gain * c));
    return p.kAlong.map((w, i) => {
      const qScale = Math.sqrt(m2 * p.qRest[i] / dK + eps), qRoot = Math.sqrt(p.qRest[i]);
      return w.map((x, j) => m2 * qRoot * x / (qScale * Math.sqrt(m2 * (x * x + p.kRest[i][j]) / dK + eps)) / root);
    });
  }
  const means = (m, mode, gain) => meansOf(logits(m, mode, gain).map(z => measures(softmax(z))));
  const band = rows => {
    const tops = [], rests = [];
    for (const z of rows) {
      const p = softmax(z);
      let top = 0, rest = 0;
      for (let j = 1; j < p.length; j++) if (p[j] > p[top]) top = j;
      for (let j = 0; j < p.length; j++) if (j !== top) rest += p[j];
      tops.push(p[top]);
      rests.push(p[top] > 0.5 ? rest : 1 - p[top]);
    }
    const e = expectation(tops, rests);
    return {mean: e.mean, low: e.low, high: e.high};
  };
  const fixed = {scaled: [], "qk-layernorm": []};
  const steps = (function* () {
    yield* ensembleParts(seed, streams.ensemble, dK, nQueries, nKeys, maxKeys, p, 25);
    scores = p.kMean.map((k1, i) => k1.map((x, j) => p.qMean[i] * x + Math.sqrt(p.qRest[i]) * p.kAlong[i][j]));
    cosines = scores.map((row, i) => {
      const qNorm = Math.sqrt(p.qMean[i] * p.qMean[i] + p.qRest[i]);
      return row.map((s, j) => s / (qNorm * Math.sqrt(p.kMean[i][j] * p.kMean[i][j] + p.kAlong[i][j] * p.kAlong[i][j] +
        p.kRest[i][j])));
    });
    yield;
    for (let i = 0; i < grid.length; i++) {
      fixed.scaled.push(band(logits(grid[i], "scaled")));
      fixed["qk-layernorm"].push(band(logits(grid[i], "qk-layernorm")));
      if (i % 2 === 1) yield;
    }
  })();
  const {finish, warm} = inSteps(steps);
  const atGain = new Map();
  const qkNorm = gain => {
    if (!atGain.has(gain)) {
      if (atGain.size >= 64) atGain.delete(atGain.keys().next().value);
      atGain.set(gain, means(1, "qk-l2", gain));
    }
    return atGain.get(gain);
  };
  const qUnit = unit(q), kUnit = k.map(unit);

  function state(magnitude, mode, gain = root) {
    const m = Number(magnitude), g = Number(gain);
    if (!(m >= MAGNITUDE_RANGE[0] && m <= MAGNITUDE_RANGE[1])) {
      throw new RangeError(`magnitude must lie in [${MAGNITUDE_RANGE}], got ${magnitude}`);
    }
    if (!MODES.includes(mode)) throw new RangeError(`mode must be one of ${MODES.join(", ")}, got ${mode}`);
    if (!(g >= GAIN_RANGE[0] && g <= GAIN_RANGE[1])) throw new RangeError(`gain must lie in [${GAIN_RANGE}], got ${gain}`);
    finish();
    // normalization.attention_scores(m q, m K, mode, gain)
    const mq = q.map(x => m * x), mk = k.map(row => row.map(x => m * x));
    let z;
    if (mode === "scaled") z = mk.map(row => dot(mq, row) / root);
    else if (mode === "qk-l2") z = kUnit.map(row => g * dot(qUnit, row));
    else {
      const lq = layerNorm(mq, eps);
      z = mk.map(row => dot(lq, layerNorm(row, eps)) / root);
    }
    const weights = softmax(z);
    const shared = qkNorm(g);
    const flat = {mean: shared.maxWeight.mean, low: shared.maxWeight.low, high: shared.maxWeight.high};
    const curves = {...fixed, "qk-l2": grid.map(() => flat)};
    return {magnitude: m, mode, gain: g, seed, dK, nKeys, scores: z, weights, draw: measures(weights),
            mean: mode === "qk-l2" ? shared : means(m, mode), curves, grid, nQueries};
  }
  const model = {state, warm};
  MODELS.set(payload, model);
  return model;
}

// explorables.book._describe_normalization
export function normalizationReadout(state, names) {
  const gain = state.mode === "qk-l2" ? `, gain g = ${formatGeneral(state.gain, 4)}` : "";
  return readoutParts({
    lead: `One draw (seed ${state.seed}), ${names[state.mode]}, at magnitude m = ${formatGeneral(state.magnitude, 4)}${gain}.`,
    groups: [{caption: "", rows: weightRows(state.draw, state.mean)}],
    note: meansNote(state.nQueries, Math.log(state.nKeys)),
    intro: "Normalisation explorer.",
    figure: "Right panel: the mean largest weight against the magnitude for each normalisation " +
      `(QK-norm at gain g = ${formatGeneral(state.gain, 4)}), with bands for the middle 80 % of the queries.`});
}
