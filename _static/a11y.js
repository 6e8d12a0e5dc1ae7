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
