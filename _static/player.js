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
    if (data.module) { initModule(root, data); return; }
    var frame = root.querySelector("img.asb-frame");
    var readout = readoutOf(root, data.readout);
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
        var unit = unitFor(value, c.unit);
        input.setAttribute("aria-valuetext", (value + " " + unit).trim());
        var out = root.querySelector('output[for="' + c.id + '"]');
        if (out) { out.textContent = value; }
        var shown = out && out.parentNode.querySelector(".asb-unit");
        if (shown) { shown.textContent = unit; }
        return i;
      };
    });
    function show() {
      var index = 0;
      data.controls.forEach(function (c, k) { index = index * c.values.length + position[k](); });
      var changed = setFrame(frame, data.frames[index], function () {
        frame.alt = readout.show(index);
        root.setAttribute("data-frame", String(index));
      }, function () {
        readout.fail("This frame could not be loaded; the figure still shows " +
          "the previous setting. Change a control to try again.");
      });
      if (changed) {
        prefetch(data.frames, data.controls.map(function (c) { return c.values.length; }), index);
      }
    }
    show();
    // Only the default frame is loaded with the page (and, below the first player, only when
    // the reader nears it: the build marks those images loading="lazy"). The frames one step
    // away are fetched at the first sign of use, focus or a press on the player, so that the
    // first change is shown at once; after that, every change fetches its own neighbours.
    function warm() {
      root.removeEventListener("focusin", warm);
      root.removeEventListener("pointerdown", warm);
      prefetch(data.frames, data.controls.map(function (c) { return c.values.length; }),
        Number(root.getAttribute("data-frame") || 0));
    }
    root.addEventListener("focusin", warm);
    root.addEventListener("pointerdown", warm);
    present(root, data, show);
    keyPanelFirst(root);
    ready(root);
  }
  // An explorer that computes in the page (attention_scaling/explorables/page.py): its module
  // (attention_scaling.web, the classic script the page carries) draws and reads out at any
  // slider position; Present mode steps its slider through the stops as it does a player's.
  // Without the module the build's picture and readout stay, and no control shows.
  function initModule(root, data) {
    var web = window.attentionScalingWeb;  // each view's classic bundle adds its mount function
    var mount = web && web[data.module.mount];
    if (typeof mount !== "function") { return; }
    var ids = data.controls.map(function (c) { return c.id; });
    var options = Object.assign({ inputId: ids[0], ids: ids }, data.module.options);
    var view = mount(root, data.payload, options);
    var note = root.querySelector(".asb-note");
    if (note && data.module.note) { note.textContent = data.module.note; }
    root.asbShowPanel = view.showPanel;
    root.asbDefaultStops = view.roundStops;  // without the lesson's stops: its round values
    stepButtons(root, data.controls);
    present(root, data, view.fromInput);
    ready(root);
  }
  // "−" and "+" beside a module's sliders: one position a press, for a finger (not Tab stops)
  function stepButtons(root, controls) {
    root.querySelectorAll('.asb-slider input[type="range"]').forEach(function (input) {
      var control = controls.filter(function (c) { return c.id === input.id; })[0];
      var name = control ? control.label : "the slider";  // its label as plain text
      [[-1, "−", "one step down: "], [1, "+", "one step up: "]].forEach(function (spec) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "asb-step";
        button.tabIndex = -1;
        button.textContent = spec[1];
        button.setAttribute("aria-label", spec[2] + name);
        button.addEventListener("click", function () {
          var value = Number(input.value) + spec[0];
          if (value < Number(input.min) || value > Number(input.max)) { return; }
          input.value = String(value);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        if (spec[0] < 0) { input.before(button); } else { input.after(button); }
      });
    });
  }
  function ready(root) {
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
  // The readout under the figure: a lead sentence, tables and a footnote (written by
  // attention_scaling/readout.py). Each frame carries only its values (the lead, then every
  // cell in the tables' order); the alt text and the sentence a screen reader hears (the
  // visually hidden aria-live .asb-said) are templates, "{0}" the lead and "{1}"… the cells.
  function fill(template, values) {
    return template.replace(/\{(\d+)\}/g, function (_, i) { return values[Number(i)]; });
  }
  function readoutOf(root, r) {
    var box = root.querySelector(".asb-readout");
    var lead = box.querySelector(".asb-lead"), said = box.querySelector(".asb-said");
    var cells = box.querySelectorAll("td");
    function pick(x, i) { return Array.isArray(x) ? x[i] : x; }
    return {
      show: function (index) {  // fills the table; returns the frame's alt text
        var values = r.values[index];
        lead.textContent = values[0];
        cells.forEach(function (td, k) { td.textContent = values[k + 1]; });
        var text = fill(r.templates[pick(r.said, index)], values);
        if (said.textContent !== text) { said.textContent = text; }
        return fill(r.templates[pick(r.alt, index)], values);
      },
      fail: function (message) { lead.textContent = message; said.textContent = message; }
    };
  }
  // "1 dimension", "64 dimensions": a plural unit loses its s after the value 1.
  function unitFor(value, unit) {
    return String(value) === "1" && /[^s]s$/.test(unit) ? unit.slice(0, -1) : unit;
  }
  // A figure wider than a phone scrolls sideways (book.css); one whose key panel is not the
  // first (data-key-from: where it starts, as a fraction of the figure's width) opens
  // scrolled to it. Again whenever the scroller gains room to scroll (a phone turned, a
  // window narrowed), never while the reader keeps it as they scrolled it.
  function keyPanelFirst(root) {
    var scroller = root.querySelector(".asb-scroll[data-key-from]");
    if (!scroller) { return; }
    var from = parseFloat(scroller.getAttribute("data-key-from"));
    var couldScroll = false;
    function place() {
      var room = scroller.scrollWidth - scroller.clientWidth;
      if (room > 0 && !couldScroll) {
        var stack = scroller.firstElementChild;
        scroller.scrollLeft = Math.min(room, Math.max(0, from * stack.getBoundingClientRect().width - 4));
      }
      couldScroll = room > 0;
    }
    place();
    window.addEventListener("resize", place);
    // Moving the player (Present mode and back) resets its scroll: open on the key panel again.
    root.asbKeyPanelAgain = function () { couldScroll = false; place(); };
  }
  // --- Presentation mode ------------------------------------------------------------
  // The player fills the screen (a fixed overlay, moved to the end of <body> so that no
  // ancestor clips it; the Fullscreen API too when a click starts it) and the lesson's
  // stops (data.stops, see attention_scaling/lesson.py) are stepped through with the keys a
  // clicker sends or the bar's Back and Next buttons (a touch screen has no keys). Without
  // stops, the first control's values are the stops. Leaving gives the reader's own settings back.
  var NEXT = { ArrowRight: 1, PageDown: 1, " ": 1, Spacebar: 1, ArrowLeft: -1, PageUp: -1 };
  function present(root, data, show) {
    var open = root.querySelector(".asb-present-open");
    var close = root.querySelector(".asb-present-close");
    var caption = root.querySelector(".asb-stop");
    if (!open || !close || !caption) { return; }
    var stops = (data.stops && data.stops.length) ? data.stops : null;
    var back = root.querySelector(".asb-present-back"), next = root.querySelector(".asb-present-next");
    var current = 0, active = false, placeholder = null, scroll = null, fullscreen = false, before = null;
    // a stop's readout may take more lines than the last one's: the figure makes room
    var refit = window.ResizeObserver ? new ResizeObserver(function () { layout(); }) : null;
    function positions() {  // the chosen index of every control
      return data.controls.map(function (c) {
        if (c.kind === "radio") {
          var on = root.querySelector('input[type="radio"][name="' + c.id + '"]:checked');
          return on ? Number(on.value) : 0;
        }
        return Number(document.getElementById(c.id).value);
      });
    }
    function setTo(at) {
      data.controls.forEach(function (c, k) {
        if (c.kind === "radio") {
          var r = root.querySelector('input[type="radio"][name="' + c.id + '"][value="' + at[k] + '"]');
          if (r) { r.checked = true; }
        } else {
          document.getElementById(c.id).value = String(at[k]);
        }
      });
      show();
    }
    // The figure gets the screen's height left by the bar (the caption may wrap) and what is
    // under it, as wide as fits: a clicker never has to scroll, nothing is cut off below.
    function layout() {
      if (!active) { return; }
      var bar = root.querySelector(".asb-present-bar"), cs = window.getComputedStyle(root);
      // everything under the figure: the controls, the readout, the key hints and an explorer's
      // key to its figure (the title
      // is hidden while presenting: the stop's caption heads the screen)
      var below = [".asb-controls", ".asb-readout", ".asb-keys", ".asb-key"].reduce(function (sum, sel) {
        var el = root.querySelector(sel);
        return sum + (el ? el.offsetHeight + parseFloat(cs.rowGap || 0) : 0);
      }, 0);
      // what the figure's scroller holds besides the figure (a phone's "swipe" line)
      var scroller = root.querySelector(".asb-scroll"), stack = root.querySelector(".asb-stack");
      var extra = scroller && stack ? Math.max(0, scroller.offsetHeight - stack.offsetHeight) : 0;
      var room = root.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) -
        bar.offsetHeight - parseFloat(cs.rowGap || 0) - below - extra;
      var before = root.style.getPropertyValue("--asb-room");
      var px = Math.max(120, Math.floor(room));
      root.style.setProperty("--asb-room", px + "px");
      // a figure whose box is taller than the room it was given (an SVG panel's grid row) is
      // given that much less, so that the last line stays on the screen
      var over = lowestBottom() - (root.getBoundingClientRect().bottom - parseFloat(cs.paddingBottom));
      if (over > 0.5 && px > 120) {
        px = Math.max(120, Math.floor(px - over));
        root.style.setProperty("--asb-room", px + "px");
      }
      if (px + "px" === before) { return; }
      // the figure changed size (a readout that arrived with its frame took another line): at
      // a stop, its panel is brought into view again for the new width
      if (stops && stops[current].at.join(",") === positions().join(",") && !root.asbShowPanel) {
        showPanel(stops[current].panelFrom);
      }
    }
    function lowestBottom() {
      return Math.max.apply(null, [].map.call(root.children, function (e) {
        return e.getClientRects().length ? e.getBoundingClientRect().bottom : 0;
      }));
    }
    function describe() {  // the caption: the stop shown, or the one last visited
      var now = positions().join(",");
      var stop = stops[current];
      if (stop.at.join(",") === now) {
        caption.textContent = "Stop " + (current + 1) + " of " + stops.length + ": " + stop.caption;
      } else {
        caption.textContent = "Between stops (last: " + (current + 1) + " of " + stops.length +
          "). Next: " + (current + 1 < stops.length ? stops[current + 1].caption : "none, the last was shown");
      }
      layout();
    }
    function go(k) {
      current = Math.max(0, Math.min(stops.length - 1, k));
      setTo(stops[current].at);
      describe();
      if (root.asbShowPanel) { root.asbShowPanel(stops[current].panel); } else { showPanel(stops[current].panelFrom); }
      if (back) { back.disabled = current === 0; }
      if (next) { next.disabled = current === stops.length - 1; }
      // a button disabled under the focus would drop it to the page: the dialog keeps it
      if (active && document.activeElement && document.activeElement.disabled) { root.focus({ preventScroll: true }); }
    }
    // A figure wider than the screen (a phone) scrolls to the panel the stop talks about
    // (panelFrom: where it starts, as a fraction of the figure's width); without one, to
    // the figure's key panel.
    function showPanel(from) {
      var scroller = root.querySelector(".asb-scroll"), stack = root.querySelector(".asb-stack");
      if (typeof from !== "number") {
        if (root.asbKeyPanelAgain) { root.asbKeyPanelAgain(); }
        return;
      }
      var room = scroller && stack ? scroller.scrollWidth - scroller.clientWidth : 0;
      if (room > 0) {
        scroller.scrollLeft = Math.min(room, Math.max(0, from * stack.getBoundingClientRect().width - 4));
      }
    }
    function step(by) {  // off the plan (a control moved by hand), Back returns to the last stop
      var here = stops[current].at.join(",") === positions().join(",");
      go(here || by > 0 ? current + by : current);
    }
    function focusables() {
      return [].filter.call(root.querySelectorAll("button, input, [tabindex]:not([tabindex='-1'])"), function (el) {
        return !el.disabled && el.offsetParent !== null && !(el.type === "radio" && !el.checked);
      });
    }
    function onKey(e) {
      if (!active) { return; }
      if (e.key === "Escape" || e.key === "Esc") { e.preventDefault(); leave(); return; }
      if (e.key === "Tab") {  // Tab stays inside the dialog
        var list = focusables();
        if (!list.length) { e.preventDefault(); return; }
        var i = list.indexOf(document.activeElement);
        if (e.shiftKey && (i <= 0)) { e.preventDefault(); list[list.length - 1].focus(); }
        else if (!e.shiftKey && (i === -1 || i === list.length - 1)) { e.preventDefault(); list[0].focus(); }
        return;
      }
      if (e.altKey || e.ctrlKey || e.metaKey || !(e.key in NEXT)) { return; }
      e.preventDefault();
      e.stopPropagation();
      step(NEXT[e.key]);
    }
    function onFullscreen() {  // the browser's own Escape leaves full screen: leave with it
      if (active && fullscreen && !document.fullscreenElement) { fullscreen = false; leave(); }
    }
    function enter(byClick) {
      if (active) { return; }
      active = true;
      if (!data.stops || !data.stops.length) {
        stops = root.asbDefaultStops ? root.asbDefaultStops : firstControlStops(data, positions());
      }
      scroll = [window.scrollX, window.scrollY];
      before = positions();  // the reader's own settings, given back on leaving
      placeholder = document.createElement("div");
      placeholder.className = "asb-placeholder";
      placeholder.style.height = root.offsetHeight + "px";
      root.parentNode.insertBefore(placeholder, root);
      document.body.appendChild(root);
      document.documentElement.classList.add("asb-presenting-page");
      root.classList.add("asb-presenting");
      var stack = root.querySelector(".asb-stack"), img = root.querySelector("img.asb-frame");
      if (stack && img) {
        stack.style.setProperty("--asb-ratio", img.getAttribute("width") + " / " + img.getAttribute("height"));
      }
      root.setAttribute("role", "dialog");
      root.setAttribute("aria-modal", "true");
      root.setAttribute("tabindex", "-1");
      document.addEventListener("keydown", onKey, true);
      document.addEventListener("fullscreenchange", onFullscreen);
      window.addEventListener("resize", layout);
      if (refit) { refit.observe(root.querySelector(".asb-readout")); }
      go(0);
      root.focus({ preventScroll: true });
      if (byClick && root.requestFullscreen) {
        try {
          var p = root.requestFullscreen();
          fullscreen = true;
          if (p && p.catch) { p.catch(function () { fullscreen = false; }); }
        } catch (err) { fullscreen = false; }
      }
    }
    function leave() {
      if (!active) { return; }
      active = false;
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("fullscreenchange", onFullscreen);
      window.removeEventListener("resize", layout);
      if (refit) { refit.disconnect(); }
      if (fullscreen && document.fullscreenElement && document.exitFullscreen) {
        document.exitFullscreen().catch(function () {});
      }
      fullscreen = false;
      root.classList.remove("asb-presenting");
      document.documentElement.classList.remove("asb-presenting-page");
      root.setAttribute("role", "group");
      root.removeAttribute("aria-modal");
      root.removeAttribute("tabindex");
      caption.textContent = "";
      if (before) { setTo(before); before = null; }
      if (placeholder) { placeholder.parentNode.replaceChild(root, placeholder); placeholder = null; }
      if (root.asbKeyPanelAgain) { root.asbKeyPanelAgain(); }
      window.scrollTo(scroll[0], scroll[1]);
      open.focus({ preventScroll: true });
    }
    open.addEventListener("click", function () { enter(true); });
    close.addEventListener("click", leave);
    if (back) { back.addEventListener("click", function () { step(-1); }); }
    if (next) { next.addEventListener("click", function () { step(1); }); }
    root.addEventListener("input", function () { if (active) { describe(); } });
    root.addEventListener("change", function () { if (active) { describe(); } });
    root.asbPresent = enter;
  }
  // Stops of a player the lesson has none for: the first control's values, the others kept.
  function firstControlStops(data, now) {
    var first = data.controls[0];
    var sizes = data.controls.map(function (c) { return c.values.length; });
    return first.values.map(function (value, i) {
      var at = now.slice();
      at[0] = i;
      var index = 0;
      at.forEach(function (a, k) { index = index * sizes[k] + a; });
      return { caption: first.label + " = " + (value + " " + first.unit).trim(), at: at, index: index };
    });
  }
  function start() {
    document.querySelectorAll(".asb-player").forEach(init);
    // ?present opens the page's first player in presentation mode, ?present=2 the second.
    // (Sphinx's sphinx_highlight.js may have rewritten the address to ?present= by now.)
    var match = /[?&]present(?:=(\d*))?(?:&|$)/.exec(window.location.search);
    if (match) {
      var players = document.querySelectorAll(".asb-player");
      var which = players[(match[1] ? Number(match[1]) : 1) - 1];
      if (which && which.asbPresent) { which.asbPresent(false); }
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
