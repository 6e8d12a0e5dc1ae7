/* Self-check quizzes (src/attention_scaling/quiz.py): feedback as soon as an answer is
   chosen, by mouse or keyboard (arrow keys move between the options of a question), and an
   answer code a student can hand in: the quiz's key, the first answer to each question
   (capital when right, small when wrong, "." when unanswered) and a check letter, computed
   here with the same rules as attention_scaling.quiz.answer_code.

   A lab page's prediction boxes (sphinx_ext._answer_spaces) keep what the student types in
   this browser (localStorage, keyed by the page and the box), so a reload or a visit to
   another page loses no prediction; where storage is refused the boxes still work. */
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
    fieldsets.forEach(function (fieldset, qi) {
      first.push(null);
      var data = JSON.parse(fieldset.querySelector("script.asb-quiz-data").textContent);
      var feedback = fieldset.querySelector(".asb-feedback");
      fieldset.querySelectorAll('input[type="radio"]').forEach(function (input) {
        input.addEventListener("change", function () {
          var i = Number(input.value);
          var right = data.correct[i];
          feedback.textContent = (right ? "Correct. " : "Not quite. ") + data.why[i];
          // the built book typesets the feedback's maths at build time (whyHtml, escaped HTML)
          if (data.whyHtml) { feedback.innerHTML = (right ? "Correct. " : "Not quite. ") + data.whyHtml[i]; }
          feedback.className = "asb-feedback " + (right ? "asb-right" : "asb-wrong");
          if (!data.whyHtml && window.MathJax && MathJax.typesetPromise) { MathJax.typesetPromise([feedback]); }
          if (first[qi] === null && codeValue) { first[qi] = {index: i, right: right}; showCode(); }
        });
      });
      fieldset.classList.add("asb-ready");
    });
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
