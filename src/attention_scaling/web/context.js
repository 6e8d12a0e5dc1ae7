// The context explorer's numbers for any n from 2 to 65 536 and any gap in [-40, 40]
// (attention_scaling.context.ContextFigure.update): a needle scored gap above n - 1 standard-
// normal distractors, under four methods (plain, s ln n, a tanh soft cap, an extra zero logit).
// The distractors are drawn here from the seed (random.js, the package's portable_random), so
// the payload is a handful of constants (attention_scaling.web.context_payload). Every formula
// follows the Python one named beside it; sums are numpy's pairwise sums, in numpy's order.
import {formatGeneral} from "./format.js";
import {normals} from "./random.js";
import {readoutParts} from "./readout.js";

export const METHODS = ["plain", "log-n", "soft-cap", "zero-logit"];
export const GAP_RANGE = [-40, 40];
const LN2 = 0.6931471805599453;
const TINY = 2.2250738585072014e-308;  // float64's smallest normal number
// logits within this of 0 are used as they are (context._ONE_NUMBER); the explorer's range keeps
// every logit within it (s ln n <= 4, scores within 40), so the package's other branches never run
const ONE_NUMBER = 1024;

// numpy's pairwise summation of a float64 array (numpy's sum, bit for bit).
export function pairwiseSum(a, lo = 0, n = a.length) {
  if (n < 8) {
    let s = 0;
    for (let i = lo; i < lo + n; i++) s += a[i];
    return s;
  }
  if (n <= 128) {
    const r = [a[lo], a[lo + 1], a[lo + 2], a[lo + 3], a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[lo + i + j];
    let s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) s += a[lo + i];
    return s;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(a, lo, half) + pairwiseSum(a, lo + half, n - half);
}

// numpy.logaddexp
export function logaddexp(x, y) {
  if (x === y) return x + LN2;
  const d = x - y;
  return d > 0 ? x + Math.log1p(Math.exp(-d)) : y + Math.log1p(Math.exp(d));
}

// context._expit
export function expit(x) {
  const e = Math.exp(-Math.abs(x));
  return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}

function softCap(z, cap) {  // context.soft_cap
  const x = z / cap;
  return Math.abs(x) < TINY ? z : cap * Math.tanh(x);
}

function softCapSlope(z, cap) {  // context.soft_cap_slope
  const e = Math.exp(-2 * Math.abs(z / cap));
  return 4 * e / (1 + e) ** 2;
}

// context._transform: (logit, d logit / d score) of one score, and of many (a Float64Array)
function transform(method, n, s, cap) {
  if (method === "log-n") {
    const f = s * Math.log(n);
    return {logit: z => f * z, slope: () => f};
  }
  if (method === "soft-cap") return {logit: z => softCap(z, cap), slope: z => softCapSlope(z, cap)};
  return {logit: z => z, slope: () => 1};
}

function logits(scores, t) {
  const out = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = t.logit(scores[i]);
  return out;
}

function max(a) {
  let m = -Infinity;
  for (const x of a) if (x > m) m = x;
  return m;
}

// log of the sum of e^(x - top) over x in `a`, plus top (the log-sum-exp of context.py)
function logSumExp(a) {
  const top = max(a);
  const e = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) e[i] = Math.exp(a[i] - top);
  return {top, rel: Math.log(pairwiseSum(e))};
}


// The indices of the k largest values, largest first (np.argsort(rest)[::-1][:k]), in one pass.
function strongest(a, k) {
  const best = [];
  for (let i = 0; i < a.length; i++) {
    if (best.length === k && a[i] <= a[best[k - 1]]) continue;
    let j = Math.min(best.length, k - 1);
    best[j] = i;
    while (j > 0 && a[best[j - 1]] < a[i]) {
      best[j] = best[j - 1];
      best[j - 1] = i;
      j--;
    }
  }
  return best;
}

// ContextFigure.partition(n) for the first n - 1 of `all`: per method the log partition
// (_log_partitions, _log_partition), the logits of the TOP_KEYS strongest distractors and the
// log-sum-exp of the others' logits, in their drawn order.
// (A generator, a method a step, for model.warm(); partition() runs it through.)
function* partitionSteps(payload, all, n, out) {
  const rest = all.subarray(0, n - 1);
  const order = strongest(rest, payload.topKeys);
  const chosen = new Set(order);
  const top = Float64Array.from(order, i => rest[i]);
  const others = rest.filter((_, i) => !chosen.has(i));
  for (const m of METHODS) {
    if (n > 4096) yield;
    const t = transform(m, n, payload.s, payload.cap);
    const {top: topLogit, rel} = logSumExp(logits(rest, t));
    if (!(Math.abs(topLogit) <= ONE_NUMBER)) throw new RangeError(`a logit of ${topLogit} is outside the explorer's range`);
    const logZ = m === "zero-logit" ? logaddexp(topLogit + rel, 0) : topLogit + rel;
    let logRest = -Infinity;
    if (others.length) {
      const o = logSumExp(logits(others, t));
      logRest = o.top + o.rel;
    }
    out[m] = {logZ, top: logits(top, t), logRest};
  }
  out.topScores = Array.from(top);
}

function partition(payload, all, n) {
  const out = {};
  const steps = partitionSteps(payload, all, n, out);
  while (!steps.next().done);
  return out;
}

// context._needle_from_partition: (weight, others, gradient) of the needle
function needle(gap, n, m, part, payload) {
  const t = transform(m, n, payload.s, payload.cap);
  const x = t.logit(gap) - part.logZ;
  const weight = expit(x), others = expit(-x);
  return {weight, others, gradient: weight * others * t.slope(gap)};
}

// A context explorer: its distractors drawn once, each n's partition computed once; one model a
// payload (the page's preparation and its view share it). The distractors are drawn as far as an
// n needs them (any prefix of the stream is the same numbers), and model.warm() is the work a
// view needs, in steps of a few milliseconds, for a page to run between them (player.js).
const MODELS = new WeakMap();
const DRAW_STEP = 8192;

export function contextModel(payload) {
  if (MODELS.has(payload)) return MODELS.get(payload);
  const total = payload.nValues[payload.nValues.length - 1] - 1;
  const all = new Float64Array(total);  // the distractors of draw 0 (context.distractors), as far as filled
  let filled = 0;
  const fill = upTo => {
    if (upTo > filled) {
      all.set(normals(payload.seed, payload.stream, upTo - filled, filled), filled);
      filled = upTo;
    }
  };
  const parts = new Map();
  const at = n => {
    if (!parts.has(n)) {
      fill(n - 1);
      parts.set(n, partition(payload, all, n));
    }
    return parts.get(n);
  };
  const curves = new Map();
  // ContextFigure.curves: the needle at every n of the grid, for each method, at this gap
  const curvesAt = gap => {
    if (!curves.has(gap)) {
      if (curves.size > 64) curves.clear();
      const c = {};
      for (const m of METHODS) {
        const rows = payload.nValues.map(n => needle(gap, n, m, at(n)[m], payload));
        c[m] = {weight: rows.map(r => r.weight), others: rows.map(r => r.others),
          spread: rows.map(r => r.weight * r.others), gradient: rows.map(r => r.gradient)};
      }
      curves.set(gap, c);
    }
    return curves.get(gap);
  };
  // ContextFigure.update
  function state({n, gap, method}) {
    n = Number(n);
    gap = Number(gap);
    if (!Number.isInteger(n) || n < 2 || n > total + 1) throw new RangeError(`n must be an integer in [2, ${total + 1}], got ${n}`);
    if (!(gap >= GAP_RANGE[0] && gap <= GAP_RANGE[1])) throw new RangeError(`gap must lie in [${GAP_RANGE}], got ${gap}`);
    if (!METHODS.includes(method)) throw new RangeError(`method must be one of ${METHODS}, got ${method}`);
    const part = at(n)[method], topScores = at(n).topScores;
    const {weight, others, gradient} = needle(gap, n, method, part, payload);
    const needleLogit = transform(method, n, payload.s, payload.cap).logit(gap);
    const logTotal = logaddexp(needleLogit, part.logZ);
    const top = Array.from(part.top, x => Math.exp(x - logTotal));
    return {
      n, gap, method, seed: payload.seed, needle: weight, others, spread: weight * others, gradient,
      topScores, topLogits: Array.from(part.top), needleLogit, topWeights: top, topDistractor: top[0], rest: Math.exp(part.logRest - logTotal),
      sink: method === "zero-logit" ? Math.exp(-logTotal) : 0, largestLogit: Math.max(needleLogit, part.top[0]),
      curves: curvesAt(gap),
    };
  }
  // the distractors in steps of DRAW_STEP, then each n of the grid's partition
  function* warm() {
    for (let upTo = Math.min(DRAW_STEP, total); filled < total; upTo = Math.min(upTo + DRAW_STEP, total)) {
      fill(upTo);
      yield;
    }
    for (const n of payload.nValues) {
      if (!parts.has(n)) {
        fill(n - 1);
        const out = {};
        yield* partitionSteps(payload, all, n, out);
        if (!parts.has(n)) parts.set(n, out);  // (state() may have needed it meanwhile)
        yield;
      }
    }
  }
  const model = {state, nMax: total + 1, warm};
  MODELS.set(payload, model);
  return model;
}

// explorables.book._describe_context, as the parts of a readout (readout.js)
export function contextReadout(state, payload) {
  const n = state.n;
  const lead = `One draw (seed ${state.seed}) of ${n - 1} distractor score${n > 2 ? "s" : ""} ~ N(0, 1) ` +
    `and a needle scored Δ = ${formatGeneral(state.gap, 6)}; n = ${n} keys, ${payload.names[state.method]}.`;
  const rows = [
    {label: "needle weight", draw: state.needle, nearOne: true, complement: state.others},
    {label: "its P(1−P)", draw: state.spread},
    {label: "its gradient dP/dΔ", draw: state.gradient},
    {label: "strongest distractor", draw: state.topDistractor},
    {label: "all distractors together", draw: state.others - state.sink, nearOne: true},
    {label: "extra zero logit (sink)", draw: state.method === "zero-logit" ? state.sink : null},
  ];
  return readoutParts({lead, groups: [{caption: "", rows}], note: "", intro: "Context explorer.",
    figure: "Left: bars of the needle, the 5 strongest distractors, the rest summed, and the sink. " +
      "Middle: the needle as a point on the parabola P(1−P). Right: the needle's weight against n " +
      "for this method and for plain scaling, the current n ringed."});
}
