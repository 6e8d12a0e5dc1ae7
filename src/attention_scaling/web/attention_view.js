// The attention explorer drawn in the page (issue 30): unscaled softmax(q.k) in red against
// softmax(q.k / sqrt(d_k)) in blue. A slider for d_k (every whole number from 1 to 1024 that its
// log positions reach: all of them to 100, then about 1 % apart, the powers of two among them) and
// one for the vector magnitude m (log, 0.1 to 10); three SVG panels (the weights of one draw with
// the means' lines and bands, every weight on the curve P(1 - P), the histogram of |q.k| over
// random pairs against its prediction); the readout with its live sentence and a "data" table.
// Everything is recomputed by attention.js from the seed; nothing is an image.
import {attentionModel, attentionReadout, D_RANGE, MAGNITUDE_RANGE} from "./attention.js";
import {formatFixed, formatGeneral, liveText, readoutNumber} from "./format.js";
import {xAxis} from "./axes.js";
import {B, H, L, R, W, addStyles, html, logPositions, node, panel, panelFocus, indexAtOrBelow, scaffold, sliderRow, yAxis} from "./view.js";

// The book's red and blue (figures.style.COLORS): red filled and solid, blue outlined and dashed,
// so that the two tell apart in greyscale too.
const RED = "#d62728", BLUE = "#1f77b4";
export const MAGNITUDE_STEPS = 1000;

// A mean (a horizontal line across the panel) and, with `band`, the middle 80 % behind it.
function meanMarks(svg, y, colour, dashed, band) {
  const rect = band ? node("rect", {x: L, width: W - R - L, class: "asb-meanband", style: `fill: ${colour}`}, svg) : null;
  const line = node("line", {x1: L, x2: W - R, class: "asb-meanline",
    style: `stroke: ${colour}; stroke-dasharray: ${dashed ? "6 4" : "none"}`}, svg);
  return e => {
    const at = y(Math.min(e.mean, 1.02));
    line.setAttribute("y1", at);
    line.setAttribute("y2", at);
    line.dataset.value = String(e.mean);
    if (rect) {
      const top = y(Math.min(e.high, 1.02)), bottom = y(Math.max(e.low, 0));
      rect.setAttribute("y", top);
      rect.setAttribute("height", Math.max(0, bottom - top));
    }
  };
}

// 1: one draw's weights, a red (filled) and a blue (outlined) bar per key, with the means of the
// largest weight (lines) and their middle 80 % (bands): figures.AttentionFigure._weights_panel.
// Each colour's bars are one path, a rectangle a key (the bars never overlap, so it draws what a
// rectangle each would), with the weights shown in data-value: a step rewrites two elements, not
// a hundred and twenty-eight. A bar of height 0 is left out, as an SVG rectangle of height 0 is.
function weightsPanel(svg) {
  const y = yAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "weight Pⱼ", 1);
  node("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, class: "asb-axis"}, svg);
  node("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg, "keys (a pair of bars each)");
  const means = {unscaled: meanMarks(svg, y, RED, false, true), scaled: meanMarks(svg, y, BLUE, true, true)};
  const bars = {
    unscaled: node("path", {class: "asb-bar", style: `fill: ${RED}`}, svg),
    scaled: node("path", {class: "asb-bar asb-outlined", style: `stroke: ${BLUE}`}, svg),
  };
  return state => {
    const n = state.nKeys, x = u => L + u * (W - L - R);
    for (const [slot, curve] of [[0, "unscaled"], [1, "scaled"]]) {
      const weights = state.weights[curve];
      let d = "";
      for (let j = 0; j < n; j++) {
        const top = y(Math.min(weights[j], 1.02)), height = Math.max(0, y(0) - top);
        const left = (j + 0.1 + 0.4 * slot) / n;  // figures.blit._grouped_bar_edges
        const x0 = x(left), width = x(left + 0.4 / n) - x0;
        if (height > 0) d += `M${x0},${top}h${width}v${height}h${-width}z`;
      }
      bars[curve].setAttribute("d", d || "M0,0");
      bars[curve].dataset.value = weights.slice(0, n).join(" ");
      means[curve](state.mean[curve].maxWeight);
    }
  };
}

// A marker at (cx, cy): a circle (red, filled) or a square (blue, white inside)
function mark(svg, shape, colour) {
  return shape === "square"
    ? node("rect", {width: 7, height: 7, class: "asb-mark asb-hollow", style: `stroke: ${colour}`}, svg)
    : node("circle", {r: 3.6, class: "asb-mark", style: `fill: ${colour}; stroke: none`}, svg);
}

// 2: the curve P(1 - P), every weight of the draw on it, and the means of the largest P(1 - P)
function gradientPanel(svg, maxKeys) {
  // ticks of one decimal: the y caption keeps clear of them in Present mode's larger text
  const y = yAxis(svg, [0, 0.1, 0.2], 0.27, "∂Pⱼ/∂zⱼ", 1);
  const x = p => L + p * (W - L - R);
  xAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1].map(v => [v, formatFixed(v, 1), v === 0 || v === 0.4 || v === 0.8]), x, "weight Pⱼ");
  const points = Array.from({length: 201}, (_, i) => i / 200).map(p => `${x(p)},${y(p * (1 - p))}`);
  node("polyline", {points: points.join(" "), class: "asb-curve"}, svg);
  const means = {unscaled: meanMarks(svg, y, RED, false, false), scaled: meanMarks(svg, y, BLUE, true, false)};
  // hollow blue squares under the red points: where the two agree (d_k = 1) both show
  const scaled = Array.from({length: maxKeys}, () => mark(svg, "square", BLUE));
  const marks = {unscaled: Array.from({length: maxKeys}, () => mark(svg, "circle", RED)), scaled};
  return state => {
    for (const curve of ["unscaled", "scaled"]) {
      marks[curve].forEach((m, j) => {
        if (j >= state.nKeys) {
          m.style.display = "none";
          return;
        }
        const cx = x(state.weights[curve][j]), cy = y(Math.min(state.gradients[curve][j], 0.27));
        m.style.display = "";
        if (m.tagName === "rect") {
          m.setAttribute("x", cx - 3.5);
          m.setAttribute("y", cy - 3.5);
        } else {
          m.setAttribute("cx", cx);
          m.setAttribute("cy", cy);
        }
        m.dataset.value = String(state.gradients[curve][j]);
      });
      means[curve](state.mean[curve].largestGradient);
    }
  };
}

// 3: the histogram of |q.k| over the random pairs, on a log axis, against its normal prediction
function spreadPanel(svg, edges) {
  const y = yAxis(svg, [0, 0.1, 0.2], 0.3, "share per bin", 1);  // (of the pairs: the title says)
  const lo = Math.log10(edges[0]), hi = Math.log10(edges[edges.length - 1]);
  const x = v => L + (Math.log10(v) - lo) / (hi - lo) * (W - L - R);
  xAxis(svg, [[1e-4, "10⁻⁴"], [1e-2, "10⁻²", true], [1, "1"], [1e2, "10²", true], [1e4, "10⁴"]], x,
    "|score| (log scale)");
  const steps = (values, top) => {  // a closed outline of the bins (matplotlib's stairs)
    let d = `M${x(edges[0])},${y(0)}`;
    values.forEach((v, i) => {
      const h = y(Math.min(v, top));
      d += `V${h}H${x(edges[i + 1])}`;
    });
    return d + `V${y(0)}`;
  };
  // the blue hump hatched, as the matplotlib figure draws it: told from the red one in greyscale
  const hatch = `asb-hatch-${Math.random().toString(36).slice(2, 10)}`;
  const pattern = node("pattern", {id: hatch, width: 5, height: 5, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)"}, node("defs", {}, svg));
  node("rect", {width: 5, height: 5, style: `fill: ${BLUE}; fill-opacity: 0.5`}, pattern);
  node("line", {x1: 1, y1: 0, x2: 1, y2: 5, style: `stroke: ${BLUE}; stroke-width: 1.5`}, pattern);
  const filled = {
    unscaled: node("path", {class: "asb-hist", style: `fill: ${RED}`}, svg),
    scaled: node("path", {class: "asb-hist asb-hatched", style: `fill: url(#${hatch})`}, svg),
  };
  const predicted = {
    unscaled: node("path", {class: "asb-pred", style: `stroke: ${RED}; stroke-dasharray: 5 3`}, svg),
    scaled: node("path", {class: "asb-pred", style: `stroke: ${BLUE}; stroke-dasharray: 1.5 2.5`}, svg),
  };
  return state => {
    for (const curve of ["unscaled", "scaled"]) {
      filled[curve].setAttribute("d", steps(state.histogram[curve], 0.3));
      filled[curve].dataset.value = state.histogram[curve].join(" ");
      predicted[curve].setAttribute("d", steps(state.predicted[curve], 0.3));
    }
  };
}

// the Data table's rows: each key's scores and weights, unscaled and scaled
function dataRows(state, row) {
  const number = x => readoutNumber(x, 4, false, null, false);
  for (let j = 0; j < state.nKeys; j++) {
    row(`key ${j + 1}`, formatGeneral(state.scores.unscaled[j], 4), number(state.weights.unscaled[j]),
      formatGeneral(state.scores.scaled[j], 4), number(state.weights.scaled[j]));
  }
}

// The d_k slider's values, position by position (payload.dPositions: every whole number that 1 001
// log steps from 1 to 1024 reach, with the powers of two), and the magnitude slider's (1 000 log
// steps from 0.1 to 10, the nearest to each of payload.niceMagnitudes snapped to it).
export function attentionPositions(payload) {
  const ds = payload.dPositions;
  const m = logPositions(MAGNITUDE_RANGE[0], MAGNITUDE_RANGE[1], MAGNITUDE_STEPS, payload.niceMagnitudes || []);
  return {
    dSteps: ds.length - 1,
    toD: k => ds[Math.min(ds.length - 1, Math.max(0, k))],
    fromD: d => indexAtOrBelow(ds, d),
    toMagnitude: m.to,
    fromMagnitude: m.from,
  };
}

// The controls the page holds (by id: the d_k and magnitude sliders), or made here.
function controls(root, ids, at) {
  const found = ids && ids.length >= 2 && root.querySelector(`#${CSS.escape(ids[0])}`);
  if (found) {
    return {d: found, m: root.querySelector(`#${CSS.escape(ids[1])}`),
      dShown: root.querySelector(`output[for="${ids[0]}"]`), mShown: root.querySelector(`output[for="${ids[1]}"]`)};
  }
  const base = root.id || `asb-attention-${Math.random().toString(36).slice(2, 8)}`;
  const box = html("div", {class: "asb-controls"}, root);
  const [d, dShown] = sliderRow(box, `${base}-d_k`, "key dimension dₖ", at.dSteps);
  const [m, mShown] = sliderRow(box, `${base}-magnitude`, "vector magnitude m (std of each component)", MAGNITUDE_STEPS);
  return {d, m, dShown, mShown};
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.attention_payload). Parts the
// root already holds are used (a built page's controls, figure box and readout: a .asb-player, its
// sliders found by `ids`: d_k, magnitude); missing ones are made. With `slider: false` it has no
// controls (in Jupyter they are ipywidgets, and set() also takes n_keys). Returns {set(values),
// fromInput(), showPanel(i), roundStops, state}.
export function mountAttention(root, payload, {d_k = 64, magnitude = 1, n_keys = 16, ids = null,
  slider: withSlider = true} = {}) {
  addStyles();
  addStyles("asb-attention-css", ATTENTION_CSS);
  root.classList.add("asb-explorer", "asb-attention-explorer");
  const model = attentionModel(payload);
  const at = attentionPositions(payload);
  const input = withSlider ? controls(root, ids, at) : null;
  if (input) {
    input.d.max = String(at.dSteps);
    input.m.max = String(MAGNITUDE_STEPS);
  }
  const {stack, key, setReadout, setData} = scaffold(root, ["key", "q·k", "weight, unscaled", "q·k/√dₖ", "weight, scaled"],
    dataRows);
  const drawWeights = weightsPanel(panel(stack, "weights of one draw"));
  const drawGradient = gradientPanel(panel(stack, "gradient P(1 − P)"), payload.maxKeys);
  const drawSpread = spreadPanel(panel(stack, `|q·k| of ${payload.nPairs} random pairs`), payload.edges);
  key.textContent = "Red, filled, solid: unscaled; blue, outlined, dashed: scaled by 1/√dₖ. Lines and bands: " +
    `mean and middle 80 % of ${payload.nQueries} queries. Right: dashed and dotted steps, the predictions ` +
    "N(0, m⁴dₖ) and N(0, m⁴).";
  let state = null, current = {d_k, magnitude, n_keys};
  function set(values) {
    current = {...current, ...values};
    const d = Math.min(D_RANGE[1], Math.max(D_RANGE[0], Math.round(Number(current.d_k))));
    const m = Math.min(MAGNITUDE_RANGE[1], Math.max(MAGNITUDE_RANGE[0], Number(current.magnitude)));
    const n = Math.min(payload.maxKeys, Math.max(2, Math.round(Number(current.n_keys))));
    const before = state ? state.dK : d;
    state = model.state(d, m, n);
    // the next d_k either way (the slider's next positions; in Jupyter the IntSlider's d_k +- 1),
    // the way it moved first, computed while the page is idle
    const k = input ? at.fromD(d) : d;
    const next = input ? [at.toD(k + 1), at.toD(k - 1)] : [d + 1, d - 1];
    model.prefetch(d < before ? next.reverse() : next);
    drawWeights(state);
    drawGradient(state);
    drawSpread(state);
    const parts = attentionReadout(state);
    setReadout(parts);
    setData(state);
    stack.setAttribute("aria-label", parts.alt);
    if (input) {
      input.d.value = String(at.fromD(state.dK));
      input.m.value = String(at.fromMagnitude(state.magnitude));
      input.d.setAttribute("aria-valuetext", `dₖ = ${state.dK}`);
      input.m.setAttribute("aria-valuetext", `m = ${formatGeneral(state.magnitude, 4)}`);
      if (input.dShown) input.dShown.textContent = String(state.dK);
      if (input.mShown) input.mShown.textContent = formatGeneral(state.magnitude, 4);
    }
    root.dataset.dK = String(state.dK);
    return state;
  }
  const fromInput = () => set({d_k: at.toD(Number(input.d.value)), magnitude: at.toMagnitude(Number(input.m.value))});
  if (input) {
    input.d.addEventListener("input", fromInput);
    input.m.addEventListener("input", fromInput);
  }
  set({d_k, magnitude, n_keys});
  return {set, fromInput, showPanel: panelFocus(stack), roundStops: [], format: liveText, get state() { return state; }};
}

// The attention view's looks beyond the shared ones (view.js).
const ATTENTION_CSS = `
/* white inside, as the matplotlib figure draws them; the page's background in dark mode */
.asb-attention-explorer .asb-outlined { fill: var(--pst-color-background, #fff); stroke-width: 1.2; }
.asb-attention-explorer .asb-hollow { fill: none; stroke-width: 1.4; }
.asb-attention-explorer .asb-meanband { fill-opacity: 0.13; }
.asb-attention-explorer .asb-meanline { stroke-width: 1.6; }
.asb-attention-explorer .asb-curve { fill: none; stroke: #8c8c8c; stroke-width: 1.5; }
.asb-attention-explorer .asb-mark { fill-opacity: 0.85; stroke-opacity: 0.85; stroke-width: 1.2; }
.asb-attention-explorer .asb-hist { fill-opacity: 0.45; stroke: none; }
.asb-attention-explorer .asb-hatched { fill-opacity: 0.8; }
.asb-attention-explorer .asb-pred { fill: none; stroke-width: 1.4; }
.asb-attention-explorer .asb-svg { overflow: visible; }
/* Presenting, the figure has the height the sliders and the two tables leave it: its text grows so
   that the smallest stays above 2.5 % of the screen's height */
.asb-presenting.asb-attention-explorer .asb-tick, .asb-presenting.asb-attention-explorer .asb-label { font-size: 15.5px; }
.asb-presenting.asb-attention-explorer .asb-ptitle { font-size: 16px; }
.asb-presenting.asb-attention-explorer .asb-minor, .asb-presenting.asb-attention-explorer .asb-key { display: none; }
@media (max-width: 700px) {  /* a phone: the panel the stop talks about, with room to read it */
  .asb-presenting.asb-attention-explorer .asb-key, .asb-presenting.asb-attention-explorer .asb-foot { display: none; }
}
`;

// The model's first work in steps of a few milliseconds, before the view mounts: player.js runs
// them between the page's tasks (the view and the steps share one model a payload).
mountAttention.prepare = payload => attentionModel(payload).warm();
