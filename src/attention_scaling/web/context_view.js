// The context explorer drawn in the page (issue 30): a needle scored gap above n - 1 random
// distractors, under four methods. Radio buttons for the method, a slider for n (every integer
// from 2 to 65 536 that its 1 001 log positions reach, the powers of two among them) and one for
// the gap (steps of 0.05 from 0 to 20); three SVG panels (the weights of one draw, the needle on
// the parabola P(1 - P), the needle's weight against n); the readout with its live sentence and a
// "data" table. Everything is recomputed by context.js from the seed; nothing is an image.
import {contextModel, contextReadout, METHODS} from "./context.js";
import {formatFixed, formatGeneral, liveText, readoutNumber} from "./format.js";
import {markerPath, xAxis} from "./axes.js";
import {B, H, L, R, W, addStyles, choiceRow, html, node, panel, panelFocus, indexAtOrBelow, scaffold, sliderRow, yAxis} from "./view.js";

// Each method's colour, marker and line, as the Python figure draws them (context._STYLE):
// told apart in greyscale too.
const STYLE = {
  "plain": {colour: "#d62728", marker: "circle", dash: "", words: "red, solid"},
  "log-n": {colour: "#1f77b4", marker: "square", dash: "6 4", words: "blue, dashed"},
  "soft-cap": {colour: "#2ca02c", marker: "triangle", dash: "8 3 2 3", words: "green, dash-dot"},
  "zero-logit": {colour: "#9467bd", marker: "diamond", dash: "2 3", words: "purple, dotted"},
};
export const GAP_STEPS = 400, GAP_MAX = 20;  // the gap slider: position k is the gap k / 20

// 1: the needle, the strongest distractors, the rest summed and the sink (context.ContextFigure._bars)
function barsPanel(svg, topKeys) {
  const y = yAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "weight", 1);
  const slots = [0, ...Array.from({length: topKeys}, (_, i) => 1.2 + i), topKeys + 1.8, topKeys + 3.4];
  const x = v => L + (v + 0.7) / (slots[slots.length - 1] + 1.4) * (W - L - R);
  const mid = (slots[1] + slots[topKeys]) / 2;
  // the sink's label a line lower: "rest" and "sink" side by side would touch (the title says
  // what the bars are, so the axis needs no caption)
  for (const [v, label, line] of [[0, "needle", 0], [mid, `top ${topKeys}`, 0], [slots[topKeys + 1], "rest", 0],
    [slots[topKeys + 2], "sink", 1]]) {
    node("text", {x: x(v), y: H - B + 15 + 15 * line, "text-anchor": "middle", class: "asb-tick"}, svg, label);
  }
  node("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, class: "asb-axis"}, svg);
  const kinds = ["asb-needle", ...Array(topKeys).fill("asb-top"), "asb-rest", "asb-sink"];
  const bars = slots.map((v, i) => node("rect", {x: x(v - 0.4), width: x(0.4) - x(-0.4), class: `asb-bar ${kinds[i]}`}, svg));
  return (heights, colour) => {
    heights.forEach((h, i) => {
      const top = y(Math.min(h, 1.02));
      bars[i].setAttribute("y", top);
      bars[i].setAttribute("height", Math.max(0, y(0) - top));
      bars[i].dataset.value = String(h);
    });
    bars[0].style.fill = colour;
  };
}

// 2: the parabola P(1 - P) and the needle on it, ringed
function parabolaPanel(svg) {
  const y = yAxis(svg, [0, 0.1, 0.2, 0.3], 0.3, "P(1 − P)", 1);
  const x = p => L + p * (W - L - R);
  xAxis(svg, [0, 0.25, 0.5, 0.75, 1].map(v => [v, v === 0.25 || v === 0.75 ? "" : formatFixed(v, 1)]), x,
    "the needle's weight P");
  const points = Array.from({length: 101}, (_, i) => i / 100).map(p => `${x(p)},${y(p * (1 - p))}`);
  node("polyline", {points: points.join(" "), class: "asb-curve"}, svg);
  node("line", {x1: L, x2: W - R, y1: y(0.25), y2: y(0.25), class: "asb-peak"}, svg);
  node("text", {x: L + 3, y: y(0.25) - 4, class: "asb-note-text"}, svg, "peak ¼ at P = ½");
  const dot = node("path", {class: "asb-dot"}, svg);
  const ring = node("circle", {r: 9, class: "asb-ring"}, svg);
  return (weight, spread, style) => {
    const cx = x(weight), cy = y(Math.min(spread, 0.3));
    dot.setAttribute("d", markerPath(style.marker, 4.5));
    dot.setAttribute("transform", `translate(${cx},${cy})`);
    dot.style.fill = style.colour;
    dot.dataset.value = String(spread);
    ring.setAttribute("cx", cx);
    ring.setAttribute("cy", cy);
  };
}

// 3: the needle's weight against n on the grid, for the method and for plain, the current n ringed
function curvePanel(svg, nValues) {
  const y = yAxis(svg, [0, 0.2, 0.4, 0.6, 0.8, 1], 1.02, "the needle's weight", 1);
  const lo = Math.log2(1.6), hi = Math.log2(8e4);
  const x = n => L + (Math.log2(n) - lo) / (hi - lo) * (W - L - R);
  // (8k unlabelled: beside 64k at the panel's edge its label would touch)
  xAxis(svg, [[2, "2"], [16, "16"], [128, "128"], [1024, "1k"], [8192, ""], [65536, "64k"]], x, "keys n (log scale)");
  const lines = {}, marks = {};
  for (const m of METHODS) {
    const g = node("g", {class: "asb-method"}, svg);
    lines[m] = node("polyline", {class: "asb-line", style: `stroke: ${STYLE[m].colour}; stroke-dasharray: ${STYLE[m].dash || "none"}`}, g);
    marks[m] = nValues.map(() => node("path", {d: markerPath(STYLE[m].marker, 2.6), style: `fill: ${STYLE[m].colour}`}, g));
  }
  const ring = node("circle", {r: 9, class: "asb-ring"}, svg);
  return (curves, method, n, weight) => {
    for (const m of METHODS) {
      const shown = m === method || m === "plain";
      lines[m].parentNode.style.display = shown ? "" : "none";
      if (!shown) continue;
      const w = curves[m].weight;
      lines[m].setAttribute("points", nValues.map((k, i) => `${x(k)},${y(w[i])}`).join(" "));
      marks[m].forEach((p, i) => {
        p.setAttribute("transform", `translate(${x(nValues[i])},${y(w[i])})`);
        p.dataset.value = String(w[i]);
      });
      if (m === method) svg.appendChild(lines[m].parentNode);  // drawn over plain
    }
    svg.appendChild(ring);
    ring.setAttribute("cx", x(n));
    ring.setAttribute("cy", y(weight));
    ring.dataset.value = String(weight);
  };
}

// the Data table's rows: the needle, the strongest distractors, the rest together and the sink
function dataRows(state, row) {
  const number = x => readoutNumber(x, 4, false, null, false);
  row("needle", formatGeneral(state.gap, 4), formatGeneral(state.needleLogit, 4),
    readoutNumber(state.needle, 4, true, state.others, false));
  state.topScores.forEach((z, i) => row(`distractor ${i + 1}`, formatGeneral(z, 4),
    formatGeneral(state.topLogits[i], 4), number(state.topWeights[i])));
  const others = state.n - 1 - state.topScores.length;
  if (others > 0) row(`the other ${others} together`, "", "", number(state.rest));
  if (state.method === "zero-logit") row("sink", "", "0", number(state.sink));
}

// The n slider's positions (payload.nPositions: every integer that 1 001 log steps from 2 to
// 65 536 reach, with the powers of two), and the gap slider's (k / 20).
export function contextPositions(payload) {
  const ns = payload.nPositions;
  return {
    nSteps: ns.length - 1,
    toN: k => ns[Math.min(ns.length - 1, Math.max(0, k))],
    fromN: n => indexAtOrBelow(ns, n),
    toGap: k => Math.min(GAP_STEPS, Math.max(0, k)) / (GAP_STEPS / GAP_MAX),
    fromGap: g => Math.min(GAP_STEPS, Math.max(0, Math.round(g * (GAP_STEPS / GAP_MAX)))),
  };
}

// The controls the page holds (by id: the method's radio group, the n and gap sliders), or made here.
function controls(root, ids, payload, at) {
  const found = ids && ids.length === 3 && root.querySelector(`#${CSS.escape(ids[1])}`);
  if (found) {
    return {
      radios: [...root.querySelectorAll(`input[type="radio"][name="${CSS.escape(ids[0])}"]`)],
      n: root.querySelector(`#${CSS.escape(ids[1])}`), gap: root.querySelector(`#${CSS.escape(ids[2])}`),
      nShown: root.querySelector(`output[for="${ids[1]}"]`), gapShown: root.querySelector(`output[for="${ids[2]}"]`),
    };
  }
  const base = root.id || `asb-context-${Math.random().toString(36).slice(2, 8)}`;
  const box = html("div", {class: "asb-controls"}, root);
  const radios = choiceRow(box, `${base}-method`, "method", METHODS.map(m => payload.names[m]));
  const [n, nShown] = sliderRow(box, `${base}-n`, "context length n", at.nSteps);
  const [gap, gapShown] = sliderRow(box, `${base}-gap`, "needle's score Δ, distractors ~ N(0, 1)", GAP_STEPS);
  return {radios, n, gap, nShown, gapShown};
}

// Mount the explorer in `root` for `payload` (attention_scaling.web.context_payload). Parts the
// root already holds are used (a built page's controls, figure box and readout: a .asb-player,
// its controls found by `ids`: method, n, gap); missing ones are made. With `slider: false` it
// has no controls (in Jupyter they are ipywidgets). Returns {set(values), fromInput(),
// showPanel(i), roundStops, state}.
export function mountContext(root, payload, {n = 1024, gap = 6, method = "plain", ids = null, slider: withSlider = true} = {}) {
  addStyles();
  addStyles("asb-context-css", CONTEXT_CSS);
  root.classList.add("asb-explorer", "asb-context-explorer");
  const model = contextModel(payload);
  const at = contextPositions(payload);
  const input = withSlider ? controls(root, ids, payload, at) : null;
  if (input) {
    input.n.max = String(at.nSteps);
    input.gap.max = String(GAP_STEPS);
  }
  const {stack, key, setReadout, setData} = scaffold(root, ["key", "score", "logit", "weight"], dataRows);
  const drawBars = barsPanel(panel(stack, "weights of one draw"), payload.topKeys);
  const drawParabola = parabolaPanel(panel(stack, "the needle's P(1 − P)"));
  const drawCurves = curvePanel(panel(stack, "the needle's weight"), payload.nValues);
  let state = null, current = {n, gap, method};
  function set(values) {
    current = {...current, ...values};
    if (typeof current.method === "number") current.method = METHODS[current.method];  // a choice's index (Jupyter)
    state = model.state({n: Math.min(model.nMax, Math.max(2, Math.round(Number(current.n)))),
      gap: Math.min(GAP_MAX, Math.max(0, Number(current.gap))), method: current.method});
    const style = STYLE[state.method];
    // fewer distractors than bars (n <= 5): the empty bars are 0
    const top = Array.from({length: payload.topKeys}, (_, i) => state.topWeights[i] ?? 0);
    const heights = [state.needle, ...top, state.rest, state.sink];
    drawBars(heights, style.colour);
    drawParabola(state.needle, state.spread, style);
    drawCurves(state.curves, state.method, state.n, state.needle);
    key.textContent = `Right: the needle's weight against n, ${payload.names[state.method]} (${style.words})` +
      (state.method === "plain" ? "" : ` and ${payload.names.plain} (${STYLE.plain.words})`) + "; the ring marks this n. " +
      `Left: "rest" sums the distractors beyond the ${payload.topKeys} strongest.`;
    const parts = contextReadout(state, payload);
    setReadout(parts);
    setData(state);
    stack.setAttribute("aria-label", parts.alt);
    if (input) {
      input.radios.forEach((r, i) => { r.checked = METHODS[i] === state.method; });
      input.n.value = String(at.fromN(state.n));
      input.gap.value = String(at.fromGap(state.gap));
      input.n.setAttribute("aria-valuetext", `n = ${state.n} keys`);
      input.gap.setAttribute("aria-valuetext", `Δ = ${formatGeneral(state.gap, 6)}`);
      if (input.nShown) input.nShown.textContent = String(state.n);
      if (input.gapShown) input.gapShown.textContent = formatGeneral(state.gap, 6);
    }
    root.dataset.n = String(state.n);
    return state;
  }
  const fromInput = () => {
    const chosen = input.radios.findIndex(r => r.checked);
    return set({method: METHODS[Math.max(0, chosen)], n: at.toN(Number(input.n.value)), gap: at.toGap(Number(input.gap.value))});
  };
  if (input) {
    for (const r of input.radios) r.addEventListener("change", fromInput);
    input.n.addEventListener("input", fromInput);
    input.gap.addEventListener("input", fromInput);
  }
  set({n, gap, method});
  return {set, fromInput, showPanel: panelFocus(stack), roundStops: [], format: liveText, get state() { return state; }};
}

// The context view's looks beyond the shared ones (view.js).
const CONTEXT_CSS = `
.asb-context-explorer .asb-top { fill: currentColor; fill-opacity: 0.55; }
.asb-context-explorer .asb-rest { fill: currentColor; fill-opacity: 0.2; stroke: currentColor; stroke-width: 0.8; }
.asb-context-explorer .asb-sink { fill: none; stroke: currentColor; stroke-width: 1.2; }
.asb-context-explorer .asb-curve { fill: none; stroke: currentColor; stroke-width: 1.5; stroke-opacity: 0.7; }
.asb-context-explorer .asb-line { fill: none; stroke-width: 1.6; }
.asb-context-explorer .asb-ring { fill: none; stroke: currentColor; stroke-width: 2; }
.asb-context-explorer .asb-dot { stroke: none; }
.asb-context-explorer .asb-note-text { font-size: 11px; }
/* Presenting, three controls and a readout leave the figure little height: the method's options
   name it without a legend, the two sliders share a row, and the figure's text is larger. */
.asb-presenting.asb-context-explorer .asb-choice legend { display: none; }
.asb-context-explorer .asb-svg { overflow: visible; }  /* a ring at a panel's edge is not cut */
@media (min-width: 701px) {  /* a phone keeps a control a row */
  .asb-presenting.asb-context-explorer .asb-choice { flex: 1 1 100%; }
  .asb-presenting.asb-context-explorer .asb-control:not(.asb-choice) { flex: 1 1 0; min-width: 0; flex-wrap: nowrap; }
  .asb-presenting.asb-context-explorer .asb-control > label { font-size: 20px; white-space: nowrap; }
  .asb-presenting.asb-context-explorer .asb-slider { flex: 1 1 auto; min-width: 0; }
  .asb-presenting.asb-context-explorer .asb-slider input[type="range"] { min-width: 5em; }
}
.asb-presenting.asb-context-explorer .asb-tick, .asb-presenting.asb-context-explorer .asb-label,
.asb-presenting.asb-context-explorer .asb-note-text { font-size: 14px; }
.asb-presenting.asb-context-explorer .asb-ptitle { font-size: 15px; }
`;

// The model's first work in steps of a few milliseconds, before the view mounts: player.js runs
// them between the page's tasks (the view and the steps share one model a payload).
mountContext.prepare = payload => contextModel(payload).warm();
