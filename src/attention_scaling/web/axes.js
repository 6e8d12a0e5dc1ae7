// What the views with x axes share (context_view.js, attention_view.js; the scale view has none, so
// its pages do not carry this): an x axis, and the markers of curves.
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

// A marker of `shape` centred at (0, 0), radius r: a path, moved with a transform.
export function markerPath(shape, r) {
  if (shape === "square") return `M${-r},${-r}h${2 * r}v${2 * r}h${-2 * r}z`;
  if (shape === "triangle") return `M0,${-1.2 * r}L${1.1 * r},${0.8 * r}H${-1.1 * r}z`;
  if (shape === "diamond") return `M0,${-1.3 * r}L${r},0L0,${1.3 * r}L${-r},0z`;
  return `M${-r},0a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
}
