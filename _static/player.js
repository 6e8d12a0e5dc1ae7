/* Static players for the book's explorables (see src/attention_scaling/explorables.py).
   Each .asb-player carries its frames as JSON; one control per parameter (a range input
   for ordered values, a group of radio buttons for a choice) selects a frame by
   mixed-radix index (last control fastest). No dependencies, no network. */
(function () {
  "use strict";
  function init(root) {
    var data = JSON.parse(root.querySelector("script.asb-data").textContent);
    var frame = root.querySelector("img.asb-frame");
    var readout = root.querySelector(".asb-readout");
    // position(k): the chosen index of control k
    var position = data.controls.map(function (c) {
      if (c.kind === "radio") {
        var radios = root.querySelectorAll('input[type="radio"][name="' + c.id + '"]');
        radios.forEach(function (r) { r.addEventListener("change", show); });
        return function () {
          var on = root.querySelector('input[type="radio"][name="' + c.id + '"]:checked');
          return on ? Number(on.value) : 0;
        };
      }
      var input = document.getElementById(c.id);
      input.addEventListener("input", show);
      return function () {
        var i = Number(input.value);
        var value = c.values[i];
        input.setAttribute("aria-valuetext", (value + " " + c.unit).trim());
        var out = root.querySelector('output[for="' + c.id + '"]');
        if (out) { out.textContent = value; }
        return i;
      };
    });
    function show() {
      var index = 0;
      data.controls.forEach(function (c, k) { index = index * c.values.length + position[k](); });
      frame.src = "data:image/png;base64," + data.frames[index];
      frame.alt = data.alts[index];
      readout.textContent = data.readouts[index];
      root.setAttribute("data-frame", String(index));
    }
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
