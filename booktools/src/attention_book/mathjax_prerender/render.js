#!/usr/bin/env node
/* Typeset TeX at build time with MathJax 3.2.2 (mathjax-full, pinned in package-lock.json),
   as the browser's tex-chtml.js would: CHTML output with assistive MathML for screen readers.
   Called by attention_book.sphinx_ext.prerender_maths after the build.

   stdin:  {"items": [[tex, display], ...], "fontURL": "<URL of the woff-v2 fonts, relative to the CSS>",
            "scale": <font-size of the maths relative to the text>}
   stdout: {"html": [<mjx-container ...>, ...], "css": <one stylesheet for every item>,
            "errors": [[index, message], ...]}
   Every item is typeset in one MathJax document, so the stylesheet holds the rules for every
   character used, once. */
"use strict";
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { CHTML } = require("mathjax-full/js/output/chtml.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const adaptor = liteAdaptor();
  AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
  // The browser's defaults, with every package loaded up front (it autoloads them) except
  // noerrors, so that a TeX error is reported (and fails the build) instead of hidden.
  const tex = new TeX({ packages: AllPackages.filter((p) => p !== "noerrors" && p !== "bussproofs") });
  // scale: the browser's MathJax matches the ex-height of the page's font (system-ui), which
  // gave 127.3 % on every formula of the book; the pre-typeset maths keeps that size.
  const chtml = new CHTML({ fontURL: request.fontURL, adaptiveCSS: true, scale: request.scale || 1 });
  const doc = mathjax.document("", { InputJax: tex, OutputJax: chtml });
  const html = [], errors = [];
  request.items.forEach(([source, display], i) => {
    const node = doc.convert(source, { display: !!display, em: 16, ex: 8, containerWidth: 80 * 16 });
    // A Tab stop, as the browser's MathJax makes every formula: a formula wider than its line
    // scrolls (book.css), and a keyboard user reaches it (axe: scrollable-region-focusable).
    adaptor.setAttribute(node, "tabindex", "0");
    const out = adaptor.outerHTML(node);
    const error = adaptor.tags(node, "mjx-merror")[0];
    if (error) { errors.push([i, adaptor.getAttribute(error, "data-mjx-error") || adaptor.textContent(error)]); }
    html.push(out);
  });
  const css = adaptor.textContent(chtml.styleSheet(doc));
  process.stdout.write(JSON.stringify({ html, css, errors }));
});
