/* Accessibility fix-ups for markup that extensions generate at run time.
   sphinx-togglebutton labels every "Show code cell source" toggle "Toggle hidden
   content", so the accessible name does not contain the visible text (WCAG 2.5.3,
   axe-core label-content-name-mismatch). Without the aria-label the name is the
   visible text itself. */
(function () {
  "use strict";
  function fix() {
    document.querySelectorAll("details.hide > summary[aria-label]").forEach(function (s) {
      s.removeAttribute("aria-label");
    });
  }
  if (document.readyState === "complete") { fix(); } else { window.addEventListener("load", fix); }
})();

/* A formula is a Tab stop only while it scrolls. The build typesets every formula as a focusable
   container (attention_book/mathjax_prerender), as the browser's MathJax does, so that a keyboard
   user can scroll one wider than its line (axe: scrollable-region-focusable). But a page has a
   hundred formulas and a few, on a phone, scroll: the others leave the Tab order, and come back
   when a resize makes them scroll. Formulas inside players and quizzes are their own scripts'. */
(function () {
  "use strict";
  function scrolls(m) {
    var box = m.closest("span.math") || m;
    return box.scrollWidth > box.clientWidth + 1 || m.scrollWidth > m.clientWidth + 1;
  }
  function update() {
    // Every formula is measured first, then the attributes change: measuring after a change
    // would lay the page out again, once per formula (530 ms of a phone's main thread).
    var formulas = [];
    document.querySelectorAll("article mjx-container").forEach(function (m) {
      if (m.closest(".asb-player")) { return; }
      // Inside a closed fold a formula is neither shown nor reachable, and measuring it would
      // lay the fold out (and fetch the fonts it needs, 40 kB for one formula): it waits.
      var closed = m.closest("details:not([open])");
      var folded = closed && !(m.closest("summary") && m.closest("summary").parentElement === closed);
      formulas.push([m, !folded && scrolls(m)]);
    });
    formulas.forEach(function (f) {
      var on = f[0].getAttribute("tabindex") === "0";
      if (f[1] && !on) { f[0].setAttribute("tabindex", "0"); }
      if (!f[1] && f[0].hasAttribute("tabindex")) { f[0].removeAttribute("tabindex"); }
    });
  }
  var pending = null;
  function later() { if (pending) { clearTimeout(pending); } pending = setTimeout(update, 150); }
  if (document.readyState === "complete") { update(); } else { window.addEventListener("load", update); }
  window.addEventListener("resize", later);
  // a fold or a tab that opens shows formulas laid out for the first time, and the fonts they
  // need arrive after it (a formula's width changes when they do)
  document.addEventListener("toggle", later, true);
  if (document.fonts && document.fonts.addEventListener) { document.fonts.addEventListener("loadingdone", later); }
})();

/* Search excerpts. Sphinx 7.4 shows, under each hit, the text at the hit's anchor; an index
   entry's anchor is an empty target, so the excerpt is null, appending it throws, and the
   hit shows no text. Such a hit gets the page's own text around the search words instead. */
(function () {
  "use strict";
  function patch() {  // searchtools.js loads after this file, and searches once the page is parsed
    if (typeof Search === "undefined" || typeof Search.makeSearchSummary !== "function") { return; }
    var make = Search.makeSearchSummary;
    Search.makeSearchSummary = function (html, keywords, anchor) {
      return make(html, keywords, anchor) || make(html, keywords, "") || document.createElement("p");
    };
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", patch); } else { patch(); }
})();
