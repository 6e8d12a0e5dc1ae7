// The scale explorer's numbers for any scale s (attention_scaling.figures.ScaleFigure.update):
// one score vector times s, its softmax, P(1 - P), the Jacobian and its norm, and the same
// measures' means over the draws behind the bands. The payload is the Python package's
// (attention_scaling.web.scale_payload): the scores shown and the draws, as numbers.
import {formatFixed, formatGeneral} from "./format.js";
import {diagonalGradient, jacobian, largestEigenvalue, meansOf, measures, softmax} from "./numerics.js";
import {unpack} from "./payload.js";
import {readoutParts} from "./readout.js";

export const SCALE_RANGE = [0.05, 100];

export function scaleState(packed, scale) {
  const payload = unpack(packed);
  const s = Number(scale);
  if (!(s >= SCALE_RANGE[0] && s <= SCALE_RANGE[1])) {
    throw new RangeError(`scale must lie in [${SCALE_RANGE}], got ${scale}`);
  }
  const weights = softmax(payload.z.map(x => s * x));
  const jac = jacobian(weights);
  const draw = {...measures(weights), jacobianNorm: largestEigenvalue(jac)};
  const perDraw = payload.draws.map(z => {
    const p = softmax(z.map(x => s * x));
    return {...measures(p), jacobianNorm: largestEigenvalue(jacobian(p))};
  });
  const mean = meansOf(perDraw);
  return {scale: s, seed: payload.seed, weights, gradient: diagonalGradient(weights), jacobian: jac, draw, mean,
          nDraws: payload.draws.length};
}

// The rows every explorer of one weight vector reads out (explorables.book._weight_rows): above
// 1/2 the largest weight's distance from 1 is its P(1 - P) over itself.
export function weightRows(draw, mean) {
  const top = draw.maxWeight;
  return [
    {label: "largest weight", draw: top, mean: mean.maxWeight, digits: 3, nearOne: true,
     complement: top > 0.5 ? draw.largestGradient / top : null},
    {label: "entropy", draw: draw.entropy, mean: mean.entropy, digits: 2},
    {label: "largest P(1−P)", draw: draw.largestGradient, mean: mean.largestGradient, digits: 3},
  ];
}

export function meansNote(n, maxEntropy, what = "queries") {
  return `Each mean is over ${n} ${what}, ± one standard error; this draw can sit far from it. ` +
    `Entropy in nats, at most ln n = ${formatFixed(maxEntropy, 2)}.`;
}

// explorables.book._describe_scale, as the parts of a readout (readout.js)
export function scaleReadout(state) {
  const k = state.weights.length, s = state.scale;
  const lead = `One draw of ${k} scores` + (state.seed != null ? ` (seed ${state.seed})` : "") +
    ` times a scale s = ${formatGeneral(s, 6)} (temperature ${formatGeneral(1 / s, 3)}).`;
  const rows = [...weightRows(state.draw, state.mean),
    {label: "norm of the Jacobian ‖J‖₂", draw: state.draw.jacobianNorm, mean: state.mean.jacobianNorm, digits: 3}];
  return readoutParts({lead, groups: [{caption: "", rows}], note: meansNote(state.nDraws, Math.log(k), "draws"),
    intro: "Softmax explorer.", figure: "Dashed lines and bands: the mean and middle 80 % of the draws."});
}
