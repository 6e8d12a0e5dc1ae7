/* The book's navigation: sidebar toggles that work at every width, the contents' highlight
   in step with the reading, and table fades that hide no text.

   Sidebar toggles.
   pydata-sphinx-theme 0.17 opens its sidebar dialogs from the first .primary-toggle and
   .secondary-toggle in the page only (document.querySelector), and that one is the hidden
   button of its own header; sphinx-book-theme's visible buttons in the article header get no
   listener, so on a phone the chapter list and the contents never open, and on a wide screen
   the sidebar never collapses (pydata-sphinx-theme issue 2451). This script handles a click
   on every toggle itself, in the capture phase, before the theme's listeners hear it:
   - ☰ on a wide screen (≥ 992 px, where the sidebar sits beside the text) hides or shows
     the sidebar (sphinx-book-theme's .pst-sidebar-hidden rule);
   - ☰ on a narrower screen, and the contents button, open the theme's sidebar <dialog>,
     moving the sidebar's content into it as the theme does; Escape, a click on the backdrop
     or on a link closes it, and the content goes back.

   Search snippets. Sphinx's search page quotes each hit from the page's text
   (Search.htmlToText, which reads textContent), and the maths is prerendered by MathJax, so a
   formula's text is its hidden MathML run together: "ceiling 14" for a quarter, "Pi(1−Pi)".
   Before the theme's search reads a page, each formula is replaced by a linear form of its
   MathML: 1/4, P₁(1−P₁), e^(z₁), sech²(z/c), √(d_k); and the page's chrome (toolbar,
   contents, previous/next) is left out, so that a snippet quotes the page's text. */
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
      // focus shows the button's tooltip, which on a phone lay over the next button
      var tip = window.bootstrap && window.bootstrap.Tooltip && window.bootstrap.Tooltip.getInstance(button);
      if (tip) tip.hide();
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
      }
      document.querySelectorAll("." + kind + "-toggle").forEach(function (button) {
        button.setAttribute("aria-expanded", "false");
        button.setAttribute("aria-controls", "pst-" + kind + "-sidebar");
      });
    });
    // The listeners that must come before the theme's sit on the document in the capture
    // phase, which runs before any listener on the button or the dialog itself, whatever the
    // order the scripts ran in. (The theme's deferred script registers its listeners before
    // this one's DOMContentLoaded, and on the search page, which has no article header, the
    // visible ☰ is the very button the theme listens to: there its listener opened the
    // dialog, its own close handler moved the content back with the 0.25 s slide-out, and a
    // loaded machine was seen showing the closed sidebar over the page for over 10 s.)
    if (document.documentElement.dataset.asbNav) return;
    document.documentElement.dataset.asbNav = "1";
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest(".primary-toggle, .secondary-toggle");
      if (!button) return;
      event.preventDefault();
      event.stopPropagation();   // the theme's listener on the button never hears it
      var kind = button.classList.contains("primary-toggle") ? "primary" : "secondary";
      if (kind === "primary" && WIDE.matches && sidebar) {
        var hidden = sidebar.classList.toggle("pst-sidebar-hidden");
        button.setAttribute("aria-expanded", hidden ? "false" : "true");
      } else {
        openDialog(kind, button);
      }
    }, true);
    // Closing, the content goes back to its sidebar at once, without the slide-out from the
    // classless state the dialog left the sidebar in; the theme's handler then finds
    // nothing to move. The transition comes back on the next frame.
    document.addEventListener("close", function (event) {
      var m = /^pst-(primary|secondary)-sidebar-modal$/.exec(event.target.id || "");
      if (!m) return;
      var dialog = event.target, home = document.getElementById("pst-" + m[1] + "-sidebar");
      if (!home || !dialog.childNodes.length) return;
      home.style.transition = "none";
      move(dialog, home);
      void home.offsetWidth;
      requestAnimationFrame(function () { home.style.transition = ""; });
    }, true);
    // Escape closes an open sidebar dialog wherever the focus is (a click on the page can
    // take it out of the dialog, and then a listener on the dialog never hears the key)
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") return;
      ["primary", "secondary"].forEach(function (kind) {
        var dialog = document.getElementById("pst-" + kind + "-sidebar-modal");
        if (dialog && dialog.open) { event.preventDefault(); dialog.close(); }
      });
    }, true);
    // a collapsed sidebar on a wide screen says so on its toggle
    if (sidebar) {
      document.querySelectorAll(".primary-toggle").forEach(function (b) {
        b.setAttribute("aria-expanded", WIDE.matches ? "true" : "false");
      });
    }
  }

  /* The contents' highlight follows the section being read: the last heading above a line a
     quarter of the way down the text's window (below the sticky article header), or the
     last heading in view at the foot of the page. The theme's IntersectionObserver marks a
     heading only when it crosses the top 30 % of the window (measured from a top bar that
     is not sticky here), keeps the old mark while a long section is read, and on the way
     back up keeps the later one: the highlight lagged sections behind. The theme still
     runs; whatever it marks is corrected at once (a MutationObserver). */
  function setUpContents() {
    var toc = document.getElementById("pst-page-toc-nav");
    if (!toc) return;
    var links = Array.from(toc.querySelectorAll("a[href^='#']"));
    var pairs = links.map(function (a) {
      var target = document.getElementById(decodeURIComponent(a.hash.slice(1)));
      var heading = target && (target.matches("h1,h2,h3,h4,h5,h6") ? target : target.querySelector("h1,h2,h3,h4,h5,h6"));
      return heading ? { link: a, heading: heading } : null;
    }).filter(Boolean);
    if (!pairs.length) return;
    var entries = Array.from(toc.querySelectorAll(".toc-entry"));
    var current = null, busy = false;

    function reading() {
      var bar = document.querySelector(".bd-header-article");
      var top = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
      var line = top + (window.innerHeight - top) * 0.25;
      var atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      var found = pairs[0];
      pairs.forEach(function (p) {
        if (!p.heading.getClientRects().length) return;   // inside a closed fold
        var y = p.heading.getBoundingClientRect().top;
        if (y <= line || (atEnd && y < window.innerHeight)) found = p;
      });
      return found.link;
    }

    function mark() {
      var link = reading();
      var right = link.classList.contains("active") &&
                  links.every(function (a) { return a === link || !a.classList.contains("active"); });
      if (right && link === current) return;
      busy = true;
      links.forEach(function (a) {
        a.classList.toggle("active", a === link);
        if (a === link) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
      });
      entries.forEach(function (e) { e.classList.toggle("active", e.contains(link)); });
      current = link;
      busy = false;
    }

    var queued = false;
    window.addEventListener("scroll", function () {
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () { queued = false; mark(); });
    }, { passive: true });
    window.addEventListener("resize", mark);
    new MutationObserver(function () { if (!busy) mark(); })
      .observe(toc, { subtree: true, attributes: true, attributeFilter: ["class"] });
    mark();
  }

  /* A table or formula that scrolls sideways fades at its cut edge (book.css); the fade is
     at most as wide as the scroller can scroll, so no text stays under it at either end.
     Every box is measured first, then only the changed ones are written: a write between two
     measures would lay the page out again, once per formula (0.7 s of a phone's main thread
     on the longest chapter), and a new custom property restyles every element of a formula.
     A box inside a closed fold is not measured (that would lay the hidden fold out, thousands
     of elements a fold): it is when the fold opens. */
  function setFades() {
    var boxes = Array.prototype.filter.call(document.querySelectorAll(".pst-scrollable-table-container, div.math"),
                                            function (e) { return !e.closest("details:not([open])"); });
    var rooms = boxes.map(function (e) { return e.scrollWidth - e.clientWidth; });
    boxes.forEach(function (e, i) {
      var room = rooms[i];
      var fade = room > 0 ? "min(3rem, " + room + "px)" : "";
      if (e.style.getPropertyValue("--asb-fade") !== fade) {
        if (fade) e.style.setProperty("--asb-fade", fade); else e.style.removeProperty("--asb-fade");
      }
      // a table with columns out of sight says so in words too (book.css: .asb-wide)
      if (e.classList.contains("pst-scrollable-table-container") && e.classList.contains("asb-wide") !== room > 16) {
        e.classList.toggle("asb-wide", room > 16);
      }
    });
  }

  /* "Going deeper" folds (folds.py) open by themselves when the reader is sent inside one:
     the address's #anchor on load, a link or the contents clicked, and before printing. */
  function openFoldsAround(id) {
    var target = id && document.getElementById(id);
    for (var e = target; e; e = e.parentElement) {
      if (e.matches && e.matches("details.asb-deeper")) e.open = true;
    }
  }

  function setUpFolds() {
    if (!document.querySelector("details.asb-deeper")) return;
    var fromHash = function () { openFoldsAround(decodeURIComponent(location.hash.slice(1))); };
    fromHash();
    window.addEventListener("hashchange", fromHash);
    document.addEventListener("click", function (event) {
      var a = event.target.closest && event.target.closest("a[href*='#']");
      if (!a || a.pathname !== location.pathname) return;
      openFoldsAround(decodeURIComponent(a.hash.slice(1)));
    }, true);
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("details.asb-deeper").forEach(function (d) { d.open = true; });
    });
  }

  var SUB = { "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈",
              "9": "₉", "+": "₊", "-": "₋", "−": "₋", "i": "ᵢ", "j": "ⱼ", "k": "ₖ", "n": "ₙ" };
  var SUP = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸",
              "9": "⁹", "+": "⁺", "-": "⁻", "−": "⁻", "n": "ⁿ", "i": "ⁱ", "T": "ᵀ", "⊤": "ᵀ" };

  function small(text, table, mark) {
    /* x₁ or x²; where a character has no small form, x_(ij) or x^(n+1) */
    var chars = Array.from(text);
    if (chars.length && chars.every(function (c) { return table[c]; })) {
      return chars.map(function (c) { return table[c]; }).join("");
    }
    return mark + (chars.length > 1 ? "(" + text + ")" : text);
  }

  function grouped(text) { return /[\s+\-−=×·\/,]/.test(text) ? "(" + text + ")" : text; }

  function linear(node) {
    /* A MathML element as one line of text. */
    if (node.nodeType === 3) return node.textContent;
    if (node.nodeType !== 1) return "";
    var kids = Array.from(node.children), name = node.localName, t = kids.map(linear);
    switch (name) {
      case "mi": case "mn": case "mo": case "mtext": case "ms": return node.textContent.trim();
      case "mfrac": return grouped(t[0]) + "/" + grouped(t[1]);
      case "msup": return t[0] + small(t[1], SUP, "^");
      case "msub": return t[0] + small(t[1], SUB, "_");
      case "msubsup": return t[0] + small(t[1], SUB, "_") + small(t[2], SUP, "^");
      case "msqrt": return "√" + grouped(t.join(""));
      case "mroot": return small(t[1], SUP, "^") + "√" + grouped(t[0]);
      case "mover":  // a hat stays a hat (q̂); other accents and limits keep the base
        return t[0] + (/^[\^ˆ]$/.test(t[1]) ? "\u0302" : "");
      case "munder": case "munderover": return t[0];
      case "mtable": return kids.map(linear).join("; ");
      case "mtr": return t.join(" ");
      case "annotation": case "annotation-xml": return "";
      default: return t.join("");
    }
  }

  function linearMaths(root) {
    /* Replace every prerendered formula under root by its linear text. */
    root.querySelectorAll("mjx-container").forEach(function (box) {
      var maths = box.querySelector("math");
      box.replaceWith(document.createTextNode(maths ? linear(maths) : box.textContent));
    });
  }

  var CHROME = ".bd-header-article, .bd-sidebar-secondary, .prev-next-area, .onlyprint, " +
               ".bd-footer-article, .bd-footer-content, .d-print-none, .visually-hidden, .sr-only";

  function setUpSearch() {
    // searchtools.js declares Search with const: a global binding, not a property of window
    var search = typeof Search !== "undefined" ? Search : null;
    if (!search || typeof search.htmlToText !== "function" || search.asbLinear) return;
    var htmlToText = search.htmlToText;
    // Opened from disk, the browser refuses the page fetches that quote each hit (file://),
    // and every refusal was an error in the console: a page on disk is not asked for, and
    // the hits are listed without an excerpt (an empty page gives Sphinx no summary to add).
    if (location.protocol === "file:" && window.fetch && !window.fetch.asbQuiet) {
      var realFetch = window.fetch.bind(window);
      var quietFetch = function (input, init) {
        var url = new URL(typeof input === "string" ? input : input.url, location.href);
        return url.protocol === "file:" ? Promise.resolve(new Response("")) : realFetch(input, init);
      };
      quietFetch.asbQuiet = true;
      window.fetch = quietFetch;
    }
    search.htmlToText = function (htmlString, anchor) {
      var doc = new DOMParser().parseFromString(htmlString, "text/html");
      // the page's chrome inside the theme's main element is not its text: the article's
      // toolbar (".ipynb .md .pdf"), the contents ("Contents …"), the previous/next links,
      // the print-only header, and the players' screen-reader copies of their readouts
      doc.querySelectorAll(CHROME).forEach(function (e) { e.remove(); });
      linearMaths(doc);
      return htmlToText.call(search, doc.documentElement.outerHTML, anchor);
    };
    search.asbLinear = true;
  }

  function start() {
    // on the search page this script may load before searchtools.js: by now both have run,
    // and Sphinx's search, which starts on the same event, fetches its pages later
    setUpSearch();
    setUp();
    setUpContents();
    setUpFolds();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  window.addEventListener("load", setFades);
  window.addEventListener("resize", setFades);
  document.addEventListener("toggle", function (event) { if (event.target.open) setFades(); }, true);
})();
