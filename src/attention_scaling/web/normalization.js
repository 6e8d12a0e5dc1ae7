// The normalisation explorer's numbers at any magnitude m in [0.1, 10], any QK-norm gain g in
// [1, 128] and each of three normalisations (attention_scaling.figures.NormalizationFigure.update):
// one query's weights over its 16 keys at d_k = 64, and the largest weight's mean and middle 80 %
// over many queries, at the current m and along the magnitude grid for every mode. The payload is
// a handful of constants (attention_scaling.web.normalization_payload): the one draw is the
// attention explorer's (numerics.shared_draw, drawn here from the seed) and the many queries are
// its five numbers a row (numerics.EnsembleParts), with the keys' rest for the norms.
import {formatGeneral} from "./format.js";
import {expectation, meansOf, measures, softmax} from "./numerics.js";
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
function ensembleParts(seed, stream, dK, rows, keys, stride) {
  const at = (values, map) => Array.from({length: rows}, (_, i) => Float64Array.from(values.subarray(i * stride, i * stride + keys), map));
  const chi2 = d => (u => (d > 0 ? chi2Quantile(d, u) : 0));
  const qRest = Float64Array.from(uniforms(seed, stream + 1, rows), chi2(dK - 1));
  return {qMean: normals(seed, stream, rows), qRest, kMean: at(normals(seed, stream + 2, rows * stride)),
          kAlong: at(normals(seed, stream + 3, rows * stride), dK > 1 ? x => x : () => 0),
          kRest: at(uniforms(seed, stream + 4, rows * stride), chi2(dK - 2))};
}

export function normalizationModel(payload) {
  const {seed, dK, nKeys, maxDim, maxKeys, nQueries, streams, grid, eps} = payload;
  const root = Math.sqrt(dK);
  // the one draw (numerics.shared_draw): the first d_k components of the query and of its keys
  const q = normals(seed, streams.draw, dK);
  const k = Array.from({length: nKeys}, (_, j) => normals(seed, streams.draw, dK, (1 + j) * maxDim));
  const p = ensembleParts(seed, streams.ensemble, dK, nQueries, nKeys, maxKeys);
  // the parts' unit scores q.k and cosines (EnsembleParts.scores, .cosines)
  const scores = p.kMean.map((k1, i) => k1.map((x, j) => p.qMean[i] * x + Math.sqrt(p.qRest[i]) * p.kAlong[i][j]));
  const cosines = scores.map((row, i) => {
    const qNorm = Math.sqrt(p.qMean[i] * p.qMean[i] + p.qRest[i]);
    return row.map((s, j) => s / (qNorm * Math.sqrt(p.kMean[i][j] * p.kMean[i][j] + p.kAlong[i][j] * p.kAlong[i][j] +
      p.kRest[i][j])));
  });
  // NormalizationFigure._ensemble_logits: the many queries' logits in `mode`
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
  // the curves against m: the largest weight's mean and band alone (state.means_of's: from the
  // distances to 1 above 1/2); the scaled and LayerNorm ones once, QK-norm's flat (g cos does not
  // depend on m), one a gain
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
  const fixed = {scaled: grid.map(m => band(logits(m, "scaled"))),
                 "qk-layernorm": grid.map(m => band(logits(m, "qk-layernorm")))};
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
  return {state};
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
