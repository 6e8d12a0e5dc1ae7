/* Static players for the book's explorables (see src/attention_scaling/explorables.py).
   Each .asb-player carries its frames as JSON; one control per parameter (a range input
   for ordered values, a group of radio buttons for a choice) selects a frame by
   mixed-radix index (last control fastest). No dependencies, no network. */
(function () {
  "use strict";
  // Frames: the built book holds URLs of frame files (relative to the page); a live
  // notebook's HTML holds base64 PNGs (whose alphabet has no dot). A frame is shown only
  // once loaded and decoded, so a slow or failed load never blanks the image.
  var loads = {};
  function load(url) {
    if (!loads[url]) {
      var im = new Image();
      im.src = url;
      loads[url] = (im.decode ? im.decode() : Promise.resolve()).catch(function (err) {
        delete loads[url];  // try again on the next change
        throw err;
      });
    }
    return loads[url];
  }
  function frameURL(entry) {
    return /^data:|\./.test(entry) ? entry : "data:image/png;base64," + entry;
  }
  // Show `entry` in `img`, then call shown(); on failure keep the frame and call failed().
  // Returns false when `img` already shows it.
  function setFrame(img, entry, shown, failed) {
    var url = frameURL(entry);
    img.asbWant = url;
    if (img.getAttribute("src") === url) { img.removeAttribute("aria-busy"); shown(); return false; }
    img.setAttribute("aria-busy", "true");
    load(url).then(function () {
      if (img.asbWant !== url) { return; }  // a later change won
      img.src = url;
      img.removeAttribute("aria-busy");
      shown();
    }, function () {
      if (img.asbWant !== url) { return; }
      img.removeAttribute("aria-busy");
      failed();
    });
    return true;
  }
  // After a change, fetch the frames one step away on each control.
  function prefetch(frames, sizes, index) {
    var stride = 1;
    for (var k = sizes.length - 1; k >= 0; k--) {
      var digit = Math.floor(index / stride) % sizes[k];
      if (digit > 0) { load(frameURL(frames[index - stride])).catch(function () {}); }
      if (digit < sizes[k] - 1) { load(frameURL(frames[index + stride])).catch(function () {}); }
      stride *= sizes[k];
    }
  }
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
      var changed = setFrame(frame, data.frames[index], function () {
        frame.alt = data.alts[index];
        readout.textContent = data.readouts[index];
        root.setAttribute("data-frame", String(index));
      }, function () {
        readout.textContent = "This frame could not be loaded; the figure still shows " +
          "the previous setting. Change a control to try again.";
      });
      if (changed) {
        prefetch(data.frames, data.controls.map(function (c) { return c.values.length; }), index);
      }
    }
    show();
    root.classList.add("asb-ready");
    // The maths in a player's title and labels is not a Tab stop: a keyboard user tabs from
    // control to control. (Elsewhere MathJax keeps its Tab stops, which make scrolling
    // formulas reachable.) MathJax typesets after this script runs, so wait for it.
    function untab() {
      root.querySelectorAll("mjx-container").forEach(function (m) { m.setAttribute("tabindex", "-1"); });
    }
    window.addEventListener("load", function () {
      var mj = window.MathJax;
      if (mj && mj.startup && mj.startup.promise) { mj.startup.promise.then(untab); } else { untab(); }
    });
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
