// The scale explorer drawn in the page (issue 30): a log slider for s, three SVG panels (the
// weights, P(1 - P), the Jacobian), the readout as a table with a live sentence, and a "data"
// table of the current numbers. Everything is recomputed by scale.js at any s; nothing is an
// image. Colours come from the page (CSS custom properties, `currentColor` for text), so dark
// mode needs no second drawing; nothing animates.
import {formatFixed, formatGeneral} from "./format.js";
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

// One panel: a 300 x 230 user-unit plot area with a title, a y axis and the index on x.
const W = 300, H = 230, L = 44, R = 8, T = 26, B = 40;

function panel(parent, title, label) {
  const fig = html("figure", {class: "asb-panel"}, parent);
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "asb-svg"}, fig);
  node("text", {x: W / 2, y: 16, "text-anchor": "middle", class: "asb-title"}, svg, title);
  return svg;
}

function yAxis(svg, ticks, top, caption) {
  const y = v => T + (H - T - B) * (1 - v / top);
  node("line", {x1: L, x2: L, y1: T, y2: H - B, class: "asb-axis"}, svg);
  for (const t of ticks) {
    node("line", {x1: L - 4, x2: W - R, y1: y(t), y2: y(t), class: t === 0 ? "asb-axis" : "asb-grid"}, svg);
    node("text", {x: L - 6, y: y(t) + 4, "text-anchor": "end", class: "asb-tick"}, svg, formatGeneral(t, 2));
  }
  node("text", {x: 11, y: (T + H - B) / 2, transform: `rotate(-90 11 ${(T + H - B) / 2})`,
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
  const size = Math.min(W - L - R - 34, H - T - B), cell = size / n, x0 = L, y0 = T + 2;
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
  node("text", {x: x0 + size / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg, "j (column); i (row)");
  PUOR.forEach((c, k) => node("rect", {x: x0 + size + 12, y: y0 + size * (1 - (k + 1) / 10), width: 12,
    height: size / 10, style: `fill: ${c}`}, svg));
  for (const v of [-0.2, 0, 0.2]) {
    node("text", {x: x0 + size + 27, y: y0 + size * (0.5 - v / 0.5) + 4, class: "asb-tick"}, svg,
      v === 0 ? "0" : formatGeneral(v, 1).replace("-", "−"));
  }
  return jac => {
    jac.forEach((row, i) => row.forEach((v, j) => {
      const k = Math.min(9, Math.max(0, Math.floor((v + 0.25) / 0.05)));
      cells[i * n + j].setAttribute("style", `fill: ${PUOR[k]}`);
      cells[i * n + j].dataset.value = String(v);
      signs[i * n + j].textContent = v > 0 ? "+" : v < 0 ? "−" : "";
    }));
  };
}

function readoutTable(parent) {
  const box = html("div", {class: "asb-readout"}, parent);
  const lead = html("p", {class: "asb-lead"}, box);
  const table = html("table", {class: "asb-rt"}, box);
  const foot = html("p", {class: "asb-foot"}, box);
  const said = html("p", {class: "asb-said", "aria-live": "polite"}, box);
  return parts => {
    lead.textContent = parts.lead;
    table.replaceChildren();
    const head = html("tr", {}, html("thead", {}, table));
    for (const c of parts.columns) html("th", {scope: "col"}, head, c);
    const body = html("tbody", {}, table);
    for (const row of parts.groups[0].rows) {
      const tr = html("tr", {}, body);
      html("th", {scope: "row"}, tr, row.label);
      for (const c of row.cells) html("td", {}, tr, c);
    }
    foot.textContent = parts.text.slice(parts.text.indexOf("Each mean"));
    said.textContent = parts.text;
  };
}

function dataTable(parent) {
  const details = html("details", {class: "asb-data"}, parent);
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
      for (const v of [state.z[i], p, state.gradient[i]]) html("td", {}, tr, formatGeneral(v, 4));
    });
  };
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.scale_payload); returns
// {set(s), state}.
export function mountScale(root, payload, {scale = 1} = {}) {
  root.classList.add("asb-explorer", "asb-scale-explorer");
  const id = root.id || `asb-scale-${Math.random().toString(36).slice(2, 8)}`;
  const controls = html("div", {class: "asb-controls"}, root);
  const label = html("label", {for: `${id}-s`}, controls, "scale s (inverse temperature 1/T) ");
  // a log slider: position k of STEPS gives s = lo (hi / lo)^(k / STEPS), both ends exactly
  const [lo, hi] = SCALE_RANGE;
  const toScale = k => (k <= 0 ? lo : k >= STEPS ? hi : lo * (hi / lo) ** (k / STEPS));
  const toStep = v => Math.round(STEPS * Math.log(v / lo) / Math.log(hi / lo));
  const input = html("input", {type: "range", id: `${id}-s`, min: 0, max: STEPS, step: 1}, controls);
  const shown = html("output", {for: `${id}-s`}, controls);
  label.appendChild(shown);
  const panels = html("div", {class: "asb-panels"}, root);
  const n = payload.z.length;
  const pSvg = panel(panels, "weights P = softmax(s z)", "the weights of one draw, with the mean and band of the largest");
  const drawP = barPanel(pSvg, n, yAxis(pSvg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "weight Pᵢ"), "--asb-weight", 1.02);
  const gSvg = panel(panels, "gradient Pᵢ(1 − Pᵢ)", "P(1 − P) of each weight, with the mean and band of the largest");
  const gy = yAxis(gSvg, [0, 0.05, 0.1, 0.15, 0.2, 0.25], 0.27, "Pᵢ(1 − Pᵢ)");
  node("line", {x1: L, x2: W - R, y1: gy(0.25), y2: gy(0.25), class: "asb-peak"}, gSvg);
  const drawG = barPanel(gSvg, n, gy, "--asb-gradient", 0.27);
  const jSvg = panel(panels, "Jacobian ∂Pᵢ/∂zⱼ", "the Jacobian as a heat map, + above 0, − below");
  const drawJ = heatPanel(jSvg, n);
  const setReadout = readoutTable(root);
  const setData = dataTable(root);
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
    input.value = String(toStep(clamped));
    shown.textContent = `= ${formatGeneral(clamped, 3)}`;
    input.setAttribute("aria-valuetext", `s = ${formatGeneral(clamped, 3)}`);
    root.dataset.scale = String(clamped);
    return state;
  }
  input.addEventListener("input", () => set(toScale(Number(input.value))));
  set(scale);
  return {set, get state() { return state; }};
}

export const SCALE_VIEW_CSS = `
.asb-scale-explorer { --asb-weight: #6b6b6b; --asb-gradient: #7b3294; }
.asb-scale-explorer .asb-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 0.5rem; }
.asb-scale-explorer .asb-panel { margin: 0; }
.asb-scale-explorer .asb-svg { width: 100%; height: auto; display: block; font: inherit; }
.asb-scale-explorer text { fill: currentColor; }
.asb-scale-explorer .asb-title { font-size: 13px; }
.asb-scale-explorer .asb-tick, .asb-scale-explorer .asb-label { font-size: 12px; }
.asb-scale-explorer .asb-axis { stroke: currentColor; }
.asb-scale-explorer .asb-grid { stroke: currentColor; opacity: 0.15; }
.asb-scale-explorer .asb-band { fill: currentColor; opacity: 0.12; }
.asb-scale-explorer .asb-mean { stroke: currentColor; stroke-dasharray: 6 4; stroke-width: 1.5; }
.asb-scale-explorer .asb-peak { stroke: currentColor; stroke-dasharray: 1 3; opacity: 0.6; }
.asb-scale-explorer .asb-sign { font-size: 13px; font-weight: 700; fill: #111; stroke: #fff; stroke-width: 3px;
  paint-order: stroke; }  /* a white halo: legible on the darkest cells too, and in greyscale */
.asb-scale-explorer .asb-rt td { white-space: nowrap; font-variant-numeric: tabular-nums; }
.asb-scale-explorer .asb-said { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }  /* for screen readers; the table shows the same */
.asb-scale-explorer input[type=range] { width: min(100%, 36rem); }
`;
