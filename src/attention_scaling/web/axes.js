// What the views with x axes share (context_view.js, attention_view.js; the scale view has none, so
// its pages do not carry this): an x axis and the panel focus of Present mode on a phone.
import {B, H, L, R, W, node} from "./view.js";

// An x axis at the panel's foot: ticks [value, label, minor] (a minor tick's label is hidden in
// Present mode's larger text); a label at the right edge ends at its tick (centred, "1.0" and
// "64k" would leave the panel).
export function xAxis(svg, ticks, x, caption) {
  for (const [value, label, minor] of ticks) {
    node("line", {x1: x(value), x2: x(value), y1: H - B, y2: H - B + 4, class: "asb-axis"}, svg);
    const atEdge = x(value) > W - R - 12;
    node("text", {x: atEdge ? x(value) + 4 : x(value), y: H - B + 15, "text-anchor": atEdge ? "end" : "middle",
      class: minor ? "asb-tick asb-minor" : "asb-tick"}, svg, label);
  }
  node("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, class: "asb-axis"}, svg);
  node("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "asb-label"}, svg, caption);
}

// showPanel(k) of a view: panel k gets the focus class (Present mode on a phone shows only it).
export function panelFocus(stack) {
  const panels = [...stack.querySelectorAll(".asb-panel")];
  return k => panels.forEach((p, i) => p.classList.toggle("asb-focus", i === k));
}
