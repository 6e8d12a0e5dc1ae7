/* Self-check quizzes (src/attention_scaling/quiz.py): feedback as soon as an answer is
   chosen, by mouse or keyboard (arrow keys move between the options of a question). */
(function () {
  "use strict";
  function init(fieldset) {
    var data = JSON.parse(fieldset.querySelector("script.asb-quiz-data").textContent);
    var feedback = fieldset.querySelector(".asb-feedback");
    fieldset.querySelectorAll('input[type="radio"]').forEach(function (input) {
      input.addEventListener("change", function () {
        var i = Number(input.value);
        var right = data.correct[i];
        feedback.textContent = (right ? "Correct. " : "Not quite. ") + data.why[i];
        feedback.className = "asb-feedback " + (right ? "asb-right" : "asb-wrong");
        if (window.MathJax && MathJax.typesetPromise) { MathJax.typesetPromise([feedback]); }
      });
    });
    fieldset.classList.add("asb-ready");
  }
  function start() { document.querySelectorAll(".asb-question").forEach(init); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
