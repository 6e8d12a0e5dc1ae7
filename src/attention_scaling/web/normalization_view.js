// The normalisation explorer drawn in the page (issue 30): one query's weights at d_k = 64 under
// scaling by 1/sqrt(d_k), QK-norm (gain g) or LayerNorm on q and k, as the vector magnitude m
// grows. Radio buttons for the normalisation, a log slider for m (0.1 to 10) and one for g (1 to
// 128, 100 positions an octave); two SVG panels (the weights of one draw with the mean and middle
// 80 % of the largest weight; that mean and band against m for every normalisation, this draw
// marked); the readout with its live sentence and a "data" table. Everything is recomputed by
// normalization.js from the seed; nothing is an image.
import {formatFixed, formatGeneral, liveText, readoutNumber} from "./format.js";
import {markerPath, xAxis} from "./axes.js";
import {GAIN_RANGE, MAGNITUDE_RANGE, MODES, normalizationModel, normalizationReadout} from "./normalization.js";
import {H, L, R, W, addStyles, choiceRow, html, logPositions, node, panel, panelFocus, scaffold, sliderRow, yAxis} from "./view.js";

// Each normalisation's colour, line and marker, as the matplotlib figure draws them (its colour
// cycle; NormalizationFigure.MARKS): told apart in greyscale too.
// (The colours are the page's: a dark page gets lighter ones, NORMALIZATION_CSS.)
const STYLE = {
  "scaled": {colour: "var(--asb-norm-scaled)", dash: "none", marker: null},
  "qk-l2": {colour: "var(--asb-norm-qk)", dash: "6 3", marker: "square", every: [0, 8]},
  "qk-layernorm": {colour: "var(--asb-norm-ln)", dash: "1.5 3", marker: "circle", every: [4, 8]},
};
export const MAGNITUDE_STEPS = 1000, GAIN_STEPS = 700;  // the gain: 2^(k / 100)

// 1: the one draw's weights in the mode's colour, with the mean and middle 80 % of the largest weight
function weightsPanel(svg, nKeys) {
  const y = yAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "weight Pⱼ", 1);
  node("line", {x1: L, x2: W - R, y1: H - 38, y2: H - 38, class: "asb-axis"}, svg);
  node("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg, `${nKeys} keys`);
  const band = node("rect", {x: L, width: W - R - L, class: "asb-band"}, svg);
  const step = (W - L - R) / nKeys;
  const bars = Array.from({length: nKeys}, (_, j) => node("rect", {x: L + step * (j + 0.2), width: step * 0.6,
    class: "asb-bar"}, svg));
  const mean = node("line", {x1: L, x2: W - R, class: "asb-mean"}, svg);
  return (weights, colour, e) => {
    bars.forEach((bar, j) => {
      const top = y(Math.min(weights[j], 1.02));
      bar.setAttribute("y", top);
      bar.setAttribute("height", Math.max(0, y(0) - top));
      bar.style.fill = colour;
      bar.dataset.value = String(weights[j]);
    });
    const at = y(Math.min(e.mean, 1.02)), top = y(Math.min(e.high, 1.02)), bottom = y(Math.max(e.low, 0));
    mean.setAttribute("y1", at);
    mean.setAttribute("y2", at);
    mean.dataset.value = String(e.mean);
    band.setAttribute("y", top);
    band.setAttribute("height", Math.max(0, bottom - top));
  };
}

// 2: every normalisation's mean largest weight against m (log), its band, and this draw marked
function curvesPanel(svg, grid) {
  const y = yAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "largest weight", 1);
  const [lo, hi] = MAGNITUDE_RANGE;
  const x = m => L + Math.log(m / lo) / Math.log(hi / lo) * (W - L - R);
  xAxis(svg, [[0.1, "0.1"], [0.3, "0.3", true], [1, "1"], [3, "3", true], [10, "10"]], x, "magnitude m (log scale)");
  const drawn = {};
  for (const mode of MODES) {
    const s = STYLE[mode], g = node("g", {class: "asb-mode"}, svg);
    drawn[mode] = {
      band: node("polygon", {class: "asb-cband", style: `fill: ${s.colour}`}, g),
      line: node("polyline", {class: "asb-line", style: `stroke: ${s.colour}; stroke-dasharray: ${s.dash}`}, g),
      marks: s.marker ? grid.filter((_, i) => i % s.every[1] === s.every[0]).map(() => node("path",
        {d: markerPath(s.marker, 2.6), class: s.marker === "circle" ? "asb-ring-mark" : "asb-fill-mark",
         style: `stroke: ${s.colour}; fill: ${s.marker === "circle" ? "none" : s.colour}`}, g)) : [],
    };
  }
  const dot = node("circle", {r: 4.5, class: "asb-dot"}, svg);
  return state => {
    for (const mode of MODES) {
      const c = state.curves[mode], d = drawn[mode], s = STYLE[mode];
      const points = grid.map((m, i) => `${x(m)},${y(c[i].mean)}`);
      d.line.setAttribute("points", points.join(" "));
      d.line.dataset.value = c.map(p => p.mean).join(" ");
      const upper = grid.map((m, i) => `${x(m)},${y(Math.min(c[i].high, 1.02))}`);
      const lower = grid.map((m, i) => `${x(m)},${y(Math.max(c[i].low, 0))}`).reverse();
      d.band.setAttribute("points", [...upper, ...lower].join(" "));
      if (s.marker) {
        const at = grid.map((m, i) => i).filter(i => i % s.every[1] === s.every[0]);
        d.marks.forEach((p, k) => p.setAttribute("transform", `translate(${x(grid[at[k]])},${y(c[at[k]].mean)})`));
      }
    }
    svg.appendChild(drawn[state.mode].band.parentNode);  // the current mode on top
    svg.appendChild(dot);
    const top = Math.max(...state.weights);
    dot.setAttribute("cx", x(state.magnitude));
    dot.setAttribute("cy", y(top));
    dot.style.fill = STYLE[state.mode].colour;
    dot.dataset.value = String(top);
  };
}

// A sample of a curve's line and marker, put before an option's name: the legend, where the
// normalisation is chosen (Present mode shows no key line).
function swatch(label, style) {
  const svg = node("svg", {viewBox: "0 0 22 10", width: 22, height: 10, class: "asb-swatch", "aria-hidden": "true"});
  node("line", {x1: 1, x2: 21, y1: 5, y2: 5, style: `stroke: ${style.colour}; stroke-width: 2; stroke-dasharray: ${style.dash}`}, svg);
  if (style.marker) {
    node("path", {d: markerPath(style.marker, 2.6), transform: "translate(11,5)",
      style: `stroke: ${style.colour}; fill: ${style.marker === "circle" ? "none" : style.colour}`}, svg);
  }
  const input = label.querySelector("input");
  label.insertBefore(svg, input ? input.nextSibling : label.firstChild);
}

// the Data table's rows: each key's logit and weight
function dataRows(state, row) {
  for (let j = 0; j < state.nKeys; j++) {
    row(`key ${j + 1}`, formatGeneral(state.scores[j], 4), readoutNumber(state.weights[j], 4, false, null, false));
  }
}

// The magnitude slider's positions (1 000 log steps from 0.1 to 10, the nearest to each of
// payload.niceMagnitudes snapped to it) and the gain's (2^(k / 100): every power of two exact).
export function normalizationPositions(payload) {
  const m = logPositions(MAGNITUDE_RANGE[0], MAGNITUDE_RANGE[1], MAGNITUDE_STEPS, payload.niceMagnitudes || []);
  return {
    toMagnitude: m.to, fromMagnitude: m.from,
    toGain: k => 2 ** (Math.min(GAIN_STEPS, Math.max(0, k)) / 100),
    fromGain: g => Math.min(GAIN_STEPS, Math.max(0, Math.round(100 * Math.log2(g)))),
  };
}

// The controls the page holds (by id: the mode's radio group, the magnitude and gain sliders), or made here.
function controls(root, ids, payload) {
  const found = ids && ids.length === 3 && root.querySelector(`#${CSS.escape(ids[1])}`);
  if (found) {
    return {radios: [...root.querySelectorAll(`input[type="radio"][name="${CSS.escape(ids[0])}"]`)],
      m: found, gain: root.querySelector(`#${CSS.escape(ids[2])}`),
      mShown: root.querySelector(`output[for="${ids[1]}"]`), gainShown: root.querySelector(`output[for="${ids[2]}"]`)};
  }
  const base = root.id || `asb-normalization-${Math.random().toString(36).slice(2, 8)}`;
  const box = html("div", {class: "asb-controls"}, root);
  const radios = choiceRow(box, `${base}-mode`, "normalisation", MODES.map(m => payload.names[m]));
  const [m, mShown] = sliderRow(box, `${base}-magnitude`, "vector magnitude m (std of each component)", MAGNITUDE_STEPS);
  const [gain, gainShown] = sliderRow(box, `${base}-gain`, "QK-norm gain g (moves the QK-norm curve)", GAIN_STEPS);
  return {radios, m, gain, mShown, gainShown};
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.normalization_payload). Parts
// the root already holds are used (a built page's controls, figure box and readout: a
// .asb-player, its controls found by `ids`: mode, magnitude, gain); missing ones are made. With
// `slider: false` it has no controls (in Jupyter they are ipywidgets, and the mode comes as its
// index). Returns {set(values), fromInput(), showPanel(i), roundStops, state}.
export function mountNormalization(root, payload, {mode = "scaled", magnitude = 1, gain = 8, ids = null,
  slider: withSlider = true} = {}) {
  addStyles();
  addStyles("asb-normalization-css", NORMALIZATION_CSS);
  root.classList.add("asb-explorer", "asb-normalization-explorer");
  const model = normalizationModel(payload);
  const at = normalizationPositions(payload);
  const input = withSlider ? controls(root, ids, payload) : null;
  if (input) {
    input.m.max = String(MAGNITUDE_STEPS);
    input.gain.max = String(GAIN_STEPS);
  }
  const {stack, key, setReadout, setData} = scaffold(root, ["key", "logit", "weight"], dataRows);
  const drawWeights = weightsPanel(panel(stack, "weights of one draw"), payload.nKeys);
  const drawCurves = curvesPanel(panel(stack, `mean of ${payload.nQueries} queries, dₖ = ${payload.dK}`), payload.grid);
  key.textContent = "Right: mean largest weight over the queries, drawn as each name's swatch (where two coincide, " +
    "both markers show); bands: middle 80 %; dot: this draw. Left: dashed line and band, the same.";
  if (input) input.radios.forEach((r, i) => swatch(r.parentElement, STYLE[MODES[i]]));
  let state = null, current = {mode, magnitude, gain};
  function set(values) {
    current = {...current, ...values};
    if (typeof current.mode === "number") current.mode = MODES[current.mode];  // a choice's index (Jupyter)
    const m = Math.min(MAGNITUDE_RANGE[1], Math.max(MAGNITUDE_RANGE[0], Number(current.magnitude)));
    const g = Math.min(GAIN_RANGE[1], Math.max(GAIN_RANGE[0], Number(current.gain)));
    state = model.state(m, current.mode, g);
    drawWeights(state.weights, STYLE[state.mode].colour, state.mean.maxWeight);
    drawCurves(state);
    const parts = normalizationReadout(state, payload.names);
    setReadout(parts);
    setData(state);
    stack.setAttribute("aria-label", parts.alt);
    if (input) {
      input.radios.forEach((r, i) => { r.checked = MODES[i] === state.mode; });
      input.m.value = String(at.fromMagnitude(state.magnitude));
      input.gain.value = String(at.fromGain(state.gain));
      input.m.setAttribute("aria-valuetext", `m = ${formatGeneral(state.magnitude, 4)}`);
      input.gain.setAttribute("aria-valuetext", `g = ${formatGeneral(state.gain, 4)}`);
      if (input.mShown) input.mShown.textContent = formatGeneral(state.magnitude, 4);
      if (input.gainShown) input.gainShown.textContent = formatGeneral(state.gain, 4);
    }
    root.dataset.mode = state.mode;
    return state;
  }
  const fromInput = () => {
    const chosen = input.radios.findIndex(r => r.checked);
    return set({mode: MODES[Math.max(0, chosen)], magnitude: at.toMagnitude(Number(input.m.value)),
      gain: at.toGain(Number(input.gain.value))});
  };
  if (input) {
    for (const r of input.radios) r.addEventListener("change", fromInput);
    input.m.addEventListener("input", fromInput);
    input.gain.addEventListener("input", fromInput);
  }
  set({mode, magnitude, gain});
  return {set, fromInput, showPanel: panelFocus(stack), roundStops: [], format: liveText, get state() { return state; }};
}

// The normalisation view's looks beyond the shared ones (view.js).
const NORMALIZATION_CSS = `
.asb-normalization-explorer { --asb-norm-scaled: #1f77b4; --asb-norm-qk: #ff7f0e; --asb-norm-ln: #2ca02c; }
html[data-theme="dark"] .asb-normalization-explorer, body[data-jp-theme-light="false"] .asb-normalization-explorer {
  --asb-norm-scaled: #5aa9e6; --asb-norm-qk: #ffa54f; --asb-norm-ln: #5fd35f; }
.asb-normalization-explorer .asb-bar { stroke: none; }
.asb-normalization-explorer .asb-cband { fill-opacity: 0.12; stroke: none; }
.asb-normalization-explorer .asb-line { fill: none; stroke-width: 2; }
.asb-normalization-explorer .asb-fill-mark, .asb-normalization-explorer .asb-ring-mark { stroke-width: 1.2; }
.asb-normalization-explorer .asb-dot { stroke: var(--pst-color-background, #fff); stroke-width: 1; }
.asb-normalization-explorer .asb-svg { overflow: visible; }
.asb-normalization-explorer .asb-panels { grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); max-width: 600px; }
.asb-normalization-explorer .asb-swatch { vertical-align: middle; margin: 0 0.1em 0 0.25em; }
/* Presenting, three controls and a readout leave the figure little height: the options name the
   normalisation without a legend, the two sliders share a row, and the figure's text is larger. */
.asb-presenting.asb-normalization-explorer .asb-choice legend,
.asb-presenting.asb-normalization-explorer .asb-key { display: none; }
.asb-presenting.asb-normalization-explorer .asb-panels { grid-template-columns: repeat(2, minmax(0, 1fr)); max-width: none; }
@media (min-width: 701px) {  /* a phone keeps a control a row; a wider screen puts the sliders side by side */
  .asb-presenting.asb-normalization-explorer .asb-choice { flex: 1 1 100%; }
  .asb-presenting.asb-normalization-explorer .asb-control:not(.asb-choice) { flex: 1 1 0; min-width: 0; flex-wrap: nowrap; }
  .asb-presenting.asb-normalization-explorer .asb-control > label { font-size: 18px; flex: 0 1 50%; }
  .asb-presenting.asb-normalization-explorer .asb-slider { flex: 1 1 auto; min-width: 0; }
  .asb-presenting.asb-normalization-explorer .asb-slider input[type="range"] { min-width: 4em; }
}
@media (max-width: 700px) {
  .asb-presenting.asb-normalization-explorer .asb-panels { grid-template-columns: minmax(0, 1fr); }
}
.asb-presenting.asb-normalization-explorer .asb-tick, .asb-presenting.asb-normalization-explorer .asb-label { font-size: 14px; }
.asb-presenting.asb-normalization-explorer .asb-ptitle { font-size: 15px; }
`;

// The model's first work in steps of a few milliseconds, before the view mounts: player.js runs
// them between the page's tasks (the view and the steps share one model a payload).
mountNormalization.prepare = payload => normalizationModel(payload).warm();
