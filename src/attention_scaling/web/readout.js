// An explorer's readout (attention_scaling.readout.Readout) built in the page: a lead sentence,
// groups of rows (one draw beside its mean), a footnote, and from them the cells, the sentence a
// screen reader hears and the figure's alt text, character for character as the package's.
import {readoutMean, readoutNumber} from "./format.js";

export const NONE = "none";

// Row(label, draw, mean, digits, near_one, complement).cells(with_mean)
function cells(row, withMean) {
  const shown = row.draw === null ? NONE
    : readoutNumber(row.draw, row.digits ?? 3, row.nearOne ?? false, row.complement ?? null);
  if (!withMean) return [shown];
  return [shown, row.mean == null ? NONE : readoutMean(row.mean, row.digits ?? 3, row.nearOne ?? false)];
}

// readout = {lead, groups: [{caption, rows}], note, intro, figure}
export function readoutParts(readout) {
  const withMean = readout.groups.some(g => g.rows.some(r => r.mean != null));
  const groups = readout.groups.map(g => ({caption: g.caption, rows: g.rows.map(r => ({
    label: r.label, cells: cells(r, withMean), present: r.draw !== null}))}));
  const said = groups.map(g => {
    const listed = g.rows.filter(r => r.present)
      .map(r => `${r.label} ${r.cells[0]}` + (r.cells.length > 1 ? ` (mean ${r.cells[1]})` : "")).join(", ");
    return g.caption ? `${g.caption}: ${listed}` : listed.slice(0, 1).toUpperCase() + listed.slice(1);
  });
  const text = `${readout.lead} ${said.join("; ")}.` + (readout.note ? ` ${readout.note}` : "");
  return {
    lead: readout.lead,
    note: readout.note || "",
    columns: withMean ? ["measure", "this draw", "mean ± s.e."] : ["measure", "this draw"],
    groups,
    values: [readout.lead, ...groups.flatMap(g => g.rows.flatMap(r => r.cells))],
    text,
    alt: [readout.intro, text, readout.figure].filter(Boolean).join(" "),
  };
}
