"""Numbers in the prose that follow an explorer: the ``{live}`` role.

``{live}`key:.3f <attention:draw.unscaled.maxWeight>``` pastes the glued number ``key``,
formatted as ``{glue:text}`key:.3f``` would, inside a span that names what it is bound to:
the explorer whose module is ``attention`` (its ``data.module.name``, see
``attention_scaling.explorables.page``) and a path into that module's state. On the page,
``_static/player.js`` rewrites the span's text from the module's state whenever the explorer
changes, formatted with the same spec by the module's own formatter (``format.js``'s
``liveText``: Python's ``f`` and ``g``, digit for digit, except that a number that would
read as exactly 0 (and is not) or 1 reads as the explorer's readout writes it, ``1 − 4.2e-05``,
from the same distance to 1: a mean's own complement, a draw's largest weight's
``largestGradient / maxWeight``).
Without scripts, in print and in the generated notebooks the glued value stays.

The format must be ``.Nf`` or ``.Ng``: the two both sides write the same way.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from myst_nb.ext.glue.roles import PasteTextRole

#: key[:spec] <module:path.to.value>
_SYNTAX = re.compile(r"^\s*([A-Za-z_][\w]*)(?::(\.\d+[fg]))?\s*<([a-z][a-z_]*):([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)>\s*$")


class live_number(nodes.inline):
    """A glued number bound to an explorer's state (``bind``: module:path; ``spec``: .Nf/.Ng)."""


def visit_live_html(self, node: live_number) -> None:
    self.body.append(f'<span class="asb-live" data-bind="{html.escape(node["bind"])}" '
                     f'data-format="{html.escape(node["spec"])}">')


def depart_live_html(self, node: live_number) -> None:
    self.body.append("</span>")


def visit_live_text(self, node: live_number) -> None:
    pass


def depart_live_text(self, node: live_number) -> None:
    pass


class LiveRole(PasteTextRole):
    """``{live}`key:spec <module:path>```: see the module's docstring."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        m = _SYNTAX.match(self.text)
        if not m:
            message = (f"{{live}} needs `key:.Nf <module:path>` or `key:.Ng <module:path>` "
                       f"(for example `u_draw_64:.3f <attention:draw.unscaled.maxWeight>`), got {self.text!r}")
            error = self.inliner.reporter.error(message, line=self.line)
            return [], [error]
        key, spec, module, path = m.group(1), m.group(2) or ".3g", m.group(3), m.group(4)
        self.text = f"{key}:{spec}"
        pasted, messages = super().run()
        if not pasted:
            return pasted, messages
        node = live_number("", "", *pasted, bind=f"{module}:{path}", spec=spec)
        self.set_source_info(node)
        return [node], messages
