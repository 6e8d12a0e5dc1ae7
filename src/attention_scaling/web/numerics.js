// The package's numerics in JavaScript, formula for formula (attention_scaling.numerics): what an
// explorer computes in the page. Every function takes and returns plain arrays of doubles, and
// each follows the Python function named beside it, so that the two agree to rounding
// (tests/browser/test_web_numerics.py compares them to 1e-12 relative).

// softmax(z): the maximum is subtracted first, so nothing overflows.
export function softmax(z) {
  let top = -Infinity;
  for (const x of z) if (x > top) top = x;
  const e = z.map(x => Math.exp(x - top));
  const total = sum(e);
  return e.map(x => x / total);
}

export function sum(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

// _complement(p): 1 - P_i, as the sum of the other weights for the largest weight (no
// cancellation near saturation), as 1 - P_i for the others (each at most about 1/2).
export function complement(p) {
  let top = 0;
  for (let i = 1; i < p.length; i++) if (p[i] > p[top]) top = i;
  let rest = 0;
  for (let i = 0; i < p.length; i++) if (i !== top) rest += p[i];
  return p.map((x, i) => (i === top ? rest : 1 - x));
}

// diagonal_gradient(p, axis=-1): P_i (1 - P_i), the Jacobian's diagonal.
export function diagonalGradient(p) {
  const c = complement(p);
  return p.map((x, i) => x * c[i]);
}

// softmax_jacobian(p): diag(p) - p p^T, the diagonal from the complement.
export function jacobian(p) {
  const c = complement(p);
  return p.map((pi, i) => p.map((pj, j) => (i === j ? pi * c[i] : -pi * pj)));
}

// The largest eigenvalue of a symmetric matrix (cyclic Jacobi rotations to convergence), as
// numpy.linalg.eigvalsh(a)[-1]: the spectral norm of a softmax Jacobian.
export function largestEigenvalue(a) {
  const n = a.length;
  const m = a.map(row => row.slice());
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0, diag = 0;
    for (let i = 0; i < n; i++) {
      diag += m[i][i] * m[i][i];
      for (let j = i + 1; j < n; j++) off += m[i][j] * m[i][j];
    }
    if (off === 0 || off <= 1e-36 * diag) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        if (m[p][q] === 0) continue;
        const theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) {  // columns p and q
          const mkp = m[k][p], mkq = m[k][q];
          m[k][p] = c * mkp - s * mkq;
          m[k][q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < n; k++) {  // rows p and q
          const mpk = m[p][k], mqk = m[q][k];
          m[p][k] = c * mpk - s * mqk;
          m[q][k] = s * mpk + c * mqk;
        }
      }
    }
  }
  let top = -Infinity;
  for (let i = 0; i < n; i++) if (m[i][i] > top) top = m[i][i];
  return top;
}

// weight_measures(p): what every explorer reports of one weight vector: the largest weight,
// the entropy -sum P_i ln P_i in nats (ln P_i of a weight above 1/2 as log1p(-(the others))) and
// the largest P_i (1 - P_i). complement and diagonalGradient above, fused into one pass with no
// array made: the same operations in the same order, so the same doubles (an explorer calls it
// for every query at every step).
export function measures(p) {
  const n = p.length;
  let top = 0, at = 0;  // the largest weight, and the first index of the largest (complement)
  for (let i = 0; i < n; i++) {
    if (p[i] > top) top = p[i];
    if (i > 0 && p[i] > p[at]) at = i;
  }
  let rest = 0;
  for (let i = 0; i < n; i++) if (i !== at) rest += p[i];
  let g = 0, s = 0;
  for (let i = 0; i < n; i++) {
    const x = p[i], c = i === at ? rest : 1 - x;
    if (x * c > g) g = x * c;
    if (x > 0) s += x * (x > 0.5 ? Math.log1p(-c) : Math.log(x));
  }
  return {maxWeight: top, entropy: -s, largestGradient: g};
}

// softmax(z) into `out` (a Float64Array as long as z), the same operations as softmax(): for a
// caller that reuses one buffer.
export function softmaxInto(z, out) {
  let top = -Infinity;
  for (let i = 0; i < z.length; i++) if (z[i] > top) top = z[i];
  let total = 0;
  for (let i = 0; i < z.length; i++) total += out[i] = Math.exp(z[i] - top);
  for (let i = 0; i < z.length; i++) out[i] /= total;
  return out;
}

// expectation(values, complement): mean, standard error (ddof 1), 10 % and 90 % quantiles (numpy's
// default, linear), and the number of draws; with each value's distance from 1 (`complement`) and
// values averaging above 1/2, the summary of those distances, mirrored (numerics.expectation).
export function expectation(values, complement = null) {
  const n = values.length;
  if (complement !== null && sum(values) / n > 0.5) {
    const d = expectation(complement);
    return {mean: 1 - d.mean, se: d.se, low: 1 - d.high, high: 1 - d.low, n, complement: d.mean};
  }
  const mean = sum(values) / n;
  let ss = 0;
  for (const x of values) ss += (x - mean) * (x - mean);
  const sorted = Float64Array.from(values).sort();
  const quantile = q => {
    const h = (n - 1) * q, lo = Math.floor(h), t = h - lo;
    if (lo + 1 >= n) return sorted[n - 1];
    const a = sorted[lo], b = sorted[lo + 1];
    return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
  };
  return {mean, se: Math.sqrt(ss / (n - 1)) / Math.sqrt(n), low: quantile(0.1), high: quantile(0.9), n};
}

// state.means_of: every measure's expectation over the rows of measures (one per draw); the largest
// weight's from its distances from 1, P(1 - P) / P above 1/2 (the largest P(1 - P) is then its own)
export function meansOf(rows) {
  const out = {};
  for (const key of Object.keys(rows[0])) out[key] = expectation(rows.map(r => r[key]));
  out.maxWeight = expectation(rows.map(r => r.maxWeight),
    rows.map(r => (r.maxWeight > 0.5 ? r.largestGradient / r.maxWeight : 1 - r.maxWeight)));
  return out;
}

// A model's first work, a generator of steps, run either through at once (finish(): what a
// model's state() calls) or a step at a time (warm(): what player.js runs between the page's
// tasks before it mounts the explorer). Once through, both end at once.
export function inSteps(steps) {
  let done = false;
  return {
    finish() {
      while (!done) done = steps.next().done;
    },
    * warm() {
      while (!done) {
        done = steps.next().done;
        yield;
      }
    },
  };
}
