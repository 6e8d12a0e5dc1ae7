"""Text for the explorers' labels: marked-up maths ($...$) as plain text (alt text,
aria-valuetext, radio options) or as HTML with MathJax delimiters.
"""

from __future__ import annotations

import html
import re


_MATH = re.compile(r"\$([^$]+)\$")
_TEX_TO_TEXT = ((re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"), (re.compile(r"\\hat\s*(\w)"), "\\1\u0302"),
                (re.compile(r"\\cdot\s*"), "·"), (re.compile(r"\\,"), " "), (re.compile(r"[{}]"), ""))


def plain_text(marked: str) -> str:
    r"""A label whose maths is marked ``$...$`` (TeX) as plain text: ``"$1/\sqrt{d_k}$"`` → ``"1/√d_k"``.

    Knows the few macros the book's labels use (\sqrt, \hat, \cdot, \,); raises ValueError on
    any other, so a label never shows raw TeX in alt text or a screen reader.
    """
    if not isinstance(marked, str):
        raise ValueError(f"marked must be a string, got {type(marked).__name__}")

    def one(match):
        text = match.group(1)
        for pattern, repl in _TEX_TO_TEXT:
            text = pattern.sub(repl, text)
        if "\\" in text:
            raise ValueError(f"marked uses TeX that plain_text does not know: {match.group(0)!r}")
        return text

    if marked.count("$") % 2:
        raise ValueError(f"marked has an unmatched $: {marked!r}")
    return _MATH.sub(one, marked)


def math_html(marked: str) -> str:
    """A ``$...$``-marked label as HTML: text escaped, maths in the spans the page's MathJax typesets."""
    plain_text(marked)  # validates
    parts = _MATH.split(marked)  # text, maths, text, ...
    return "".join(html.escape(part) if i % 2 == 0 else
                   f'<span class="math notranslate nohighlight">\\({html.escape(part)}\\)</span>'
                   for i, part in enumerate(parts))


_SUBSCRIPT = str.maketrans("aehijklmnoprstuvx0123456789", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₀₁₂₃₄₅₆₇₈₉")


def _subscripts(text: str) -> str:
    """``d_k`` → ``dₖ`` where Unicode has the subscript letter (a live radio option is plain text)."""
    return re.sub(r"_([aehijklmnoprstuvx0-9])\b", lambda m: m.group(1).translate(_SUBSCRIPT), text)
