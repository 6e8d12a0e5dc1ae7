// A seeded generator that the Python package implements identically
// (attention_scaling.portable_random): the explorers' draws can be made in the page from a seed,
// instead of being shipped as numbers. Counter-based: value i of stream (seed, stream) is a hash
// of its counter, so any prefix, or any single value, is the same however it is asked for.
//
// Uniforms: SplitMix64 of the counter, its top 52 bits plus 1/2 over 2^52, exactly representable in
// a double and never 0 or 1 (with 53 bits the largest would round to 1).
// Normals: the inverse of the normal CDF at those uniforms, by Wichura's algorithm AS 241
// (PPND16, relative error about 1e-16): only + - * / in the centre, where page and package agree
// bit for bit; log and sqrt in the tails, where V8's log and numpy's differ by a unit in the last
// place now and then, and the result by a few (about 1e-15 relative).

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9E3779B97F4A7C15n;

function mix64(z) {
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
  return z ^ (z >> 31n);
}

// The key of a stream: seed and stream number mixed into one 64-bit start.
function key(seed, stream) {
  if (!Number.isSafeInteger(seed) || seed < 0 || !Number.isSafeInteger(stream) || stream < 0) {
    throw new RangeError(`seed and stream must be integers >= 0, got ${seed}, ${stream}`);
  }
  return mix64((BigInt(seed) * GOLDEN + mix64(BigInt(stream) + GOLDEN)) & MASK);
}

// n uniforms in (0, 1) of stream (seed, stream), from counter `start` on.
export function uniforms(seed, stream, n, start = 0) {
  const k = key(seed, stream), out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const z = mix64((k + BigInt(start + i + 1) * GOLDEN) & MASK);
    out[i] = (Number(z >> 12n) + 0.5) / 4503599627370496;  // (top 52 bits + 1/2) / 2^52, inside (0, 1)
  }
  return out;
}

const A = [3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
  45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727];
const B = [1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077,
  21213.794301586595867, 39307.89580009271061, 28729.085735721942674, 5226.495278852545925];
const C = [1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
  1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4];
const D = [1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
  0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9];
const E = [6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
  0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7];
const F = [1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
  7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15];

function poly(c, x) {  // c[0] + c[1] x + ... + c[7] x^7, Horner's rule from the top
  let s = c[7];
  for (let i = 6; i >= 0; i--) s = s * x + c[i];
  return s;
}

// The standard normal quantile at p in (0, 1) (AS 241).
export function normalQuantile(p) {
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return q * poly(A, r) / poly(B, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let x;
  if (r <= 5) {
    r -= 1.6;
    x = poly(C, r) / poly(D, r);
  } else {
    r -= 5;
    x = poly(E, r) / poly(F, r);
  }
  return q < 0 ? -x : x;
}

// n standard normals of stream (seed, stream), from counter `start` on.
export function normals(seed, stream, n, start = 0) {
  return uniforms(seed, stream, n, start).map(normalQuantile);
}

// --- the chi-square quantile ------------------------------------------------------------------
// An explorer's means over many queries at any d_k draw each query's length |q|, whose square
// is chi-square with d_k degrees of freedom, as the quantile of one uniform (the same uniform at
// every d_k, so that the mean moves smoothly with the slider). The package has the same
// functions, operation for operation (portable_random.chi2_quantile): Halley's method on the
// regularised incomplete gamma function P(a, y) (a series below a + 1, Lentz's continued
// fraction for Q = 1 - P above), from the Wilson-Hilferty start, with log Gamma(k/2) summed
// as a product of logs.
const LOG_SQRT_PI = 0.5723649429247001;
const TINY = 1e-300;
// Halley's method stops once a step is below this fraction of y (two or three steps); a tighter
// bound is below the noise of P(a, y) and can cycle between neighbouring doubles.
const STOP = 1e-13;

const logGammas = new Map();  // log Gamma(k/2) by k: k/2 logs each, once

function logGammaHalf(k) {
  if (!logGammas.has(k)) logGammas.set(k, sumLogGammaHalf(k));
  return logGammas.get(k);
}

function sumLogGammaHalf(k) {
  let total = 0;
  if (k % 2 === 0) {
    for (let i = 1; i < k / 2; i++) total += Math.log(i);
    return total;
  }
  total = LOG_SQRT_PI;
  for (let i = 1; i <= (k - 1) / 2; i++) total += Math.log(i - 0.5);
  return total;
}

function lowerSeries(a, y) {
  let term = 1 / a, total = term;
  for (let n = 1; n <= 100000; n++) {
    term *= y / (a + n);
    total += term;
    if (term < total * 1e-17) break;
  }
  return total;
}

function upperFraction(a, y) {
  let b = y + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return h;
}

// P(a, y) when `lower`, else Q(a, y)
function tail(a, y, logGamma, lower) {
  if (y <= 0) return lower ? 0 : 1;
  const scale = Math.exp(-y + a * Math.log(y) - logGamma);
  if (y < a + 1) {
    const p = lowerSeries(a, y) * scale;
    return lower ? p : 1 - p;
  }
  const q = upperFraction(a, y) * scale;
  return lower ? 1 - q : q;
}

// The quantile at u in (0, 1) of the chi-square distribution with k degrees of freedom.
export function chi2Quantile(k, u) {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer >= 1, got ${k}`);
  if (!(u > 0 && u < 1)) throw new RangeError(`u must lie strictly between 0 and 1, got ${u}`);
  const a = 0.5 * k, logGamma = logGammaHalf(k), lower = u <= 0.5, target = lower ? u : 1 - u;
  const z = normalQuantile(u);
  const w = 1 - 2 / (9 * k) + z * Math.sqrt(2 / (9 * k));
  let y = 0.5 * k * w * w * w;
  if (!(y > 1e-3 * a)) y = Math.exp((Math.log(u) + logGamma + Math.log(a)) / a);
  for (let i = 0; i < 200; i++) {
    const f = tail(a, y, logGamma, lower) - target;
    const density = Math.exp(-y + (a - 1) * Math.log(y) - logGamma);
    if (f === 0 || density === 0) break;
    const t = lower ? f / density : -f / density;
    const step = t / (1 - 0.5 * t * ((a - 1) / y - 1));
    let next = y - step;
    if (!(next > 0)) next = 0.5 * y;
    const done = Math.abs(next - y) <= STOP * next;
    y = next;
    if (done) break;
  }
  return 2 * y;
}

// P(e_i <= |X| < e_(i+1)) for X ~ N(0, sigma^2) between consecutive edges (increasing, from 0, the
// last may be Infinity): P(|X| < e) = P(1/2, e^2 / 2 sigma^2). A bin whose upper edge has
// e^2 / 2 sigma^2 < 3/2 is a difference of two P (the series side), any other of two Q = 1 - P
// (the continued fraction's side), so neither cancels (portable_random.half_normal_bins).
export function halfNormalBins(edges, sigma) {
  if (!(sigma > 0 && Number.isFinite(sigma))) throw new RangeError(`sigma must be a positive number, got ${sigma}`);
  const y = edges.map(e => {
    const t = e / sigma;
    return (t * t) / 2;
  });
  const p = y.map(x => (Number.isFinite(x) ? tail(0.5, x, LOG_SQRT_PI, true) : 1));
  const q = y.map(x => (Number.isFinite(x) ? tail(0.5, x, LOG_SQRT_PI, false) : 0));
  return y.slice(1).map((x, i) => (x < 1.5 ? p[i + 1] - p[i] : q[i] - q[i + 1]));
}
