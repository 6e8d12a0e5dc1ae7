// Python's number formatting, exactly, and the book's readout numbers built on it
// (attention_scaling.readout.readout_number and readout_mean): a readout computed in the page
// reads character for character as the package prints it. Rounding is done on the double's
// exact binary value with BigInt, ties to even, as Python's format() does.

// x (finite) as the exact fraction num / 2^shift, num a BigInt, shift >= 0.
function exact(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0), lo = view.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent;
  if (biased === 0) {
    exponent = -1074;  // subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return exponent >= 0 ? {num: sign * (mantissa << BigInt(exponent)), shift: 0n}
    : {num: sign * mantissa, shift: BigInt(-exponent)};
}

// round(|x| * 10^k) to an integer, ties to even (k may be negative).
function scaledRound(x, k) {
  let {num, shift} = exact(Math.abs(x));
  let den = 1n << shift;
  if (k >= 0) num *= 10n ** BigInt(k); else den *= 10n ** BigInt(-k);
  const q = num / den, r = num - q * den;
  if (2n * r > den || (2n * r === den && q % 2n === 1n)) return q + 1n;
  return q;
}

function digitsWithPoint(n, decimals) {  // n: BigInt >= 0, written with `decimals` places
  let s = n.toString();
  if (decimals === 0) return s;
  s = s.padStart(decimals + 1, "0");
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

function signOf(x) {
  return x < 0 || Object.is(x, -0) ? "-" : "";
}

// f"{x:.{n}f}"
export function formatFixed(x, n) {
  return signOf(x) + digitsWithPoint(scaledRound(x, n), n);
}

// f"{x:.{p}g}" (alt: f"{x:#.{p}g}", keeping trailing zeros and the point)
export function formatGeneral(x, p, alt = false) {
  if (x === 0) {
    const zeros = alt ? "0." + "0".repeat(p - 1) : "0";
    return signOf(x) + (alt && p === 1 ? "0." : zeros);
  }
  // the exponent after rounding to p significant digits
  let e = Math.floor(Math.log10(Math.abs(x)));
  let digits = scaledRound(x, p - 1 - e);
  if (digits < 10n ** BigInt(p - 1)) {  // log10 overestimated
    e -= 1;
    digits = scaledRound(x, p - 1 - e);
  }
  if (digits >= 10n ** BigInt(p)) {  // rounded up to one more digit (9.99 -> 10.0)
    e += 1;
    digits = scaledRound(x, p - 1 - e);
  }
  let body;
  if (e >= -4 && e < p) {
    body = digitsWithPoint(digits, p - 1 - e);
  } else {
    const mantissa = digitsWithPoint(digits, p - 1);
    body = `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (!alt) {
    body = body.replace(/(\.\d*?)0+(e|$)/, "$1$2").replace(/\.(e|$)/, "$1");
  } else if (!body.includes(".")) {
    body = body.replace(/(e|$)/, ".$1");
  }
  return signOf(x) + body;
}

// f"{x:{spec}}" for spec ".Nf" or ".Ng": the formats of the book's {live} role (numbers in
// the prose bound to an explorer, attention_book.live), as the glued value was written
export function formatSpec(x, spec) {
  const m = /^\.(\d+)([fg])$/.exec(spec);
  if (!m) throw new RangeError(`spec must be .Nf or .Ng, got ${spec}`);
  return m[2] === "f" ? formatFixed(x, Number(m[1])) : formatGeneral(x, Math.max(1, Number(m[1])));
}

// What a number bound to an explorer shows (the {live} role): formatSpec(x, spec), unless that
// reads as exactly 0 or ±1 where x is not (a saturated weight: "1.000"); then readoutNumber's
// "1 − 4.2e-05" or "3.1e-05", as the readouts never show a misleading 0 or 1, the distance
// from 1 being `complement` (1 − x summed from the other weights, as the readout's) if given:
// a weight that is 1 in double precision still reads "1 − 3.2e-31" when the others are not 0.
export function liveText(x, spec, complement = null) {
  const text = formatSpec(x, spec);
  const shown = Number(text);
  if ((shown === 0 && x !== 0) || (Math.abs(shown) === 1 && (x !== shown || complement > 0))) {
    return readoutNumber(x, Number(spec.slice(1, -1)) || 1, x > 0.5, x > 0.5 ? complement : null);
  }
  return text;
}

// 10.0 ** k as Python gives it (the double nearest 10^k; V8's ** need not be)
function pow10(k) {
  return Number(`1e${k}`);
}

// readout_number(x, digits, near_one, complement, small)
export function readoutNumber(x, digits = 3, nearOne = false, complement = null, small = true) {
  if (typeof x !== "number" || !Number.isFinite(x)) throw new RangeError(`x must be a finite real number, got ${x}`);
  const half = 0.5 * pow10(-digits);
  if ((x < 0 && x > -half) || x === 0) x = 0;
  if (nearOne && x > 1 - half) {
    if (complement !== null && !(complement >= 0 && complement < 1)) {
      throw new RangeError(`complement must be 1 - x from the other weights, in [0, 1), got ${complement}`);
    }
    if (complement) return `1 − ${formatGeneral(complement, 2)}`;
    return x >= 1 ? "> 1 − 1e-16" : `1 − ${formatGeneral(1 - x, 2)}`;
  }
  if (x !== 0 && (Math.abs(x) < half || (small && Math.abs(x) < 0.01))) return formatGeneral(x, 2, true);
  return formatFixed(x, digits);
}

// readout_mean(e, digits, near_one): "0.962 ± 0.006", "2.7653 ± 0.0002" (the mean to the error's place)
export const MEAN_PLACES = 5;
export function readoutMean(e, digits = 3, nearOne = false) {
  let places = digits;
  if (e.se > 0 && e.se < 0.95 * pow10(-digits)) {
    places = -Math.floor(Math.log10(e.se));
    if (scaledRound(e.se, places) >= 10n) places -= 1;  // round(se, places) >= 10^(1 - places)
  }
  if (places <= MEAN_PLACES) {
    return `${readoutNumber(e.mean, places, nearOne, e.complement ?? null, false)} ± ${formatFixed(e.se, places)}`;
  }
  if (e.mean !== 0 && Math.abs(e.mean) < pow10(-MEAN_PLACES)) return `${formatGeneral(e.mean, 2)} ± ${formatGeneral(e.se, 1)}`;
  return `${readoutNumber(e.mean, MEAN_PLACES, nearOne, e.complement ?? null, false)} ± ${formatGeneral(e.se, 1)}`;
}
