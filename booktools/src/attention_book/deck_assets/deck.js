/* The session's slides (attention_book/deck.py writes the page: present/session-50min.html).
   One slide at a time, fitted to the screen; a clicker's keys; b or . for a black screen; F for
   full screen; Escape twice to leave. A stop slide hands the screen to its explorer's own
   Present mode (_static/player.js), which the deck steps. P (or the button) opens the presenter
   view, the same page with ?presenter, in a second window: the notes, this slide and the next,
   a clock and the time left against the plan. The two windows follow each other with no
   server: a BroadcastChannel, and postMessage between the window and the one it opened (both
   work from file://). No dependencies, no network. */
(function () {
  "use strict";
  var deck = document.querySelector(".asb-deck");
  if (!deck) { return; }
  var plan = JSON.parse(deck.getAttribute("data-plan"));
  var slides = [].slice.call(deck.querySelectorAll(".asb-slide"));
  var presenter = /[?&]presenter(?:[=&]|$)/.test(window.location.search);
  var name = "asb-deck:" + window.location.pathname;
  var channel = null;
  try { channel = window.BroadcastChannel ? new BroadcastChannel(name) : null; } catch (err) { channel = null; }
  var peer = presenter ? window.opener : null;  // the other window, when one opened the other
  var current = 0, presenting = false, blanked = false, player = null;
  var NEXT = { ArrowRight: 1, PageDown: 1, " ": 1, Spacebar: 1, ArrowLeft: -1, PageUp: -1 };
  var BASE = 0.036, SMALLEST = 0.026;  // a slide's text, as a share of the screen's height

  // Each message goes both ways at once (the channel, and postMessage to the other window), so
  // it arrives twice, the second copy late when the machine is busy: each carries its window's
  // id and a count, and a copy, or an older message, from a window already heard is dropped (a
  // late copy of "the screen is back" had undone the black screen pressed just after it).
  var me = Math.random().toString(36).slice(2) + Date.now().toString(36), sent = 0, heard = {};
  function send(message) {
    message.deck = name;
    message.from = me;
    message.seq = ++sent;
    if (channel) { channel.postMessage(message); }
    if (peer && !peer.closed) { try { peer.postMessage(message, "*"); } catch (err) { /* closed */ } }
  }
  function receive(message) {
    if (!message || message.deck !== name || message.from === me) { return; }
    if ((heard[message.from] || 0) >= message.seq) { return; }
    heard[message.from] = message.seq;
    if (message.type === "hello" && !presenter) { send({ type: "at", at: current, blanked: blanked }); return; }
    if (message.type === "at") {
      if (!presenter && !presenting) { start(message.at, false, true); }  // the presenter drives
      show(message.at, true);
      setBlank(!!message.blanked, true);
    }
  }
  if (channel) { channel.onmessage = function (e) { receive(e.data); }; }
  window.addEventListener("message", function (e) {
    if (e.data && e.data.deck === name && e.source && !peer) { peer = e.source; }
    receive(e.data);
  });

  // --- the audience's screen ---------------------------------------------------------------
  function blockOf(k) {
    var slug = slides[k].getAttribute("data-block");
    return plan.blocks.filter(function (b) { return b.slug === slug; })[0];
  }
  var players = {};  // by explorer name (a presented player leaves its holder for <body>)
  [].forEach.call(deck.querySelectorAll(".asb-deck-players [data-explorer]"), function (holder) {
    players[holder.getAttribute("data-explorer")] = holder.querySelector(".asb-player");
  });
  function playerFor(slide) {  // mounted now if it was not yet (player.js mounts on sight)
    var root = players[slide.getAttribute("data-explorer")] || null;
    if (root && root.asbMount) { root.asbMount(); }
    return root;
  }
  // the explorer's own Close button, while the deck shows it: as Escape, a first press arms
  var host = { step: function (by) { go(current + by); },
               leave: function () { keys.escape(); } };
  function fit(slide) {  // the largest text, from BASE down to SMALLEST, with nothing off the screen
    var h = window.innerHeight;
    for (var share = BASE; share >= SMALLEST - 1e-9; share -= 0.001) {
      slide.style.fontSize = (share * h).toFixed(2) + "px";
      if (slide.scrollHeight <= slide.clientHeight + 1 && slide.scrollWidth <= slide.clientWidth + 1) { return; }
    }
  }
  function showPlayer(slide) {
    var root = playerFor(slide);
    if (player && player !== root) { restoreNumbers(player); player.asbLeave(); player = null; }
    if (!root || !root.asbPresent) { return; }
    if (player !== root) { root.asbPresent(false, host); player = root; }
    root.asbGo(Number(slide.getAttribute("data-stop")));
    root.focus({ preventScroll: true });
    pairPanels(root, Number(slide.getAttribute("data-panel") || 0));
    watchNumbers(root, JSON.parse(slide.getAttribute("data-numbers") || "[]"));
  }
  // The panel the stop talks about and its neighbour (on its right, or for the last, its left): what a
  // 4:3 screen shows (deck.css), two panels large enough to read rather than three too small.
  function pairPanels(root, panel) {
    var panels = root.querySelectorAll(".asb-panel");
    var first = Math.max(0, Math.min(panels.length - 2, panel));  // the stop's panel and the one right of it
    [].forEach.call(panels, function (p, i) { p.classList.toggle("asb-deck-pair", i === first || i === first + 1); });
    if (root.asbLayout) { root.asbLayout(); }
  }
  // The module may build its readout again after a change (a new shape): keep filtering it.
  var watching = null;
  function watchNumbers(root, labels) {
    if (watching) { watching.disconnect(); watching = null; }
    keepNumbers(root, labels);
    var box = root.querySelector(".asb-readout");
    if (box && window.MutationObserver) {
      watching = new MutationObserver(function () { keepNumbers(root, labels); });
      watching.observe(box, { childList: true, subtree: true });
    }
  }
  // The readout keeps the rows the stop talks about (attention_scaling.lesson.Stop.numbers;
  // none named: every row); the figure takes the room the others leave.
  function keepNumbers(root, labels) {
    [].forEach.call(root.querySelectorAll(".asb-readout tr"), function (tr) {
      var th = tr.querySelector('th[scope="row"]');
      tr.hidden = !!th && labels.length > 0 && labels.indexOf(th.textContent.trim()) < 0;
    });
    [].forEach.call(root.querySelectorAll(".asb-readout table"), function (table) {
      table.querySelector("thead").hidden = labels.length > 0 &&
        !table.querySelector('tbody tr:not([hidden])');
    });
    if (root.asbLayout) { root.asbLayout(); }
  }
  function restoreNumbers(root) {
    if (watching) { watching.disconnect(); watching = null; }
    [].forEach.call(root.querySelectorAll(".asb-readout tr[hidden], .asb-readout thead[hidden]"), function (e) {
      e.hidden = false;
    });
  }
  function show(k, quiet) {
    k = Math.max(0, Math.min(slides.length - 1, k));
    if (presenter) { account(); }  // the time until now belongs to the slide that was shown
    var changed = k !== current;
    current = k;
    if (presenter) { renderPresenter(); } else if (presenting) {
      slides.forEach(function (s, i) { s.classList.toggle("asb-current", i === k); });
      var slide = slides[k];
      if (slide.getAttribute("data-kind") === "stop") { showPlayer(slide); } else {
        if (player) { restoreNumbers(player); player.asbLeave(); player = null; }
        fit(slide);
        slide.focus({ preventScroll: true });
      }
      if (changed || !quiet) { history.replaceState(null, "", "#slide-" + (k + 1)); }
    }
    if (!quiet) { send({ type: "at", at: k, blanked: blanked }); }
  }
  function go(k) { if (k >= 0 && k < slides.length) { show(k, false); } }
  function setBlank(on, quiet) {
    blanked = on;
    document.documentElement.classList.toggle("asb-deck-blanked", on && !presenter);
    if (presenter) { renderPresenter(); }
    if (!quiet) { send({ type: "at", at: current, blanked: on }); }
  }
  function toast(text) {
    var t = document.querySelector(".asb-deck-toast");
    t.textContent = text;
    t.hidden = !text;
  }
  // Escape twice, b or . for a black screen, F for full screen: the explorers' Present keys
  // (_static/player.js, loaded first); a browser that refuses full screen keeps the window.
  var keys = window.asbPresentKeys(toast, function () { leave(); });
  function fullscreen() { keys.toggleFullscreen(document.documentElement, function () {}); }
  function start(k, byClick, quiet) {
    presenting = true;
    document.documentElement.classList.add("asb-deck-on");
    if (byClick) { fullscreen(); }
    show(k, !!quiet);
    window.addEventListener("resize", onResize);
  }
  function onResize() { if (presenting && slides[current].getAttribute("data-kind") !== "stop") { fit(slides[current]); } }
  function leave() {
    if (!presenting) { return; }
    presenting = false;
    keys.disarm();
    setBlank(false, false);
    if (player) { restoreNumbers(player); player.asbLeave(); player = null; }
    document.documentElement.classList.remove("asb-deck-on");
    slides.forEach(function (s) { s.classList.remove("asb-current"); s.style.fontSize = ""; });
    window.removeEventListener("resize", onResize);
    if (document.fullscreenElement && document.exitFullscreen) { document.exitFullscreen().catch(function () {}); }
    keys.reset();
    history.replaceState(null, "", window.location.pathname + window.location.search);
    slides[current].scrollIntoView({ block: "start" });
    var here = slides[current].querySelector(".asb-deck-from");
    if (here) { here.focus({ preventScroll: true }); }
  }
  function openPresenter() {
    var url = window.location.pathname + "?presenter#slide-" + (current + 1);
    var w = window.open(url, "asb-presenter", "popup,width=1280,height=800");
    if (w) { peer = w; }
  }
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (!presenter && !presenting) { return; }
    if (blanked && !presenter) { e.preventDefault(); e.stopPropagation(); setBlank(false, false); return; }
    if (!presenter && keys.isEscape(e.key)) { e.preventDefault(); keys.escape(); return; }
    keys.disarm();
    var key = e.key;
    if (/^[0-9]$/.test(key)) {  // a slide's number, then Enter: jump to it
      e.preventDefault();
      typed = (typed + key).slice(-3);
      showTyped();
      return;
    }
    if (key === "Enter" && typed) {
      e.preventDefault();
      var to = Number(typed) - 1;
      typed = "";
      showTyped();
      if (to >= 0 && to < slides.length) { go(to); }
      return;
    }
    if (typed) { typed = ""; showTyped(); }
    if (keys.isBlank(key)) { e.preventDefault(); setBlank(!blanked, false); return; }
    if (!presenter && keys.isFullscreen(key)) { e.preventDefault(); fullscreen(); return; }
    if (!presenter && (key === "p" || key === "P")) { e.preventDefault(); openPresenter(); return; }
    if (key === "Home" || key === "End") { e.preventDefault(); go(key === "Home" ? 0 : slides.length - 1); return; }
    if (key in NEXT) { e.preventDefault(); e.stopPropagation(); go(current + NEXT[key]); }
  }
  var typed = "", jumpBox = null;
  function showTyped() {
    if (!jumpBox) {
      jumpBox = document.createElement("p");
      jumpBox.className = "asb-deck-jump";
      jumpBox.setAttribute("role", "status");
      document.body.appendChild(jumpBox);
    }
    jumpBox.textContent = typed ? "Go to slide " + typed + " (Enter)" : "";
    jumpBox.hidden = !typed;
  }
  document.addEventListener("keydown", onKey, true);
  window.addEventListener("hashchange", function () {  // the address bar, or the browser's Back
    var h = /^#slide-(\d+)$/.exec(window.location.hash);
    if (h && presenting && Number(h[1]) - 1 !== current) { go(Number(h[1]) - 1); }
  });
  document.addEventListener("fullscreenchange", function () {  // the browser's own Escape: a first press
    if (presenting) { keys.fullscreenEnded(); }
  });

  // --- the presenter view -----------------------------------------------------------------
  // The clock survives a reload of the presenter's window (localStorage, per deck).
  var clockKey = name + ":clock";
  var clock = { started: null, paused: 0, running: false };
  try { clock = JSON.parse(window.localStorage.getItem(clockKey)) || clock; } catch (err) { /* none kept */ }
  function keepClock() {
    try { window.localStorage.setItem(clockKey, JSON.stringify(clock)); } catch (err) { /* private mode */ }
  }
  function elapsed() {
    return clock.running ? clock.paused + (Date.now() - clock.started) / 1000 : clock.paused;
  }
  // A rehearsal's record: the seconds the clock ran while each block's slides were shown (kept
  // with the clock), saved as a file that attention_scaling.lesson.read_timings reads.
  var TIMINGS = "attention-scaling-timings/1", counted = null;
  function account() {
    var t = elapsed();
    if (clock.running && counted !== null && t > counted) {
      var slug = slides[current].getAttribute("data-block");
      clock.spent = clock.spent || {};
      clock.spent[slug] = (clock.spent[slug] || 0) + (t - counted);
      keepClock();
    }
    counted = clock.running ? t : null;
  }
  function saveTimings() {
    account();
    var spent = clock.spent || {};
    var data = { format: TIMINGS, plan: plan.title, minutes: plan.minutes, recorded: new Date().toISOString(),
                 elapsed_minutes: Math.round(elapsed() / 60 * 100) / 100,
                 blocks: plan.blocks.map(function (b) {
                   return { slug: b.slug, title: b.title, planned: [b.start, b.end],
                            spent_minutes: Math.round((spent[b.slug] || 0) / 60 * 100) / 100 };
                 }) };
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" }));
    a.download = "session-50min-timings.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  function mmss(seconds) {
    var s = Math.round(Math.abs(seconds));
    return (seconds < 0 ? "−" : "") + Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }
  function frame(k, cls) {
    var box = document.createElement("div");
    box.className = "asb-pv-frame " + cls;
    if (k >= slides.length) { box.textContent = "The end of the session."; return box; }
    var copy = slides[k].cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.add("asb-current");
    var notes = copy.querySelector(".asb-notes");
    if (notes) { notes.remove(); }
    if (slides[k].getAttribute("data-kind") === "stop") {
      var s = Number(slides[k].getAttribute("data-stop"));
      var root = playerFor(slides[k]);
      var p = document.createElement("p");
      p.className = "asb-pv-stop";
      p.textContent = "The " + slides[k].getAttribute("data-explorer") + " explorer at stop " + (s + 1) +
        (root && root.asbStops ? " of " + root.asbStops : "") + ", on the projector; its numbers are in the notes.";
      copy.querySelector(".asb-slide-body").appendChild(p);
    }
    box.appendChild(copy);
    return box;
  }
  var view = null;
  function buildPresenter() {
    document.documentElement.classList.add("asb-deck-presenter");
    // the presenter's laptop follows its own setting (the projector's page stays light): the
    // explorers' views read the same attribute as on the book's pages
    var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
    function scheme() { document.documentElement.dataset.theme = dark && dark.matches ? "dark" : "light"; }
    scheme();
    if (dark && dark.addEventListener) dark.addEventListener("change", scheme);
    document.title = "Presenter view: " + document.title;
    view = document.createElement("div");
    view.className = "asb-pv";
    view.innerHTML =
      '<div class="asb-pv-bar"><p class="asb-pv-where" aria-live="polite"></p>' +
      '<p class="asb-pv-clock"><span class="asb-pv-elapsed" role="timer">0:00</span> of ' + plan.minutes + " min " +
      '<button type="button" class="asb-pv-toggle">Start the clock</button> ' +
      '<button type="button" class="asb-pv-reset">Reset</button> ' +
      '<button type="button" class="asb-pv-save" title="What a rehearsal took, block by block, as a file">' +
      "Save the timings</button></p>" +
      '<p class="asb-pv-block"></p><p class="asb-pv-spent"></p><p class="asb-pv-cue"></p>' +
      '<p class="asb-pv-nav"><button type="button" class="asb-pv-back">← Back</button> ' +
      '<button type="button" class="asb-pv-next">Next →</button> ' +
      '<button type="button" class="asb-pv-blank">Black screen (B)</button> ' +
      '<label>Go to <select class="asb-pv-go"></select></label></p></div>' +
      '<section class="asb-pv-now" aria-label="This slide"></section>' +
      '<section class="asb-pv-notes" aria-label="Notes for this slide"></section>' +
      '<section class="asb-pv-upcoming" aria-label="The next slide"></section>';
    document.body.appendChild(view);
    view.querySelector(".asb-pv-back").addEventListener("click", function () { go(current - 1); });
    view.querySelector(".asb-pv-next").addEventListener("click", function () { go(current + 1); });
    view.querySelector(".asb-pv-blank").addEventListener("click", function () { setBlank(!blanked, false); });
    view.querySelector(".asb-pv-toggle").addEventListener("click", function () {
      account();
      if (clock.running) { clock.paused = elapsed(); clock.running = false; }
      else { clock.started = Date.now(); clock.running = true; }
      keepClock();
      account();
      tick();
    });
    view.querySelector(".asb-pv-reset").addEventListener("click", function () {
      clock = { started: null, paused: 0, running: false, spent: {} };
      counted = null;
      keepClock();
      tick();
    });
    view.querySelector(".asb-pv-save").addEventListener("click", saveTimings);
    var pick = view.querySelector(".asb-pv-go");
    slides.forEach(function (s, k) {
      var o = document.createElement("option");
      o.value = String(k);
      o.textContent = (k + 1) + ". " + s.querySelector(".asb-slide-title").textContent;
      pick.appendChild(o);
    });
    pick.addEventListener("change", function () { go(Number(pick.value)); });
    setInterval(tick, 1000);
  }
  function tick() {
    if (!view) { return; }
    account();
    var t = elapsed(), minute = t / 60, b = blockOf(current);
    var spent = (clock.spent || {})[b.slug] || 0;
    view.querySelector(".asb-pv-spent").textContent = "Spent on this block: " + mmss(spent) + " of the " +
      (b.end - b.start) + " min it is planned for";
    view.querySelector(".asb-pv-elapsed").textContent = mmss(t);
    view.querySelector(".asb-pv-toggle").textContent = clock.running ? "Pause" :
      (t > 0 ? "Go on" : "Start the clock");
    // against the plan: before the block's start, ahead; inside it, the time left; past its end, behind
    var block = view.querySelector(".asb-pv-block"), said;
    if (t < b.start * 60) { said = mmss(b.start * 60 - t) + " ahead of the plan (this block starts at minute " + b.start + ")"; }
    else if (t <= b.end * 60) { said = mmss(b.end * 60 - t) + " left in this block"; }
    else { said = mmss(t - b.end * 60) + " behind the plan (this block ended at minute " + b.end + ")"; }
    block.textContent = b.title + " (" + b.times + "): " + said;
    block.classList.toggle("asb-pv-late", t > b.end * 60);
    var cue = view.querySelector(".asb-pv-cue");
    cue.textContent = !b.cut ? "" : (minute >= b.cut.at ? "You are past minute " + b.cut.at + ": " :
      "Cut cue, if you are past minute " + b.cut.at + ": ") + b.cut.skip + " (saves " + b.cut.saves + " min).";
    cue.classList.toggle("asb-pv-late", !!b.cut && minute >= b.cut.at);
  }
  function renderPresenter() {
    if (!view) { return; }
    var slide = slides[current];
    view.querySelector(".asb-pv-where").textContent = "Slide " + (current + 1) + " of " + slides.length +
      (blanked ? " · the screen is black" : "");
    var now = view.querySelector(".asb-pv-now"), next = view.querySelector(".asb-pv-upcoming");
    now.replaceChildren(frame(current, "asb-pv-this"));
    next.replaceChildren(frame(current + 1, "asb-pv-next-frame"));
    [[now, "Now"], [next, "Next"]].forEach(function (pair) {
      var heading = document.createElement("p");
      heading.className = "asb-pv-label";
      heading.textContent = pair[1];
      pair[0].prepend(heading);
    });
    var notes = view.querySelector(".asb-pv-notes");
    var own = slide.querySelector(".asb-notes");
    notes.innerHTML = own && own.innerHTML.trim() ? own.innerHTML : "<p>No notes for this slide.</p>";
    view.querySelector(".asb-pv-blank").textContent = blanked ? "Show the screen (B)" : "Black screen (B)";
    view.querySelector(".asb-pv-go").value = String(current);
    tick();
  }

  // --- start ------------------------------------------------------------------------------
  var toastBox = document.createElement("p");
  toastBox.className = "asb-deck-toast";
  toastBox.setAttribute("role", "status");
  toastBox.hidden = true;
  document.body.appendChild(toastBox);
  slides.forEach(function (s, k) {
    s.setAttribute("tabindex", "-1");
    var b = document.createElement("button");
    b.type = "button";
    b.className = "asb-deck-from";
    b.textContent = "Present from here";
    b.addEventListener("click", function () { start(k, true); });
    s.insertBefore(b, s.firstChild);
  });
  document.documentElement.classList.add("asb-deck-js");
  var showNotes = deck.querySelector(".asb-deck-show-notes");
  if (showNotes) {
    showNotes.checked = false;
    showNotes.addEventListener("change", function () { deck.classList.toggle("asb-deck-notes-shown", showNotes.checked); });
  }
  var startButton = deck.querySelector(".asb-deck-start");
  if (startButton) { startButton.addEventListener("click", function () { start(0, true); }); }
  var pvButton = deck.querySelector(".asb-deck-presenter");
  if (pvButton) { pvButton.addEventListener("click", openPresenter); }
  var m = /^#slide-(\d+)$/.exec(window.location.hash);
  var first = m ? Number(m[1]) - 1 : 0;
  if (presenter) {
    current = Math.max(0, Math.min(slides.length - 1, first));
    buildPresenter();
    counted = clock.running ? elapsed() : null;
    renderPresenter();
    send({ type: "hello" });
  } else if (m || /[?&]present(?:[=&]|$)/.test(window.location.search)) {
    start(first, false);
  }
})();
