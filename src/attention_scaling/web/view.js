// What the explorers' views share (scale_view.js, context_view.js): SVG and HTML elements, a
// panel of 220 x 200 user units with its y axis, the readout table with its live sentence, and the
// looks every view gets. Text takes the page's colour (`currentColor`), so dark mode needs no second
// drawing; nothing animates.
import {formatFixed} from "./format.js";

const SVG = "http://www.w3.org/2000/svg";

export function node(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

export function html(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// One panel: a 220 x 200 user-unit plot area with a title, a y axis and the index on x (three
// fit the book's column beside its sidebar, about 630 px, with text of 11 px or more; a phone
// stacks them).
export const W = 220;
export const H = 200;
export const L = 50;
export const R = 6;
export const T = 24;
export const B = 38;

// (The figure box is one image to a screen reader, described by the readout's alt text.)
export function panel(parent, title) {
  const fig = html("figure", {class: "asb-panel"}, parent);
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", class: "asb-svg"}, fig);
  node("text", {x: W / 2, y: 16, "text-anchor": "middle", class: "asb-ptitle"}, svg, title);
  return svg;
}

// ticks as matplotlib labels them: one number of decimals for the whole axis (0.00 ... 0.25)
export function yAxis(svg, ticks, top, caption, digits) {
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

// Set `e`'s text only when it differs: an unchanged cell is not laid out again.
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

// The readout as attention_scaling.readout.readout_html writes it (a lead, a table per group, the
// footnote, the visually hidden live sentence), so that the book's styles apply to both. The tables
// are built again only when their shape changes (columns, captions, row labels); otherwise each
// cell's text is set where it changed, so a slider's step re-lays out only the numbers.
export function readoutTable(box) {
  box.replaceChildren();
  const lead = html("p", {class: "asb-lead"}, box);
  const tables = html("div", {class: "asb-tables"}, box);
  const foot = html("p", {class: "asb-foot"}, box);
  const said = html("p", {class: "asb-said", "aria-live": "polite"}, box);
  let shape = null, cells = [];
  return parts => {
    setText(lead, parts.lead);
    const now = JSON.stringify([parts.columns, parts.groups.map(g => [g.caption, g.rows.map(r => r.label)])]);
    if (now !== shape) {
      shape = now;
      cells = [];
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
          cells.push(row.cells.map(() => html("td", {}, tr)));
        }
      }
    }
    parts.groups.flatMap(g => g.rows).forEach((row, i) => row.cells.forEach((c, j) => setText(cells[i][j], c)));
    setText(foot, parts.note);
    setText(said, parts.text);
  };
}

// The looks of every view, put in the page once (addStyles). In Present mode (the book's
// player.js) the panels share the height the screen leaves them and their text grows, and a
// narrow screen shows only the panel the stop talks about.
export const VIEW_CSS = `
.asb-explorer .asb-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
  gap: 0.5rem; max-width: 1200px; }
.asb-explorer .asb-panel { margin: 0; min-width: 0; }
.asb-explorer .asb-svg { width: 100%; height: auto; display: block; font-family: inherit; }
.asb-explorer .asb-svg text { fill: currentColor; }
.asb-explorer .asb-ptitle { font-size: 13px; }
.asb-explorer .asb-tick, .asb-explorer .asb-label { font-size: 12px; }
.asb-explorer .asb-axis { stroke: currentColor; }
.asb-explorer .asb-grid { stroke: currentColor; stroke-opacity: 0.15; }
.asb-explorer .asb-band { fill: currentColor; fill-opacity: 0.12; }
.asb-explorer .asb-mean { stroke: currentColor; stroke-dasharray: 6 4; stroke-width: 1.5; }
.asb-explorer .asb-peak { stroke: currentColor; stroke-dasharray: 1 3; stroke-opacity: 0.6; }
.asb-explorer .asb-svg text.asb-sign { font-size: 13px; font-weight: 700; fill: #111; stroke: #fff;
  stroke-width: 3px; paint-order: stroke; }  /* a white halo: legible on the darkest cells, in greyscale too */
.asb-explorer .asb-said { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }  /* for screen readers; the table shows the same */
.asb-explorer .asb-numbers { margin: 0.3em 0; font-size: 0.9em; }
.asb-explorer .asb-key { font-size: 0.85em; margin: 0.2em 0 0.4em; color: var(--pst-color-text-muted, inherit); }
.asb-explorer .asb-numbers summary { cursor: pointer; }
.asb-explorer .asb-numbers td, .asb-explorer .asb-numbers th { padding: 0.05em 0.6em; text-align: right;
  font-variant-numeric: tabular-nums; }
.asb-explorer:not(.asb-player) input[type=range] { width: min(100%, 36rem); }
.asb-presenting.asb-explorer .asb-stack { width: 100%; max-width: none; background: none; }
.asb-presenting.asb-explorer .asb-panels { grid-template-columns: repeat(3, minmax(0, 1fr)); max-width: none; }
.asb-presenting.asb-explorer .asb-svg { max-height: var(--asb-room, 60vh); }
.asb-presenting.asb-explorer .asb-numbers { display: none; }
.asb-presenting.asb-explorer .asb-key { order: 1; margin: 0; font-size: 18px; flex: none; }
@media (max-width: 700px) {
  .asb-presenting.asb-explorer .asb-panels { grid-template-columns: minmax(0, 1fr); }
  .asb-presenting.asb-explorer .asb-panel:not(.asb-focus) { display: none; }
  .asb-presenting.asb-explorer .asb-key { font-size: 14px; }
}
@media print { .asb-explorer .asb-numbers { display: none; } }
`;

// Put `css` in the page once, under the id `id`.
export function addStyles(id = "asb-view-css", css = VIEW_CSS) {
  if (document.getElementById(id)) return;
  const style = document.createElement("style");
  style.id = id;
  style.textContent = css;
  document.head.appendChild(style);
}

// A labelled range input over positions 0 to `max` in the controls box `box`, with the value shown
// after it (and a unit, if any): [input, output].
export function sliderRow(box, id, text, max, unit = null) {
  const control = html("div", {class: "asb-control"}, box);
  html("label", {for: id}, control, text);
  const span = html("span", {class: "asb-slider"}, control);
  const input = html("input", {type: "range", id, min: 0, max, step: 1}, span);
  const shown = html("output", {for: id}, span);
  if (unit !== null) html("span", {class: "asb-unit"}, span, unit);
  return [input, shown];
}

// A group of radio buttons named `name` in the controls box `box`, one an option: the inputs.
export function choiceRow(box, name, legend, options) {
  const field = html("fieldset", {class: "asb-control asb-choice"}, box);
  html("legend", {}, field, legend);
  const row = html("div", {class: "asb-options"}, field);
  return options.map((text, i) => {
    const label = html("label", {class: "asb-option"}, row);
    const input = html("input", {type: "radio", name, value: i}, label);
    label.append(` ${text}`);
    return input;
  });
}

// What every view mounts around its panels: the figure's box (the page's .asb-stack, emptied of the
// build's picture for a page without scripts, or a new one), the key line after it, the readout
// (the page's .asb-readout or a new one) and the Data disclosure after that, headed by `columns`
// and filled by `fill` (dataTable). Returns {stack, key, setReadout, setData}.
export function scaffold(root, columns, fill) {
  let stack = root.querySelector(".asb-stack");
  if (!stack) stack = html("div", {class: "asb-stack"}, html("div", {class: "asb-scroll"}, root));
  stack.replaceChildren();
  stack.classList.add("asb-panels");
  stack.setAttribute("role", "img");
  const key = html("p", {class: "asb-key"});
  (stack.parentElement.classList.contains("asb-scroll") ? stack.parentElement : stack).after(key);
  let box = root.querySelector(".asb-readout");
  if (!box) box = html("div", {class: "asb-readout"}, root);
  const setReadout = readoutTable(box);
  const details = html("details", {class: "asb-numbers"});
  box.after(details);
  return {stack, key, setReadout, setData: dataTable(details, columns, fill)};
}

// A log slider: position k of `steps` gives lo (hi / lo)^(k / steps), both ends exactly, except
// that the position nearest each of `nice` (round values: a lesson's stops) gives that value
// exactly. {steps, to(k), from(value)}; the package's *_position functions are the inverse.
export function logPositions(lo, hi, steps, nice = []) {
  const exact = v => steps * Math.log(v / lo) / Math.log(hi / lo);
  const snapped = new Map(nice.map(v => [Math.round(exact(v)), v]));
  return {
    steps,
    to: k => (snapped.has(k) ? snapped.get(k) : k <= 0 ? lo : k >= steps ? hi : lo * (hi / lo) ** (k / steps)),
    from: v => Math.min(steps, Math.max(0, Math.round(exact(v)))),
  };
}

// The position of `x` among the increasing `values` (a slider's), or of the largest value below it.
export function indexAtOrBelow(values, x) {
  let lo = 0, hi = values.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (values[mid] <= x) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// showPanel(k) of a view: panel k gets the focus class (Present mode on a phone shows only it).
export function panelFocus(stack) {
  const panels = [...stack.querySelectorAll(".asb-panel")];
  return k => panels.forEach((p, i) => p.classList.toggle("asb-focus", i === k));
}

// The "Data" disclosure: a table of the current state's numbers, headed by `columns`; `fill(state,
// row)` adds its rows, row(label, ...cells). Rebuilt on every change while it is open; closed, it
// is filled when it opens.
export function dataTable(details, columns, fill) {
  html("summary", {}, details, "Data: the numbers drawn");
  const table = html("table", {}, details);
  let pending = null;
  const build = state => {
    table.replaceChildren();
    const head = html("tr", {}, html("thead", {}, table));
    for (const c of columns) html("th", {scope: "col"}, head, c);
    const body = html("tbody", {}, table);
    fill(state, (label, ...cells) => {
      const tr = html("tr", {}, body);
      html("th", {scope: "row"}, tr, label);
      for (const cell of cells) html("td", {}, tr, cell);
    });
  };
  details.addEventListener("toggle", () => {
    if (details.open && pending !== null) {
      build(pending);
      pending = null;
    }
  });
  return state => {
    if (details.open) build(state);
    pending = details.open ? null : state;
  };
}
