"""The live path in Jupyter (ipywidgets): the radio buttons' keys. (The explorer itself is the
module's anywidget, :mod:`.widget`.)
"""

from __future__ import annotations


#: Class of a live explorer's radio buttons.
RADIO_CLASS = "asb-radio"
# JupyterLab binds the arrow keys, in command mode, to moving between cells, and its
# shortcut handler (Lumino's, on the document) takes ArrowUp/ArrowDown from a focused radio
# button in an output and prevents its default: the choice does not change and the next
# cell is selected. This handler runs first (the window's capture phase) and stops the
# event there for the explorers' radio buttons, so the browser's own handling of the key
# (move to the next option and choose it) is all that happens. Installed once per page.
RADIO_KEYS_JS = """(function () {
  if (window.asbRadioKeys) { return; }
  window.asbRadioKeys = true;
  var keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];
  window.addEventListener("keydown", function (event) {
    var t = event.target;
    if (keys.indexOf(event.key) >= 0 && !event.ctrlKey && !event.metaKey && !event.altKey
        && t && t.matches && t.matches(".%s input[type=radio]")) {
      event.stopPropagation();
    }
  }, true);
})();""" % RADIO_CLASS
