/* Static players for the book's explorables (see src/attention_scaling/explorables.py).
   Each .asb-player carries its frames as JSON; one range input per parameter selects a
   frame by mixed-radix index (last control fastest). No dependencies, no network. */
(function () {
  "use strict";
  function init(root) {
    var data = JSON.parse(root.querySelector("script.asb-data").textContent);
    var frame = root.querySelector("img.asb-frame");
    var readout = root.querySelector(".asb-readout");
    var inputs = data.controls.map(function (c) { return document.getElementById(c.id); });
    function show() {
      var index = 0;
      data.controls.forEach(function (c, k) {
        var input = inputs[k];
        var i = Number(input.value);
        index = index * c.values.length + i;
        var value = c.values[i];
        input.setAttribute("aria-valuetext", (value + " " + c.unit).trim());
        var out = root.querySelector('output[for="' + c.id + '"]');
        if (out) { out.textContent = value; }
      });
      frame.src = "data:image/png;base64," + data.frames[index];
      frame.alt = data.alts[index];
      readout.textContent = data.readouts[index];
      root.setAttribute("data-frame", String(index));
    }
    inputs.forEach(function (input) { input.addEventListener("input", show); });
    show();
    root.classList.add("asb-ready");
  }
  function start() {
    document.querySelectorAll(".asb-player").forEach(init);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
