/* Self-check quizzes (src/attention_scaling/quiz.py): feedback as soon as an answer is
   chosen, by mouse or keyboard (arrow keys move between the options of a question), and an
   answer code a student can hand in: the quiz's key, the first answer to each question
   (capital when right, small when wrong, "." when unanswered) and a check letter, computed
   here with the same rules as attention_scaling.quiz.answer_code.

   A lab page's prediction boxes (sphinx_ext._answer_spaces) keep what the student types in
   this browser (localStorage, keyed by the page and the box), so a reload or a visit to
   another page loses no prediction; a quiz keeps its answers the same way (the first answer
   to each question, which the code records, and the one shown now, with its feedback), keyed
   by the page, the quiz and the quiz's key (new questions start afresh). Where storage is
   refused both still work. */
(function () {
  "use strict";
  var LETTERS = "ABCDEFGHIJ";
  function checkLetter(body) {
    var n = 0;
    for (var i = 0; i < body.length; i++) { n += (i + 1) * body.charCodeAt(i); }
    return String.fromCharCode(65 + (n % 23));
  }
  function initQuiz(quiz) {
    var fieldsets = quiz.querySelectorAll(".asb-question");
    var first = [];
    var codeBox = quiz.querySelector(".asb-code");
    var codeValue = quiz.querySelector(".asb-code-value");
    function showCode() {
      var body = quiz.getAttribute("data-quiz-key") + "-" + first.map(function (a) {
        return a === null ? "." : (a.right ? LETTERS[a.index] : LETTERS[a.index].toLowerCase());
      }).join("");
      codeValue.textContent = body + "-" + checkLetter(body);
      quiz.classList.add("asb-answered");
      // hidden in the HTML, for where this script does not run (a live notebook): the
      // theme's [hidden] rule is !important, so the class alone cannot show it
      if (codeBox) { codeBox.hidden = false; }
    }
    var chosen = [], shows = [];
    var storeKey = "asb-quiz:" + location.pathname + "#" + quiz.id + ":" + quiz.getAttribute("data-quiz-key");
    function save() {
      try { window.localStorage.setItem(storeKey, JSON.stringify({first: first, chosen: chosen})); }
      catch (e) { /* full or refused: the page itself still holds the answers */ }
    }
    fieldsets.forEach(function (fieldset, qi) {
      first.push(null);
      chosen.push(null);
      var data = JSON.parse(fieldset.querySelector("script.asb-quiz-data").textContent);
      var feedback = fieldset.querySelector(".asb-feedback");
      function show(i) {
        var right = data.correct[i];
        feedback.textContent = (right ? "Correct. " : "Not quite. ") + data.why[i];
        // the built book typesets the feedback's maths at build time (whyHtml, escaped HTML)
        if (data.whyHtml) { feedback.innerHTML = (right ? "Correct. " : "Not quite. ") + data.whyHtml[i]; }
        feedback.className = "asb-feedback " + (right ? "asb-right" : "asb-wrong");
        if (!data.whyHtml && window.MathJax && MathJax.typesetPromise) { MathJax.typesetPromise([feedback]); }
        return right;
      }
      shows.push({data: data, show: show, inputs: fieldset.querySelectorAll('input[type="radio"]')});
      fieldset.querySelectorAll('input[type="radio"]').forEach(function (input) {
        input.addEventListener("change", function () {
          var i = Number(input.value);
          var right = show(i);
          chosen[qi] = i;
          if (first[qi] === null && codeValue) { first[qi] = {index: i, right: right}; showCode(); }
          save();
        });
      });
      fieldset.classList.add("asb-ready");
    });
    // the answers given on an earlier visit, checked against this quiz's questions
    var kept = null;
    try { kept = JSON.parse(window.localStorage.getItem(storeKey) || "null"); } catch (e) { kept = null; }
    if (kept && Array.isArray(kept.first) && Array.isArray(kept.chosen) &&
        kept.first.length === shows.length && kept.chosen.length === shows.length) {
      var answered = false;
      shows.forEach(function (q, qi) {
        var n = q.inputs.length;
        var c = kept.chosen[qi], f = kept.first[qi];
        if (Number.isInteger(c) && c >= 0 && c < n) {
          q.inputs[c].checked = true;
          q.show(c);
          chosen[qi] = c;
        }
        if (f && Number.isInteger(f.index) && f.index >= 0 && f.index < n) {
          first[qi] = {index: f.index, right: !!q.data.correct[f.index]};  // rightness from the page
          answered = true;
        }
      });
      if (answered && codeValue) { showCode(); }
    }
    var copy = quiz.querySelector(".asb-code-copy");
    if (copy && codeBox) {
      copy.addEventListener("click", function () {
        var range = document.createRange();
        range.selectNodeContents(codeValue);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(codeValue.textContent).then(function () {
            copy.textContent = "Copied";
          }, function () { copy.textContent = "Selected: press Ctrl+C"; });
        } else { copy.textContent = "Selected: press Ctrl+C"; }
      });
    }
  }
  function keepPrediction(box) {
    var key = "asb-prediction:" + location.pathname + "#" + box.id;
    try {
      var kept = window.localStorage.getItem(key);
      if (kept !== null && !box.value) { box.value = kept; }
    } catch (e) { return; }  // storage refused (a private window's policy, say)
    box.addEventListener("input", function () {
      try {
        if (box.value) { window.localStorage.setItem(key, box.value); }
        else { window.localStorage.removeItem(key); }
      } catch (e) { /* full or refused: the box itself still holds the text */ }
    });
  }

  /* Handing work in, with no server (issue 31). A page with prediction boxes or a quiz ends
     with a button that saves the student's answers on this page as a JSON file; the
     instructor page's .asb-tally reads such files, and codes pasted in, in the browser. */
  var FORMAT = "attention-scaling-answers/1";
  function sectionOf(e) {
    var section = e.closest("section");
    var heading = section && section.querySelector("h1, h2, h3, h4");
    return heading ? heading.textContent.replace(/[#\u00b6]/g, "").trim() : "";
  }
  function answersHere() {
    var page = location.pathname.split("/").slice(-2).join("/");
    return {
      format: FORMAT, page: page, title: document.title, saved: new Date().toISOString(),
      predictions: Array.prototype.map.call(document.querySelectorAll(".asb-prediction textarea[id]"), function (box) {
        return {id: box.id, section: sectionOf(box), text: box.value};
      }),
      quizzes: Array.prototype.map.call(document.querySelectorAll(".asb-quiz"), function (quiz) {
        var code = quiz.querySelector(".asb-code-value");
        return {id: quiz.id, key: quiz.getAttribute("data-quiz-key"), code: code ? code.textContent : ""};
      })
    };
  }
  // The button goes under the last quiz's answer code (shown once a question is answered), or,
  // on a page with predictions and no quiz (a lab), at the end of the page.
  function addSaveButton() {
    var article = document.querySelector("article.bd-article");
    if (!article || !article.querySelector(".asb-prediction textarea[id], .asb-quiz")) { return; }
    var codes = article.querySelectorAll(".asb-quiz .asb-code");
    var box = document.createElement("div");
    box.className = "asb-collect" + (codes.length ? " asb-collect-quiz" : "");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Save my answers to a file";
    var said = document.createElement("p");
    said.className = "asb-collect-note";
    said.textContent = "Your predictions and quiz codes on this page, as a file to hand in (nothing is sent anywhere).";
    button.addEventListener("click", function () {
      var data = answersHere();
      var blob = new Blob([JSON.stringify(data, null, 1) + "\n"], {type: "application/json"});
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "answers-" + data.page.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/\.html$/, "") + ".json";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
    });
    box.appendChild(button);
    box.appendChild(said);
    (codes.length ? codes[codes.length - 1] : article).appendChild(box);
  }

  // attention_scaling.quiz.read_code and tally, line for line: the same table in the page
  var CODE = /^([A-Z2-7]{4})-([A-Ja-j.]+)-([A-W])$/;
  function readCode(code) {
    var t = code.trim(), text = t.slice(0, 4).toUpperCase() + t.slice(4), m = CODE.exec(text);
    if (!m || checkLetter(m[1] + "-" + m[2]) !== m[3]) { return null; }
    return {key: m[1], answers: m[2].split("").map(function (c) {
      return c === "." ? null : {index: LETTERS.indexOf(c.toUpperCase()), right: c !== c.toLowerCase()};
    })};
  }
  function pyRepr(s) {  // Python's repr of a string, for the codes that cannot be read
    var q = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'";
    return q + s.replace(/\\/g, "\\\\").replace(q === "'" ? /'/g : /"/g, "\\" + q) + q;
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
        var box = page.boxes[p.id] = page.boxes[p.id] || {section: p.section, texts: []};
        if (String(p.text || "").trim()) { box.texts.push(String(p.text).trim()); }
      });
      if (pages[f.page]) { pages[f.page].files += 1; }
    });
    Object.keys(pages).sort().forEach(function (name) {
      var page = pages[name], h = document.createElement("p");
      h.className = "asb-tally-page";
      h.textContent = "Predictions on " + name + ": " + page.files + " files";
      out.appendChild(h);
      Object.keys(page.boxes).sort(function (a, b) { return a.localeCompare(b, "en", {numeric: true}); }).forEach(function (id) {
        var box = page.boxes[id], d = document.createElement("details"), s = document.createElement("summary");
        s.textContent = id.replace("asb-prediction-", "Box ") + (box.section ? " (" + box.section + ")" : "") +
          ": " + box.texts.length + " of " + page.files + " written";
        d.appendChild(s);
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
    label.textContent = "Answer codes, one per line (or separated by spaces or commas)";
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
      var codes = pasted.value.split(/[\s,;]+/).filter(Boolean), problems = [];
      Promise.all(Array.prototype.map.call(files.files || [], function (file) {
        return file.text().then(function (text) {
          var data;
          try { data = JSON.parse(text); } catch (e) { data = null; }
          if (!data || data.format !== FORMAT) { problems.push(file.name); return null; }
          return data;
        });
      })).then(function (read) {
        var saved = read.filter(Boolean);
        saved.forEach(function (f) {
          (f.quizzes || []).forEach(function (q) { if (q.code) { codes.push(String(q.code)); } });
        });
        out.textContent = tally(codes) + (problems.length ? "\nNot a saved answers file: " + problems.join(", ") : "");
        more.replaceChildren(predictionsTable(saved));
      });
    });
  }

  function start() {
    document.querySelectorAll(".asb-quiz").forEach(initQuiz);
    document.querySelectorAll(".asb-prediction textarea[id]").forEach(keepPrediction);
    addSaveButton();
    document.querySelectorAll(".asb-tally").forEach(initTally);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
