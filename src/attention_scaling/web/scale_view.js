// The scale explorer drawn in the page (issue 30): a log slider for s, three SVG panels (the
// weights, P(1 - P), the Jacobian), the readout as a table with a live sentence, and a "data"
// table of the current numbers. Everything is recomputed by scale.js at any s; nothing is an
// image. Colours come from the page (CSS custom properties, `currentColor` for text), so dark
// mode needs no second drawing; nothing animates.
import {formatFixed, formatGeneral, liveText, readoutNumber} from "./format.js";
import {B, H, L, R, T, VIEW_CSS, W, addStyles, html, logPositions, node, panel, panelFocus, scaffold, sliderRow, yAxis} from "./view.js";
import {unpack} from "./payload.js";
import {SCALE_RANGE, scaleReadout, scaleState} from "./scale.js";

// Positions of the log slider: 1000 steps from 0.05 to 100, 0.76 % apart (a value in between
// is set from code, as a lesson stop is).
const STEPS = 1000;
// matplotlib's PuOr in ten steps of 0.05 over [-0.25, 0.25], as the Python figure draws it
// (matplotlib.colormaps["PuOr"].resampled(10), to_hex)
const PUOR = ["#7f3b08", "#b85d08", "#e68e26", "#fdc57f", "#fbead3", "#e6e7f0", "#bfbbda", "#8b7fb4",
  "#592f8c", "#2d004b"];

function xIndex(svg, n) {
  const step = (W - L - R) / n;
  for (let i = 0; i < n; i++) {
    node("text", {x: L + step * (i + 0.5), y: H - B + 15, "text-anchor": "middle", class: "asb-tick"}, svg,
      String(i + 1));
  }
  node("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg,
    "index i, largest score first");
  return step;
}

// Bars, the mean's dashed line and its 10-90 % band, updated in place.
function barPanel(svg, n, y, colourVar, top) {
  const step = xIndex(svg, n);
  const band = node("rect", {x: L, width: W - L - R, class: "asb-band"}, svg);
  const bars = Array.from({length: n}, (_, i) => node("rect", {x: L + step * (i + 0.14), width: step * 0.72,
    class: "asb-bar", style: `fill: var(${colourVar})`}, svg));
  const mean = node("line", {x1: L, x2: W - R, class: "asb-mean"}, svg);
  return (values, e) => {
    values.forEach((v, i) => {
      const h = Math.max(0, y(0) - y(Math.min(v, top)));
      bars[i].setAttribute("y", y(0) - h);
      bars[i].setAttribute("height", h);
      bars[i].dataset.value = String(v);
    });
    band.setAttribute("y", y(Math.min(e.high, top)));
    band.setAttribute("height", Math.max(0, y(e.low) - y(Math.min(e.high, top))));
    mean.setAttribute("y1", y(e.mean));
    mean.setAttribute("y2", y(e.mean));
    mean.dataset.value = String(e.mean);
  };
}

function heatPanel(svg, n) {
  const x0 = 30, size = Math.min(W - x0 - R - 40, H - T - B), cell = size / n, y0 = T + 2;
  const cells = [], signs = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      cells.push(node("rect", {x: x0 + j * cell, y: y0 + i * cell, width: cell, height: cell}, svg));
      signs.push(node("text", {x: x0 + (j + 0.5) * cell, y: y0 + (i + 0.5) * cell + 4, "text-anchor": "middle",
        class: "asb-sign"}, svg, ""));
    }
    node("text", {x: x0 - 5, y: y0 + (i + 0.5) * cell + 4, "text-anchor": "end", class: "asb-tick"}, svg, String(i + 1));
    node("text", {x: x0 + (i + 0.5) * cell, y: y0 + size + 14, "text-anchor": "middle", class: "asb-tick"}, svg,
      String(i + 1));
  }
  node("text", {x: x0 + size / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg, "j");
  node("text", {x: 8, y: y0 + size / 2 + 4, "text-anchor": "middle", class: "asb-label"}, svg, "i");
  PUOR.forEach((c, k) => node("rect", {x: x0 + size + 8, y: y0 + size * (1 - (k + 1) / 10), width: 11,
    height: size / 10, style: `fill: ${c}`}, svg));
  for (const v of [-0.2, -0.1, 0, 0.1, 0.2]) {
    node("text", {x: x0 + size + 22, y: y0 + size * (0.5 - v / 0.5) + 4, class: "asb-tick"}, svg,
      formatFixed(v, 1).replace("-", "−"));
  }
  return jac => {
    jac.forEach((row, i) => row.forEach((v, j) => {
      // the bin of v by its sign first: -1e-17 is a negative bin's, as its "−" says
      const k = Math.min(9, Math.max(0, Math.floor(v / 0.05) + 5));
      cells[i * n + j].setAttribute("style", `fill: ${PUOR[k]}`);
      cells[i * n + j].dataset.value = String(v);
      signs[i * n + j].textContent = v > 0 ? "+" : v < 0 ? "−" : "";
    }));
  };
}

// the Data table's rows: each score, its weight (next to 1 as the readout gives it, "1 − 3.2e-16",
// from the other weights' sum) and its P(1 − P)
function dataRows(state, row) {
  state.weights.forEach((p, i) => row(String(i + 1), formatGeneral(state.z[i], 4),
    readoutNumber(p, 4, true, p > 0.5 ? state.gradient[i] / p : null, false), formatGeneral(state.gradient[i], 4)));
}

// The log slider (view.js logPositions) from 0.05 to 100. attention_scaling.web.scale_position is the
// inverse.
export function scalePositions(nice = []) {
  const at = logPositions(SCALE_RANGE[0], SCALE_RANGE[1], STEPS, nice);
  return {steps: STEPS, toScale: at.to, toStep: at.from};
}

// The slider (label, range input, value, unit) as the book's players mark it up; or the one the
// page already holds (its label typeset by the build).
function slider(root, id) {
  const found = root.querySelector(`#${CSS.escape(id)}`);
  if (found) return {input: found, shown: root.querySelector(`output[for="${id}"]`)};
  const [input, shown] = sliderRow(html("div", {class: "asb-controls"}, root), id, "scale s (inverse temperature 1/T)",
    STEPS, "");
  return {input, shown};
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.scale_payload). Parts the
// root already holds are used (a built page's slider, figure box and readout: a .asb-player);
// missing ones are made. With `slider: false` it has none: in Jupyter (widget.js) the slider is an
// ipywidget linked to it. Returns {set(s), fromInput(), showPanel(i), roundStops, state}.
export function mountScale(root, packed, {scale = 1, inputId = null, slider: withSlider = true} = {}) {
  const payload = unpack(packed);
  addStyles();
  addStyles("asb-scale-css", SCALE_CSS);
  root.classList.add("asb-explorer", "asb-scale-explorer");
  const id = inputId || `${root.id || `asb-scale-${Math.random().toString(36).slice(2, 8)}`}-s`;
  const {input, shown} = withSlider ? slider(root, id) : {input: null, shown: null};
  const at = scalePositions(payload.nice || []);
  if (input) {
    input.min = "0";
    input.max = String(at.steps);
    input.step = "1";
  }
  const {stack, key, setReadout, setData} = scaffold(root, ["i", "score zᵢ", "weight Pᵢ", "Pᵢ(1 − Pᵢ)"], dataRows);
  const n = payload.z.length;
  const pSvg = panel(stack, "weights P = softmax(s z)");
  const drawP = barPanel(pSvg, n, yAxis(pSvg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "weight Pᵢ", 1), "--asb-weight", 1.02);
  const gSvg = panel(stack, "gradient Pᵢ(1 − Pᵢ)");
  const gy = yAxis(gSvg, [0, 0.05, 0.1, 0.15, 0.2, 0.25], 0.27, "Pᵢ(1 − Pᵢ)", 2);
  node("line", {x1: L, x2: W - R, y1: gy(0.25), y2: gy(0.25), class: "asb-peak"}, gSvg);
  const drawG = barPanel(gSvg, n, gy, "--asb-gradient", 0.27);
  const jSvg = panel(stack, "Jacobian ∂Pᵢ/∂zⱼ");
  const drawJ = heatPanel(jSvg, n);
  // the key the matplotlib figure gives in its title lines
  key.textContent =
    `Dashed line and grey band: the mean and the middle 80 % of the largest weight (left) and of the ` +
    `largest Pᵢ(1 − Pᵢ) (middle) over ${payload.draws.length} draws; dotted line: the ceiling ¼.`;
  let state = null;
  function set(s) {
    const clamped = Math.min(SCALE_RANGE[1], Math.max(SCALE_RANGE[0], Number(s)));
    state = {...scaleState(payload, clamped), z: payload.z};
    drawP(state.weights, state.mean.maxWeight);
    drawG(state.gradient, state.mean.largestGradient);
    drawJ(state.jacobian);
    const parts = scaleReadout(state);
    setReadout(parts);
    setData(state);
    stack.setAttribute("aria-label", parts.alt);
    const value = formatGeneral(clamped, 3);
    if (input) {
      input.value = String(at.toStep(clamped));
      input.setAttribute("aria-valuetext", `s = ${value}`);
    }
    if (shown) shown.textContent = value;
    root.dataset.scale = String(clamped);
    return state;
  }
  const fromInput = () => set(at.toScale(Number(input.value)));
  if (input) input.addEventListener("input", fromInput);
  set(scale);
  // Present mode's stops when the lesson has none: the round values, as player.js words them
  const roundStops = (payload.nice || []).map(v => ({caption: `scale s = ${formatGeneral(v, 3)}`, at: [at.toStep(v)]}));
  return {set, fromInput, showPanel: panelFocus(stack), roundStops, format: liveText, get state() { return state; }};
}

// The scale view's two colours, in light and dark, beyond the looks every view shares (view.js).
const SCALE_CSS = `
.asb-scale-explorer { --asb-weight: #6b6b6b; --asb-gradient: #7b3294; }
html[data-theme="dark"] .asb-scale-explorer, body[data-jp-theme-light="false"] .asb-scale-explorer {
  --asb-weight: #a8a8a8; --asb-gradient: #c38bd9; }
`;
// All of the scale view's looks in one sheet (for a page that puts them in itself).
export const SCALE_VIEW_CSS = VIEW_CSS + SCALE_CSS;
