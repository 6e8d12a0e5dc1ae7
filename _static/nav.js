/* Sidebar toggles that work at every width.
   pydata-sphinx-theme 0.17 opens its sidebar dialogs from the first .primary-toggle and
   .secondary-toggle in the page only (document.querySelector), and that one is the hidden
   button of its own header; sphinx-book-theme's visible buttons in the article header get no
   listener, so on a phone the chapter list and the contents never open, and on a wide screen
   the sidebar never collapses (pydata-sphinx-theme issue 2451). This script runs before the
   theme's (it is loaded earlier, deferred) and handles a click on every toggle itself:
   - ☰ on a wide screen (≥ 992 px, where the sidebar sits beside the text) hides or shows
     the sidebar (sphinx-book-theme's .pst-sidebar-hidden rule);
   - ☰ on a narrower screen, and the contents button, open the theme's sidebar <dialog>,
     moving the sidebar's content into it as the theme does; Escape, a click on the backdrop
     or on a link closes it, and the content goes back. */
(function () {
  "use strict";
  var WIDE = window.matchMedia("(min-width: 992px)");

  function move(from, to) {
    Array.from(from.childNodes).forEach(function (n) { to.appendChild(n); });
    Array.from(from.classList).forEach(function (c) { from.classList.remove(c); to.classList.add(c); });
  }

  function openDialog(kind, button) {
    var dialog = document.getElementById("pst-" + kind + "-sidebar-modal");
    var sidebar = document.getElementById("pst-" + kind + "-sidebar");
    if (!dialog || !sidebar || dialog.open) return;
    move(sidebar, dialog);
    dialog.showModal();
    dialog.addEventListener("close", function () {
      if (dialog.childNodes.length) move(dialog, sidebar);   // unless the theme moved it back
      button.setAttribute("aria-expanded", "false");
      button.focus();
    }, { once: true });
    button.setAttribute("aria-expanded", "true");
  }

  function setUp() {
    var sidebar = document.getElementById("pst-primary-sidebar");
    ["primary", "secondary"].forEach(function (kind) {
      var dialog = document.getElementById("pst-" + kind + "-sidebar-modal");
      if (dialog && !dialog.dataset.asbNav) {
        dialog.dataset.asbNav = "1";
        dialog.addEventListener("click", function (event) {
          var r = dialog.getBoundingClientRect();
          var outside = event.clientX < r.left || event.clientX > r.right ||
                        event.clientY < r.top || event.clientY > r.bottom;
          if (outside || event.target.closest("a[href]")) dialog.close();
        });
        dialog.addEventListener("keydown", function (event) {
          if (event.key === "Escape") { event.preventDefault(); dialog.close(); }
        });
      }
      document.querySelectorAll("." + kind + "-toggle").forEach(function (button) {
        button.setAttribute("aria-expanded", "false");
        button.setAttribute("aria-controls", "pst-" + kind + "-sidebar");
        // before the theme's own listener (registered later), which must not open it twice
        button.addEventListener("click", function (event) {
          event.preventDefault();
          event.stopImmediatePropagation();
          if (kind === "primary" && WIDE.matches && sidebar) {
            var hidden = sidebar.classList.toggle("pst-sidebar-hidden");
            button.setAttribute("aria-expanded", hidden ? "false" : "true");
          } else {
            openDialog(kind, button);
          }
        });
      });
    });
    // a collapsed sidebar on a wide screen says so on its toggle
    if (sidebar) {
      document.querySelectorAll(".primary-toggle").forEach(function (b) {
        b.setAttribute("aria-expanded", WIDE.matches ? "true" : "false");
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
