// The scale explorer drawn in the page (issue 30): a log slider for s, three SVG panels (the
// weights, P(1 - P), the Jacobian), the readout as a table with a live sentence, and a "data"
// table of the current numbers. Everything is recomputed by scale.js at any s; nothing is an
// image. Colours come from the page (CSS custom properties, `currentColor` for text), so dark
// mode needs no second drawing; nothing animates.
import {formatFixed, formatGeneral, readoutNumber} from "./format.js";
import {unpack} from "./payload.js";
import {SCALE_RANGE, scaleReadout, scaleState} from "./scale.js";

const SVG = "http://www.w3.org/2000/svg";
// Positions of the log slider: 1000 steps from 0.05 to 100, 0.76 % apart (a value in between
// is set from code, as a lesson stop is).
const STEPS = 1000;
// matplotlib's PuOr in ten steps of 0.05 over [-0.25, 0.25], as the Python figure draws it
// (matplotlib.colormaps["PuOr"].resampled(10), to_hex)
const PUOR = ["#7f3b08", "#b85d08", "#e68e26", "#fdc57f", "#fbead3", "#e6e7f0", "#bfbbda", "#8b7fb4",
  "#592f8c", "#2d004b"];

function node(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// One panel: a 220 x 200 user-unit plot area with a title, a y axis and the index on x (three
// fit the book's column beside its sidebar, about 630 px, with text of 11 px or more; a phone
// stacks them).
const W = 220, H = 200, L = 50, R = 6, T = 24, B = 38;

// (The figure box is one image to a screen reader, described by the readout's alt text.)
function panel(parent, title) {
  const fig = html("figure", {class: "asb-panel"}, parent);
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", class: "asb-svg"}, fig);
  node("text", {x: W / 2, y: 16, "text-anchor": "middle", class: "asb-ptitle"}, svg, title);
  return svg;
}

// ticks as matplotlib labels them: one number of decimals for the whole axis (0.00 ... 0.25)
function yAxis(svg, ticks, top, caption, digits) {
  const y = v => T + (H - T - B) * (1 - v / top);
  node("line", {x1: L, x2: L, y1: T, y2: H - B, class: "asb-axis"}, svg);
  for (const t of ticks) {
    node("line", {x1: L - 4, x2: W - R, y1: y(t), y2: y(t), class: t === 0 ? "asb-axis" : "asb-grid"}, svg);
    node("text", {x: L - 6, y: y(t) + 4, "text-anchor": "end", class: "asb-tick"}, svg, formatFixed(t, digits));
  }
  node("text", {x: 13, y: (T + H - B) / 2, transform: `rotate(-90 13 ${(T + H - B) / 2})`,
    "text-anchor": "middle", class: "asb-label"}, svg, caption);
  return y;
}

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

// The readout as attention_scaling.readout.readout_html writes it (a lead, a table per group, the
// footnote, the visually hidden live sentence), so that the book's styles apply to both.
function readoutTable(box) {
  box.replaceChildren();
  const lead = html("p", {class: "asb-lead"}, box);
  const tables = html("div", {class: "asb-tables"}, box);
  const foot = html("p", {class: "asb-foot"}, box);
  const said = html("p", {class: "asb-said", "aria-live": "polite"}, box);
  return parts => {
    lead.textContent = parts.lead;
    tables.replaceChildren();
    for (const group of parts.groups) {
      const table = html("table", {class: "asb-rt"}, tables);
      if (group.caption) html("caption", {}, table, group.caption);
      const head = html("tr", {}, html("thead", {}, table));
      for (const c of parts.columns) html("th", {scope: "col"}, head, c);
      const body = html("tbody", {}, table);
      for (const row of group.rows) {
        const tr = html("tr", {}, body);
        html("th", {scope: "row"}, tr, row.label);
        for (const c of row.cells) html("td", {}, tr, c);
      }
    }
    foot.textContent = parts.note;
    said.textContent = parts.text;
  };
}

function dataTable(details) {
  html("summary", {}, details, "Data: the numbers drawn");
  const table = html("table", {}, details);
  return state => {
    table.replaceChildren();
    const head = html("tr", {}, html("thead", {}, table));
    for (const c of ["i", "score zᵢ", "weight Pᵢ", "Pᵢ(1 − Pᵢ)"]) html("th", {scope: "col"}, head, c);
    const body = html("tbody", {}, table);
    state.weights.forEach((p, i) => {
      const tr = html("tr", {}, body);
      html("th", {scope: "row"}, tr, String(i + 1));
      // a weight next to 1 as the readout gives it, "1 − 3.2e-16", from the other weights' sum
      const weight = readoutNumber(p, 4, true, p > 0.5 ? state.gradient[i] / p : null, false);
      html("td", {}, tr, formatGeneral(state.z[i], 4));
      html("td", {}, tr, weight);
      html("td", {}, tr, formatGeneral(state.gradient[i], 4));
    });
  };
}

// The log slider: position k of STEPS gives s = lo (hi / lo)^(k / STEPS), both ends exactly,
// except that the position nearest each of `nice` (round values: a lesson's stops, the old
// grid) gives that value exactly. attention_scaling.web.scale_position is the inverse.
export function scalePositions(nice = []) {
  const [lo, hi] = SCALE_RANGE;
  const exact = v => STEPS * Math.log(v / lo) / Math.log(hi / lo);
  const snapped = new Map(nice.map(v => [Math.round(exact(v)), v]));
  return {
    steps: STEPS,
    toScale: k => (snapped.has(k) ? snapped.get(k) : k <= 0 ? lo : k >= STEPS ? hi : lo * (hi / lo) ** (k / STEPS)),
    toStep: v => Math.min(STEPS, Math.max(0, Math.round(exact(v)))),
  };
}

// The slider (label, range input, value, unit) as the book's players mark it up; or the one the
// page already holds (its label typeset by the build).
function slider(root, id) {
  const found = root.querySelector(`#${CSS.escape(id)}`);
  if (found) return {input: found, shown: root.querySelector(`output[for="${id}"]`)};
  const controls = html("div", {class: "asb-controls"}, root);
  const control = html("div", {class: "asb-control"}, controls);
  html("label", {for: id}, control, "scale s (inverse temperature 1/T)");
  const box = html("span", {class: "asb-slider"}, control);
  const input = html("input", {type: "range", id, min: 0, max: STEPS, step: 1}, box);
  const shown = html("output", {for: id}, box);
  html("span", {class: "asb-unit"}, box);
  return {input, shown};
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.scale_payload). Parts the
// root already holds are used (a built page's slider, figure box and readout: a .asb-player);
// missing ones are made. With `slider: false` it has none: in Jupyter (widget.js) the slider is an
// ipywidget linked to it. Returns {set(s), fromInput(), showPanel(i), roundStops, state}.
export function mountScale(root, packed, {scale = 1, inputId = null, slider: withSlider = true} = {}) {
  const payload = unpack(packed);
  addStyles();
  root.classList.add("asb-explorer", "asb-scale-explorer");
  const id = inputId || `${root.id || `asb-scale-${Math.random().toString(36).slice(2, 8)}`}-s`;
  const {input, shown} = withSlider ? slider(root, id) : {input: null, shown: null};
  const at = scalePositions(payload.nice || []);
  if (input) {
    input.min = "0";
    input.max = String(at.steps);
    input.step = "1";
  }
  let stack = root.querySelector(".asb-stack");
  if (!stack) stack = html("div", {class: "asb-stack"}, html("div", {class: "asb-scroll"}, root));
  stack.replaceChildren();  // the build's picture for a page without scripts
  stack.classList.add("asb-panels");
  stack.setAttribute("role", "img");
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
  const key = html("p", {class: "asb-key"}, null,
    `Dashed line and grey band: the mean and the middle 80 % of the largest weight (left) and of the ` +
    `largest Pᵢ(1 − Pᵢ) (middle) over ${payload.draws.length} draws; dotted line: the ceiling ¼.`);
  (stack.parentElement.classList.contains("asb-scroll") ? stack.parentElement : stack).after(key);
  let box = root.querySelector(".asb-readout");
  if (!box) box = html("div", {class: "asb-readout"}, root);
  const setReadout = readoutTable(box);
  const details = html("details", {class: "asb-numbers"});
  box.after(details);
  const setData = dataTable(details);
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
  const panels = [...stack.querySelectorAll(".asb-panel")];
  const showPanel = k => panels.forEach((p, i) => p.classList.toggle("asb-focus", i === k));
  // Present mode's stops when the lesson has none: the round values, as player.js words them
  const roundStops = (payload.nice || []).map(v => ({caption: `scale s = ${formatGeneral(v, 3)}`, at: [at.toStep(v)]}));
  return {set, fromInput, showPanel, roundStops, get state() { return state; }};
}

// The view's looks, put in the page once by mountScale. Text takes the page's colour, so dark
// mode needs no second drawing; in Present mode (the book's player.js) the panels share the
// height the screen leaves them and their text grows, and a narrow screen shows only the
// panel the stop talks about.
export const SCALE_VIEW_CSS = `
.asb-scale-explorer { --asb-weight: #6b6b6b; --asb-gradient: #7b3294; }
html[data-theme="dark"] .asb-scale-explorer, body[data-jp-theme-light="false"] .asb-scale-explorer {
  --asb-weight: #a8a8a8; --asb-gradient: #c38bd9; }
.asb-scale-explorer .asb-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
  gap: 0.5rem; max-width: 1200px; }
.asb-scale-explorer .asb-panel { margin: 0; min-width: 0; }
.asb-scale-explorer .asb-svg { width: 100%; height: auto; display: block; font-family: inherit; }
.asb-scale-explorer .asb-svg text { fill: currentColor; }
.asb-scale-explorer .asb-ptitle { font-size: 13px; }
.asb-scale-explorer .asb-tick, .asb-scale-explorer .asb-label { font-size: 12px; }
.asb-scale-explorer .asb-axis { stroke: currentColor; }
.asb-scale-explorer .asb-grid { stroke: currentColor; opacity: 0.15; }
.asb-scale-explorer .asb-band { fill: currentColor; opacity: 0.12; }
.asb-scale-explorer .asb-mean { stroke: currentColor; stroke-dasharray: 6 4; stroke-width: 1.5; }
.asb-scale-explorer .asb-peak { stroke: currentColor; stroke-dasharray: 1 3; opacity: 0.6; }
.asb-scale-explorer .asb-svg text.asb-sign { font-size: 13px; font-weight: 700; fill: #111; stroke: #fff;
  stroke-width: 3px; paint-order: stroke; }  /* a white halo: legible on the darkest cells, in greyscale too */
.asb-scale-explorer .asb-said { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }  /* for screen readers; the table shows the same */
.asb-scale-explorer .asb-numbers { margin: 0.3em 0; font-size: 0.9em; }
.asb-scale-explorer .asb-key { font-size: 0.85em; margin: 0.2em 0 0.4em; color: var(--pst-color-text-muted, inherit); }
.asb-scale-explorer .asb-numbers summary { cursor: pointer; }
.asb-scale-explorer .asb-numbers td, .asb-scale-explorer .asb-numbers th { padding: 0.05em 0.6em; text-align: right;
  font-variant-numeric: tabular-nums; }
.asb-scale-explorer:not(.asb-player) input[type=range] { width: min(100%, 36rem); }
.asb-presenting.asb-scale-explorer .asb-stack { width: 100%; max-width: none; background: none; }
.asb-presenting.asb-scale-explorer .asb-panels { grid-template-columns: repeat(3, minmax(0, 1fr)); max-width: none; }
.asb-presenting.asb-scale-explorer .asb-svg { max-height: var(--asb-room, 60vh); }
.asb-presenting.asb-scale-explorer .asb-numbers { display: none; }
.asb-presenting.asb-scale-explorer .asb-key { order: 1; margin: 0; font-size: 18px; flex: none; }
@media (max-width: 700px) {
  .asb-presenting.asb-scale-explorer .asb-panels { grid-template-columns: minmax(0, 1fr); }
  .asb-presenting.asb-scale-explorer .asb-panel:not(.asb-focus) { display: none; }
  .asb-presenting.asb-scale-explorer .asb-key { font-size: 14px; }
}
@media print { .asb-scale-explorer .asb-numbers { display: none; } }
`;

function addStyles() {
  if (document.getElementById("asb-scale-view-css")) return;
  const style = document.createElement("style");
  style.id = "asb-scale-view-css";
  style.textContent = SCALE_VIEW_CSS;
  document.head.appendChild(style);
}
