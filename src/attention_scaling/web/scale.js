// The scale explorer's numbers for any scale s (attention_scaling.figures.ScaleFigure.update):
// one score vector times s, its softmax, P(1 - P), the Jacobian and its norm, and the same
// measures' means over the draws behind the bands. The payload is the Python package's
// (attention_scaling.web.scale_payload): the scores shown and the draws, as numbers.
import {diagonalGradient, expectation, jacobian, largestEigenvalue, measures, softmax} from "./numerics.js";

export const SCALE_RANGE = [0.05, 100];

export function scaleState(payload, scale) {
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
  const mean = {};
  for (const key of Object.keys(draw)) mean[key] = expectation(perDraw.map(m => m[key]));
  return {scale: s, seed: payload.seed, weights, gradient: diagonalGradient(weights), jacobian: jac, draw, mean,
          nDraws: payload.draws.length};
}
