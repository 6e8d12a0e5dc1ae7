// The explorers in Jupyter: anywidget renders this module's default export, and the page's own
// view (scale_view.js) computes and draws in the notebook as it does on the static page. The
// model (attention_scaling.explorables.widget.ModuleView) holds the mount function's name, the
// payload, and one value per control (a choice's as its index); the controls themselves are ipywidgets, linked to those
// values in the front end (jslink), so a slider repaints the view with no kernel round trip.
import {MOUNTS} from "./views.js";

function render({model, el}) {
  const mount = MOUNTS[model.get("mount")];
  if (!mount) throw new Error(`no explorer module mounts as ${model.get("mount")}`);
  const names = model.get("controls");
  const values = () => Object.fromEntries(names.map(name => [name, model.get(name)]));
  el.classList.add("asb-widget");
  const view = mount(el, model.get("payload"), {...values(), slider: false});
  // one control: its value; several: all of them by name (a choice by its index)
  const update = () => view.set(names.length === 1 ? model.get(names[0]) : values());
  for (const name of names) model.on(`change:${name}`, update);
  return () => {
    for (const name of names) model.off(`change:${name}`, update);
  };
}

export default {render};
