// The attention explorer's numbers at any whole d_k from 1 to 1024 and any magnitude m in
// [0.1, 10] (attention_scaling.figures.AttentionFigure.update): one query's weights over its keys,
// unscaled and scaled by 1/sqrt(d_k), P(1 - P), the histogram of |q.k| over random pairs against
// its normal prediction, and the means over many queries. Everything is drawn here from the seed
// (random.js, the package's portable_random), so the payload is a handful of constants
// (attention_scaling.web.attention_payload):
// - the one draw: a query and 64 keys of 1024 components (numerics.shared_draw), summed in order
//   into every prefix, so that any d_k is a look-up;
// - the many queries and the pairs: five numbers a row (numerics.EnsembleParts): q.k =
//   q1 k1 + |q_perp| w with |q_perp|^2 the chi-square quantile, at d_k - 1 degrees of freedom, of a
//   fixed uniform, so every mean follows d_k smoothly.
import {formatGeneral} from "./format.js";
import {diagonalGradient, inSteps, meansOf, measures, softmax, softmaxInto} from "./numerics.js";
import {chi2Quantile, halfNormalBins, normals, uniforms} from "./random.js";
import {readoutParts} from "./readout.js";
import {meansNote, weightRows} from "./scale.js";

export const D_RANGE = [1, 1024];
export const MAGNITUDE_RANGE = [0.1, 10];

// numerics.ensemble_parts without the keys' rest (the normalisation explorer's): rows of `keys`
// keys whose values sit `stride` apart in their streams
function parts(seed, stream, rows, keys, stride) {
  const at = (values) => Array.from({length: rows}, (_, i) => values.subarray(i * stride, i * stride + keys));
  return {qMean: normals(seed, stream, rows), qUniform: uniforms(seed, stream + 1, rows),
          kMean: at(normals(seed, stream + 2, rows * stride)), kAlong: at(normals(seed, stream + 3, rows * stride))};
}

// EnsembleParts.scores(): q1 k1 + sqrt(|q_perp|^2) w, row by row, at d_k (rows `from` to `to`)
function partScores(part, dK, from = 0, to = part.qMean.length) {
  return Array.from({length: to - from}, (_, r) => {
    const i = from + r, q1 = part.qMean[i];
    const rest = dK > 1 ? Math.sqrt(chi2Quantile(dK - 1, part.qUniform[i])) : 0;
    const k1 = part.kMean[i], w = part.kAlong[i];
    return Float64Array.from(k1, (k, j) => q1 * k + rest * (dK > 1 ? w[j] : 0));
  });
}

// numpy.histogram(clip(x, e0, e_last), edges) / len(x): e_i <= x < e_(i+1), the last edge in the last bin
function histogram(values, edges) {
  const counts = new Float64Array(edges.length - 1), last = edges.length - 1;
  for (const raw of values) {
    const x = Math.min(Math.max(raw, edges[0]), edges[last]);
    let lo = 0, hi = last;  // edges[lo] <= x < edges[hi]
    if (x >= edges[last]) lo = last - 1;
    else while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (edges[mid] <= x) lo = mid; else hi = mid;
    }
    counts[lo] += 1;
  }
  return Array.from(counts, c => c / values.length);
}

// One model a payload (the page's preparation and its view share it). model.warm() is its first
// work (the one draw's prefix sums, then the queries' and the pairs' parts) in steps of a few
// milliseconds, for a page to run between them (player.js); state() finishes what is left at once.
const MODELS = new WeakMap();

export function attentionModel(payload) {
  if (MODELS.has(payload)) return MODELS.get(payload);
  const {seed, maxDim, maxKeys, nQueries, nPairs, streams, edges} = payload;
  // the one draw's prefix sums: sums[j][d - 1] = q . k_j over the first d components
  const sums = [];
  let queries = null, pairs = null;
  const steps = (function* () {
    const q = normals(seed, streams.draw, maxDim);
    for (let j = 0; j < maxKeys; j++) {
      const k = normals(seed, streams.draw, maxDim, (1 + j) * maxDim);
      const out = new Float64Array(maxDim);
      let s = 0;
      for (let c = 0; c < maxDim; c++) out[c] = s += k[c] * q[c];
      sums.push(out);
      if (j % 8 === 7) yield;
    }
    queries = parts(seed, streams.ensemble, nQueries, maxKeys, maxKeys);
    yield;
    pairs = parts(seed, streams.pairs, nPairs, 1, 1);
  })();
  const {finish, warm} = inSteps(steps);
  const openEdges = edges.slice();
  openEdges[0] = 0;
  openEdges[openEdges.length - 1] = Infinity;
  const cache = new Map();  // d_k -> unit scores of the queries and the pairs (a few kept)
  const keep = (dK, scores) => {
    if (cache.size >= 64) cache.delete(cache.keys().next().value);
    cache.set(dK, scores);
  };
  const unitScores = (dK) => {
    if (!cache.has(dK)) keep(dK, {queries: partScores(queries, dK), pairs: partScores(pairs, dK).map(row => row[0])});
    return cache.get(dK);
  };
  // A new d_k's unit scores are most of a step's work (2 200 chi-square quantiles, a few ms). The
  // values a reader is likely to ask for next (the slider's neighbours, prefetch(dKs)) are computed
  // while the page is idle, a few hundred rows at a time, so that an arrow key finds them ready; a
  // step anywhere else computes its own at once. The numbers are the same either way.
  const wanted = [];
  let working = null;
  // (a browser without requestIdleCallback, Safari: a timer, and 8 ms of work at a time)
  const idle = globalThis.requestIdleCallback || (work => setTimeout(() => {
    const end = performance.now() + 8;
    work({timeRemaining: () => end - performance.now()});
  }, 20));
  function* prefetchSteps() {
    while (wanted.length) {
      const dK = wanted.shift();
      if (cache.has(dK)) continue;
      const scores = {queries: partScores(queries, dK), pairs: []};
      yield;
      for (let from = 0; from < nPairs; from += 250) {
        scores.pairs.push(...partScores(pairs, dK, from, Math.min(nPairs, from + 250)).map(row => row[0]));
        yield;
      }
      if (!cache.has(dK)) keep(dK, scores);
    }
  }
  function prefetch(dKs) {
    wanted.length = 0;
    for (const d of dKs) if (Number.isInteger(d) && d >= D_RANGE[0] && d <= D_RANGE[1] && !cache.has(d)) wanted.push(d);
    if (!wanted.length || working) return;
    working = prefetchSteps();
    idle(function work(deadline) {
      finish();
      while (deadline.timeRemaining() > 2) {
        if (working.next().done) {
          working = null;
          return;
        }
      }
      idle(work);
    });
  }

  function state(dK, magnitude, nKeys = 16) {
    const d = Number(dK), m = Number(magnitude), n = Number(nKeys);
    if (!Number.isInteger(d) || d < D_RANGE[0] || d > D_RANGE[1]) {
      throw new RangeError(`d_k must be a whole number from ${D_RANGE[0]} to ${D_RANGE[1]}, got ${dK}`);
    }
    if (!(m >= MAGNITUDE_RANGE[0] && m <= MAGNITUDE_RANGE[1])) {
      throw new RangeError(`magnitude must lie in [${MAGNITUDE_RANGE}], got ${magnitude}`);
    }
    if (!Number.isInteger(n) || n < 2 || n > maxKeys) throw new RangeError(`n_keys must be from 2 to ${maxKeys}, got ${nKeys}`);
    finish();
    const root = Math.sqrt(d), m2 = m * m;
    const unit = unitScores(d);
    const zU = sums.slice(0, n).map(row => m2 * row[d - 1]);
    const zS = zU.map(z => z / root);
    const pU = softmax(zU), pS = softmax(zS);
    const sizeU = unit.pairs.map(x => Math.abs(m2 * x));
    // each query's measures, unscaled and scaled: (m^2 q.k) and then (m^2 q.k) / sqrt(d_k), as the
    // package computes them, in two buffers used again for every query
    const z = new Float64Array(n), p = new Float64Array(n);
    const perQuery = (divide) => unit.queries.map(row => {
      for (let j = 0; j < n; j++) z[j] = divide ? (m2 * row[j]) / root : m2 * row[j];
      return measures(softmaxInto(z, p));
    });
    return {
      dK: d, magnitude: m, nKeys: n, seed,
      scores: {unscaled: zU, scaled: zS},
      weights: {unscaled: pU, scaled: pS},
      gradients: {unscaled: diagonalGradient(pU), scaled: diagonalGradient(pS)},
      histogram: {unscaled: histogram(sizeU, edges), scaled: histogram(sizeU.map(x => x / root), edges)},
      predicted: {unscaled: halfNormalBins(openEdges, m2 * root), scaled: halfNormalBins(openEdges, m2)},
      draw: {unscaled: measures(pU), scaled: measures(pS)},
      mean: {unscaled: meansOf(perQuery(false)), scaled: meansOf(perQuery(true))},
      nQueries: unit.queries.length,
    };
  }
  // ready(d_k): whether a step to d_k finds its unit scores computed (a prefetched value is)
  const model = {state, warm, prefetch, ready: dK => cache.has(dK)};
  MODELS.set(payload, model);
  return model;
}

// explorables.book._describe_attention
export function attentionReadout(state) {
  const lead = `One draw (seed ${state.seed}) at dₖ = ${state.dK}, m = ${formatGeneral(state.magnitude, 4)}, ` +
    `${state.nKeys} keys.`;
  return readoutParts({
    lead,
    groups: [{caption: "Unscaled", rows: weightRows(state.draw.unscaled, state.mean.unscaled)},
             {caption: "Scaled by 1/√dₖ", rows: weightRows(state.draw.scaled, state.mean.scaled)}],
    note: meansNote(state.nQueries, Math.log(state.nKeys)),
    intro: "Attention explorer.",
    figure: "Lines with bands: the means and the middle 80 % of the queries. " +
      "Right panel: |q·k| over random pairs against its prediction."});
}
