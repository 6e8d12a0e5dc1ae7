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
  function start() {
    document.querySelectorAll(".asb-quiz").forEach(initQuiz);
    document.querySelectorAll(".asb-prediction textarea[id]").forEach(keepPrediction);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
