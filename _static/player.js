/* The book's explorers on the static page (see src/attention_scaling/explorables/page.py).
   Each .asb-player carries its module's payload and the lesson's stops as JSON; the module
   (attention_scaling.web, the classic script the page carries) draws the figure and its
   controls. This script mounts it, adds the step buttons and gives it Present mode.
   No dependencies, no network. */
(function () {
  "use strict";
  function dataOf(root) {  // parsed once: the preparation and the view share its payload's model
    if (!root.asbData) { root.asbData = JSON.parse(root.querySelector("script.asb-data").textContent); }
    return root.asbData;
  }
  function init(root) {
    var data = dataOf(root);
    if (data.module) { initModule(root, data); }
  }
  // The model's first work (mount.prepare, a generator of steps), run in slices of about 8 ms
  // between the page's tasks, then `then`; a page stays responsive while an explorer gets ready.
  function prepare(root, then) {
    var data = dataOf(root), web = window.attentionScalingWeb;
    var mount = data.module && web && web[data.module.mount];
    var steps = mount && typeof mount.prepare === "function" ? mount.prepare(data.payload) : null;
    if (!steps) { then(); return; }
    (function slice() {
      var start = performance.now();
      while (performance.now() - start < 8) {
        if (steps.next().done) { then(); return; }
      }
      setTimeout(slice, 0);
    })();
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
    root.asbDefaultStops = view.roundStops;
    var tell = liveNumbers(data.module.name, view);
    root.addEventListener("input", tell);
    root.addEventListener("change", tell);
    stepButtons(root, data.controls);
    present(root, data, function () { view.fromInput(); tell(); });
    ready(root);
  }
  // The prose's numbers bound to this explorer (the {live} role, attention_book.live):
  // <span class="asb-live" data-bind="module:path.in.state" data-format=".3f">, rewritten from
  // the module's state by its own formatter at every change. The first explorer of a module's
  // name on the page owns them. Returns the function that rewrites them.
  var bound = {};
  function liveNumbers(name, view) {
    if (!name || bound[name] || typeof view.format !== "function") { return function () {}; }
    bound[name] = true;
    var spans = [].filter.call(document.querySelectorAll(".asb-live[data-bind]"), function (s) {
      return s.getAttribute("data-bind").split(":")[0] === name;
    });
    spans.forEach(function (span) {  // what the dotted underline means
      span.classList.add("asb-live-on");
      span.title = "This number follows the explorer on this page";
    });
    function get(o, k) { return o === null || o === undefined ? o : o[k]; }
    // a weight's distance from 1 as its readout has it: a mean's own complement; for a draw's
    // largest weight, its P(1 − P) over itself (1 − P summed from the other weights)
    function complementOf(parent, last, x) {
      if (!parent) { return null; }
      if (last === "mean" && typeof parent.complement === "number") { return parent.complement; }
      if (last === "maxWeight" && typeof parent.largestGradient === "number" && x > 0.5) {
        return parent.largestGradient / x;
      }
      return null;
    }
    function tell() {
      var state = view.state;
      spans.forEach(function (span) {
        var path = span.getAttribute("data-bind").split(":")[1].split(".");
        var parent = path.slice(0, -1).reduce(get, state), last = path[path.length - 1];
        var x = get(parent, last);
        if (typeof x !== "number" || !isFinite(x)) { return; }  // the glued value stays
        var text = view.format(x, span.getAttribute("data-format"), complementOf(parent, last, x));
        var shown = span.querySelector(".pasted-text") || span;  // styled as the other glued numbers
        if (shown.textContent !== text) { shown.textContent = text; }
      });
    }
    tell();
    return tell;
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
    function whenTypeset() {
      var mj = window.MathJax;
      if (mj && mj.startup && mj.startup.promise) { mj.startup.promise.then(untab); } else { untab(); }
    }
    // mounted as the page loads, or later, when the reader scrolls to it
    if (document.readyState === "complete") { whenTypeset(); } else { window.addEventListener("load", whenTypeset); }
  }
  // --- Presentation mode ------------------------------------------------------------
  // The player fills the screen (a fixed overlay, moved to the end of <body> so that no
  // ancestor clips it; the Fullscreen API too when a click starts it) and the lesson's
  // stops (data.stops, see attention_scaling/lesson.py) are stepped through with the keys a
  // clicker sends or the bar's Back and Next buttons (a touch screen has no keys). Without
  // them, the module's round values are the stops. Leaving gives the reader's own settings back.
  var NEXT = { ArrowRight: 1, PageDown: 1, " ": 1, Spacebar: 1, ArrowLeft: -1, PageUp: -1 };
  // Present mode's keys, the explorers' and the session's slides' alike
  // (attention_book/deck_assets/deck.js reads window.asbPresentKeys): Escape leaves on its
  // second press within 4 s (a clicker's stray Escape, or the one that ends full screen, does not
  // drop the class out of the lesson); b, B or . is a clicker's black-screen key; F toggles full
  // screen, and the browser's own Escape out of it counts as the first press. say(text) shows
  // the warning and say("") takes it back; leave() is the second press.
  function presentKeys(say, leave) {
    var armed = null, ownExit = false;
    function arm() {
      clearTimeout(armed);
      say("Press Escape again to leave; any other key stays.");
      armed = setTimeout(function () { armed = null; say(""); }, 4000);
    }
    function requestFullscreen(el, requested) {  // requested(true) now, (false) if refused
      if (!el.requestFullscreen) { return; }
      try {
        var p = el.requestFullscreen();
        requested(true);
        if (p && p.catch) { p.catch(function () { requested(false); }); }
      } catch (err) { requested(false); }
    }
    return {
      isEscape: function (key) { return key === "Escape" || key === "Esc"; },
      isBlank: function (key) { return key === "b" || key === "B" || key === "."; },
      isFullscreen: function (key) { return key === "f" || key === "F"; },
      escape: function () { if (armed !== null) { leave(); } else { arm(); } },
      disarm: function () { if (armed !== null) { clearTimeout(armed); armed = null; say(""); } },
      reset: function () { clearTimeout(armed); armed = null; ownExit = false; },
      requestFullscreen: requestFullscreen,
      toggleFullscreen: function (el, requested) {
        if (!document.fullscreenElement) { requestFullscreen(el, requested); return; }
        if (document.exitFullscreen) { ownExit = true; document.exitFullscreen().catch(function () { ownExit = false; }); }
      },
      fullscreenEnded: function () {  // on fullscreenchange while presenting
        if (document.fullscreenElement) { return; }
        if (ownExit) { ownExit = false; } else { arm(); }
      }
    };
  }
  window.asbPresentKeys = presentKeys;
  function present(root, data, show) {
    var open = root.querySelector(".asb-present-open");
    var close = root.querySelector(".asb-present-close");
    var caption = root.querySelector(".asb-stop");
    if (!open || !close || !caption) { return; }
    // the lesson's stops; without them the module's round values (none: no Present mode)
    var stops = (data.stops && data.stops.length) ? data.stops
      : (root.asbDefaultStops && root.asbDefaultStops.length ? root.asbDefaultStops : null);
    var back = root.querySelector(".asb-present-back"), next = root.querySelector(".asb-present-next");
    var current = 0, active = false, placeholder = null, scroll = null, fullscreen = false, before = null;
    // a host (the session's slides: attention_book/deck_assets/deck.js) that has the keys, full screen and the
    // step buttons while it shows this player's stops: {step(by), leave()}
    var host = null;
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
      // everything under the figure: the controls, the readout, the key hints and the key to
      // the figure (the title is hidden while presenting: the stop's caption heads the screen)
      var below = [".asb-controls", ".asb-readout", ".asb-keys", ".asb-key"].reduce(function (sum, sel) {
        var el = root.querySelector(sel);
        return sum + (el ? el.offsetHeight + parseFloat(cs.rowGap || 0) : 0);
      }, 0);
      // what the figure's scroller holds besides the figure (a phone's "swipe" line)
      var scroller = root.querySelector(".asb-scroll"), stack = root.querySelector(".asb-stack");
      var extra = scroller && stack ? Math.max(0, scroller.offsetHeight - stack.offsetHeight) : 0;
      var room = root.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) -
        bar.offsetHeight - parseFloat(cs.rowGap || 0) - below - extra;
      var px = Math.max(120, Math.floor(room));
      root.style.setProperty("--asb-room", px + "px");
      // a figure whose box is taller than the room it was given (an SVG panel's grid row) is
      // given that much less, so that the last line stays on the screen
      var over = lowestBottom() - (root.getBoundingClientRect().bottom - parseFloat(cs.paddingBottom));
      if (over > 0.5 && px > 120) {
        px = Math.max(120, Math.floor(px - over));
        root.style.setProperty("--asb-room", px + "px");
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
      root.asbShowPanel(stops[current].panel);
      if (back) { back.disabled = !host && current === 0; }  // a host steps on past the ends
      if (next) { next.disabled = !host && current === stops.length - 1; }
      // a button disabled under the focus would drop it to the page: the dialog keeps it
      if (active && document.activeElement && document.activeElement.disabled) { root.focus({ preventScroll: true }); }
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
    // Escape twice, b or . for a black screen, F for full screen: presentKeys, shared with the
    // session's slides; Home and End, the first and last stop.
    var blanked = false;
    var keys = presentKeys(function (text) {
      if (text) { caption.textContent = text; } else if (active) { describe(); }
    }, function () { leave(); });
    function blank(on) {
      blanked = on;
      root.classList.toggle("asb-blanked", on);
    }
    function requested(ok) { fullscreen = ok; }
    function onKey(e) {
      if (!active) { return; }
      if (e.altKey || e.ctrlKey || e.metaKey) { return; }
      if (blanked) {  // any key brings the screen back, and does nothing else
        e.preventDefault(); e.stopPropagation(); blank(false); return;
      }
      if (keys.isEscape(e.key)) { e.preventDefault(); keys.escape(); return; }
      keys.disarm();
      if (keys.isBlank(e.key)) { e.preventDefault(); e.stopPropagation(); blank(true); return; }
      if (keys.isFullscreen(e.key)) { e.preventDefault(); e.stopPropagation(); keys.toggleFullscreen(root, requested); return; }
      if (e.key === "Home" || e.key === "End") {
        e.preventDefault(); e.stopPropagation(); go(e.key === "Home" ? 0 : stops.length - 1); return;
      }
      if (e.key === "Tab") {  // Tab stays inside the dialog
        var list = focusables();
        if (!list.length) { e.preventDefault(); return; }
        var i = list.indexOf(document.activeElement);
        if (e.shiftKey && (i <= 0)) { e.preventDefault(); list[list.length - 1].focus(); }
        else if (!e.shiftKey && (i === -1 || i === list.length - 1)) { e.preventDefault(); list[0].focus(); }
        return;
      }
      if (!(e.key in NEXT)) { return; }
      e.preventDefault();
      e.stopPropagation();
      step(NEXT[e.key]);
    }
    function onFullscreen() {  // the browser's own Escape ended full screen: that was the first press
      if (active && !document.fullscreenElement) { fullscreen = false; keys.fullscreenEnded(); }
    }
    function enter(byClick, by) {
      if (active || !stops) { return; }
      active = true;
      host = by || null;
      scroll = [window.scrollX, window.scrollY];
      before = positions();  // the reader's own settings, given back on leaving
      placeholder = document.createElement("div");
      placeholder.className = "asb-placeholder";
      placeholder.style.height = root.offsetHeight + "px";
      root.parentNode.insertBefore(placeholder, root);
      document.body.appendChild(root);
      document.documentElement.classList.add("asb-presenting-page");
      root.classList.add("asb-presenting");
      root.setAttribute("role", "dialog");
      root.setAttribute("aria-modal", "true");
      root.setAttribute("tabindex", "-1");
      if (!host) {
        document.addEventListener("keydown", onKey, true);
        document.addEventListener("fullscreenchange", onFullscreen);
      }
      window.addEventListener("resize", layout);
      if (refit) { refit.observe(root.querySelector(".asb-readout")); }
      go(0);
      root.focus({ preventScroll: true });
      if (byClick && !host) { keys.requestFullscreen(root, requested); }
    }
    function leave() {
      if (!active) { return; }
      active = false;
      keys.reset();
      blank(false);
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
      if (host) { host = null; return; }
      window.scrollTo(scroll[0], scroll[1]);
      open.focus({ preventScroll: true });
    }
    open.addEventListener("click", function () { enter(true); });
    close.addEventListener("click", function () { if (host) { host.leave(); } else { leave(); } });
    if (back) { back.addEventListener("click", function () { if (host) { host.step(-1); } else { step(-1); } }); }
    if (next) { next.addEventListener("click", function () { if (host) { host.step(1); } else { step(1); } }); }
    root.addEventListener("input", function () { if (active) { describe(); } });
    root.addEventListener("change", function () { if (active) { describe(); } });
    root.asbPresent = enter;
    root.asbLeave = leave;
    root.asbLayout = layout;
    root.asbGo = function (k) { if (active) { go(k); } };
    root.asbStops = stops ? stops.length : 0;
  }
  // An explorer is mounted when it comes within a screen's height of the window, not while the
  // page loads: mounting computes its first state (the context explorer's curves, 0.1 s of a
  // laptop's time, four times that on a phone) and draws it, and a page has up to three. Until
  // then the build's picture and readout show, as without scripts. root.asbMount() mounts it
  // at once (the slides, Present, printing); the prose's numbers follow it once it is mounted.
  function start() {
    var players = [].slice.call(document.querySelectorAll(".asb-player"));
    players.forEach(function (root) {
      var done = false;
      root.asbMount = function () {
        if (done) { return; }
        done = true;
        if (watcher) { watcher.unobserve(root); }
        init(root);
      };
    });
    var watcher = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) { return; }
        watcher.unobserve(e.target);
        prepare(e.target, e.target.asbMount);
      });
    }, { rootMargin: "100% 0px" }) : null;
    // ?present opens the page's first player in presentation mode, ?present=2 the second.
    // (Sphinx's sphinx_highlight.js may have rewritten the address to ?present= by now.)
    var match = /[?&]present(?:=(\d*))?(?:&|$)/.exec(window.location.search);
    var which = match ? players[(match[1] ? Number(match[1]) : 1) - 1] : null;
    if (which) { which.asbMount(); }
    players.forEach(function (root) { if (watcher) { watcher.observe(root); } else { root.asbMount(); } });
    // a printed page shows each explorer as the module draws it
    window.addEventListener("beforeprint", function () { players.forEach(function (root) { root.asbMount(); }); });
    if (which && which.asbPresent) { which.asbPresent(false); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
