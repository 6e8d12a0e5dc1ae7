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
  // what a prediction box answers: the text just before it (the task's "Predict ..." line)
  function promptOf(box) {
    var before = box.closest(".asb-prediction");
    before = before && before.previousElementSibling;
    var text = before ? before.textContent.replace(/\s+/g, " ").trim() : "";
    return text.length > 200 ? text.slice(0, 199) + "\u2026" : text;
  }
  var NAME_KEY = "asb-student-name";  // one name for the whole book, in this browser
  function storedName() {
    try { return window.localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
  }
  function answersHere(name) {
    var page = location.pathname.split("/").slice(-2).join("/");
    return {
      format: FORMAT, page: page, title: document.title, name: name, saved: new Date().toISOString(),
      predictions: Array.prototype.map.call(document.querySelectorAll(".asb-prediction textarea[id]"), function (box) {
        return {id: box.id, section: sectionOf(box), prompt: promptOf(box), text: box.value};
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
    var nameLabel = document.createElement("label"), name = document.createElement("input");
    name.type = "text";
    name.id = "asb-collect-name";
    name.autocomplete = "name";
    name.value = storedName();
    nameLabel.htmlFor = name.id;
    nameLabel.textContent = "Your name or initials (in the file, so that your teacher knows it is yours)";
    name.addEventListener("input", function () {
      try { window.localStorage.setItem(NAME_KEY, name.value.trim()); } catch (e) { /* refused: the box keeps it */ }
    });
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Save my answers to a file";
    var restart = document.createElement("button");
    restart.type = "button";
    restart.textContent = "Start over on this page";
    var said = document.createElement("p");
    said.className = "asb-collect-note";
    said.setAttribute("aria-live", "polite");
    said.textContent = "Your predictions and quiz codes on this page, as a file to hand in (nothing is sent anywhere).";
    button.addEventListener("click", function () {
      var data = answersHere(name.value.trim());
      var blob = new Blob([JSON.stringify(data, null, 1) + "\n"], {type: "application/json"});
      var link = document.createElement("a");
      var who = data.name ? "-" + data.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "") : "";
      link.href = URL.createObjectURL(blob);
      link.download = "answers-" + data.page.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/\.html$/, "") + who + ".json";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
      var written = data.predictions.filter(function (p) { return p.text.trim(); }).length;
      var coded = data.quizzes.filter(function (q) { return q.code; }).length;
      said.textContent = "Saved " + link.download + ": " + written + " of " + data.predictions.length +
        " predictions written, " + coded + " of " + data.quizzes.length + " quiz codes" +
        (data.name ? "" : ", and no name") + ". Hand the file in as your teacher asks.";
    });
    // A shared computer: the next student starts with empty boxes and an unanswered quiz.
    restart.addEventListener("click", function () {
      if (!window.confirm("Forget every answer on this page, in this browser?")) { return; }
      try {
        var here = location.pathname + "#";
        Object.keys(window.localStorage).forEach(function (k) {
          if (k.indexOf("asb-prediction:" + here) === 0 || k.indexOf("asb-quiz:" + here) === 0) {
            window.localStorage.removeItem(k);
          }
        });
      } catch (e) { /* refused: nothing was kept */ }
      // emptied first, or the browser would restore them from the page's form state on reload
      document.querySelectorAll(".asb-prediction textarea").forEach(function (b) { b.value = ""; });
      document.querySelectorAll(".asb-quiz input[type=radio]").forEach(function (r) { r.checked = false; });
      setTimeout(function () { location.reload(); }, 300);  // the store's removals reach the browser first
    });
    box.appendChild(nameLabel);
    box.appendChild(name);
    box.appendChild(button);
    box.appendChild(restart);
    box.appendChild(said);
    (codes.length ? codes[codes.length - 1] : article).appendChild(box);
  }

  function start() {
    document.querySelectorAll(".asb-quiz").forEach(initQuiz);
    document.querySelectorAll(".asb-prediction textarea[id]").forEach(keepPrediction);
    addSaveButton();
  }
  // what the instructor page's tally (_static/tally.js) reads the codes and files with
  window.asbAnswers = {checkLetter: checkLetter, LETTERS: LETTERS, FORMAT: FORMAT};
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
