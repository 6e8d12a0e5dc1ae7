/* The instructor page's tally (book/teach-with-this-book.md, its .asb-tally), in the browser with
   no Python: answer codes pasted in (the code-shaped words of any text) and the files students
   saved with "Save my answers to a file" (_static/quiz.js) give the table of
   attention_scaling.quiz.tally, character for character, then each prediction box with its
   task, how many wrote one and what each wrote. Only that page keeps this script
   (attention_book.pagespeed drops it from the others). */
(function () {
  "use strict";
  // quiz.js's helpers, read once the page is parsed (by then every deferred script has run,
  // in whatever order the page lists them)
  var checkLetter, LETTERS, FORMAT;

  // attention_scaling.quiz.read_code and tally, line for line
  var CODE = /^([A-Z2-7]{4})-([A-Ja-j.]+)-([A-W])$/;
  function readCode(code) {
    var t = code.trim(), text = t.slice(0, 4).toUpperCase() + t.slice(4), m = CODE.exec(text);
    if (!m || checkLetter(m[1] + "-" + m[2]) !== m[3]) { return null; }
    return {key: m[1], answers: m[2].split("").map(function (c) {
      return c === "." ? null : {index: LETTERS.indexOf(c.toUpperCase()), right: c !== c.toLowerCase()};
    })};
  }
  // Python's repr of a string, for the codes that cannot be read: its quotes, and escapes for
  // what Python does not print (str.isprintable: controls, format characters such as a
  // zero-width space, separators other than the space), so that an unreadable code shows why
  var HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
  function pyRepr(s) {
    var q = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'", out = "";
    Array.from(s).forEach(function (c) {
      var n = c.codePointAt(0), hex = n.toString(16);
      if (c === "\\" || c === q) { out += "\\" + c; }
      else if (c === "\t") { out += "\\t"; } else if (c === "\n") { out += "\\n"; } else if (c === "\r") { out += "\\r"; }
      else if (c !== " " && HIDDEN.test(c)) {
        out += n < 0x100 ? "\\x" + ("0" + hex).slice(-2) : n < 0x10000 ? "\\u" + ("000" + hex).slice(-4)
          : "\\U" + ("0000000" + hex).slice(-8);
      } else { out += c; }
    });
    return q + out + q;
  }
  function percent(x) {  // Python's format(x, ".0f"): halves to even
    var f = Math.floor(x), d = x - f;
    return String(d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f);
  }
  function tally(codes) {
    var read = {}, bad = [], lines = [];
    codes.forEach(function (code) {
      var c = readCode(code);
      if (c === null) { bad.push(code); } else { (read[c.key] = read[c.key] || []).push(c); }
    });
    Object.keys(read).sort().forEach(function (key) {
      var group = read[key];
      lines.push("Quiz " + key + ": " + group.length + " codes");
      var n = Math.max.apply(null, group.map(function (c) { return c.answers.length; }));
      for (var qi = 0; qi < n; qi++) {
        var given = group.map(function (c) { return c.answers[qi]; }).filter(function (a) { return a; });
        var right = given.filter(function (a) { return a.right; }).length, counts = {};
        given.forEach(function (a) { counts[a.index] = (counts[a.index] || 0) + 1; });
        lines.push("  Q" + (qi + 1) + ": " + given.length + " answered, " +
                   (given.length ? percent(100 * right / given.length) + " % right first time" : "no answers"));
        Object.keys(counts).map(Number).sort(function (a, b) { return a - b; }).forEach(function (i) {
          lines.push("    " + LETTERS[i] + ": " + counts[i]);
        });
      }
    });
    if (bad.length) { lines.push("Unreadable codes (" + bad.length + "): " + bad.map(pyRepr).join(", ")); }
    return lines.length ? lines.join("\n") : "No codes.";
  }
  function predictionsTable(files) {  // per page and box: how many wrote one, and what they wrote
    var out = document.createElement("div"), pages = {};
    files.forEach(function (f) {
      (f.predictions || []).forEach(function (p) {
        var page = pages[f.page] = pages[f.page] || {files: 0, boxes: {}};
        var box = page.boxes[p.id] = page.boxes[p.id] || {section: p.section, prompt: p.prompt, texts: []};
        var who = String(f.name || "").trim();
        if (String(p.text || "").trim()) { box.texts.push((who ? who + ": " : "") + String(p.text).trim()); }
      });
      if (pages[f.page]) { pages[f.page].files += 1; }
    });
    Object.keys(pages).sort().forEach(function (name) {
      var page = pages[name], h = document.createElement("p");
      h.className = "asb-tally-page";
      h.textContent = "Predictions on " + name + ": " + page.files + " files";
      out.appendChild(h);
      // in the page's order (the files list their boxes as the page does); a box's id names its
      // section, so that answers saved before a task gained or lost a box still meet
      Object.keys(page.boxes).forEach(function (id, k) {
        var box = page.boxes[id], d = document.createElement("details"), s = document.createElement("summary");
        s.textContent = "Box " + (k + 1) + (box.section ? " (" + box.section + ")" : "") +
          ": " + box.texts.length + " of " + page.files + " written";
        d.appendChild(s);
        if (box.prompt) {
          var asked = document.createElement("p");
          asked.className = "asb-tally-prompt";
          asked.textContent = box.prompt;
          d.appendChild(asked);
        }
        var list = document.createElement("ul");
        box.texts.forEach(function (t) { var li = document.createElement("li"); li.textContent = t; list.appendChild(li); });
        d.appendChild(list);
        out.appendChild(d);
      });
    });
    return out;
  }
  function initTally(root) {
    root.replaceChildren();
    var label = document.createElement("label"), pasted = document.createElement("textarea");
    pasted.id = "asb-tally-codes";
    pasted.rows = 4;
    label.htmlFor = pasted.id;
    label.textContent = "Answer codes collected some other way (a poll, the chat): paste them; other words are left out";
    var fileLabel = document.createElement("label"), files = document.createElement("input");
    files.type = "file";
    files.id = "asb-tally-files";
    files.multiple = true;
    files.accept = ".json,application/json";
    fileLabel.htmlFor = files.id;
    fileLabel.textContent = "Files the students saved (\u201cSave my answers to a file\u201d)";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Tally";
    var out = document.createElement("pre"), more = document.createElement("div");
    out.className = "asb-tally-out";
    out.setAttribute("aria-live", "polite");
    more.className = "asb-tally-predictions";
    [label, pasted, fileLabel, files, button, out, more].forEach(function (e) { root.appendChild(e); });
    button.addEventListener("click", function () {
      out.textContent = "";
      more.replaceChildren();
      var found = codesIn(pasted.value), chosen = Array.prototype.slice.call(files.files || []);
      Promise.all(chosen.map(function (file) {
        return file.text().then(function (text) {
          try { return JSON.parse(text); } catch (e) { return null; }
        }, function () { return null; });
      })).then(function (read) {
        var problems = chosen.filter(function (file, i) { return !savedFile(read[i]); }).map(function (f) { return f.name; });
        var kept = newestPerStudent(read.filter(savedFile)), codes = found.codes.slice();
        kept.files.forEach(function (f) {
          f.quizzes.forEach(function (q) { if (q.code) { codes.push(String(q.code)); } });
        });
        var notes = [];
        if (found.words) { notes.push(found.words + " pasted words were not codes and were left out"); }
        if (kept.dropped) { notes.push(kept.dropped + " files were older copies of another file (same name and page) and were left out"); }
        if (problems.length) { notes.push("Not a saved answers file: " + problems.join(", ")); }
        out.textContent = tally(codes) + (notes.length ? "\n" + notes.join("\n") : "");
        more.replaceChildren(predictionsTable(kept.files));
      });
    });
  }

  // The codes in pasted text (a chat's lines, say): the words shaped like a code (KEY-answers-C),
  // less the punctuation after them; what is shaped like one but cannot be read is reported.
  function codesIn(text) {
    var codes = [], words = 0;
    text.split(/[\s,;]+/).filter(Boolean).forEach(function (w) {
      var t = w.replace(/[.,;:!?)\]'"]+$/, "").replace(/^[(\['"]+/, "");
      if (/^[A-Za-z0-9]{4}-[^-]+-[A-Za-z]$/.test(t)) { codes.push(t); } else { words += 1; }
    });
    return {codes: codes, words: words};
  }
  function savedFile(data) {
    return !!data && data.format === FORMAT && typeof data.page === "string" &&
      Array.isArray(data.predictions) && Array.isArray(data.quizzes) &&
      data.predictions.every(function (p) { return p && typeof p.id === "string"; }) &&
      data.quizzes.every(function (q) { return q && typeof q === "object"; });
  }
  // One file per student and page: the newest of those with the same name and page, and one
  // of any files with the same content (the same file chosen twice).
  function newestPerStudent(files) {
    var best = {}, order = [], dropped = 0;
    files.forEach(function (f) {
      var who = String(f.name || "").trim().toLowerCase();
      var id = who ? "name:" + who + "|" + f.page : "same:" + JSON.stringify([f.page, f.saved, f.predictions, f.quizzes]);
      if (!(id in best)) { best[id] = f; order.push(id); return; }
      dropped += 1;
      if (String(f.saved) > String(best[id].saved)) { best[id] = f; }
    });
    return {files: order.map(function (id) { return best[id]; }), dropped: dropped};
  }

  function start() {
    var shared = window.asbAnswers;
    if (!shared) { return; }
    checkLetter = shared.checkLetter;
    LETTERS = shared.LETTERS;
    FORMAT = shared.FORMAT;
    document.querySelectorAll(".asb-tally").forEach(initTally);
  }
  // quiz.js may come later in the page: deferred scripts all run before DOMContentLoaded
  if (document.readyState === "loading" || !window.asbAnswers) {
    document.addEventListener("DOMContentLoaded", start);
  } else { start(); }
})();
