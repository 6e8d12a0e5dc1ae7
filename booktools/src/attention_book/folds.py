"""Sphinx extension: "Going deeper" folds that span code cells, and a chapter's key results.

A chapter keeps every proof and claim, but a reader on the exam path should not have to
scroll through them. So a chapter marks its heavy parts::

    ```{deeper-start} the exact law of a score
    ```
    ... prose, hidden code cells, tables, figures ...
    ```{deeper-end}
    ```

and the build folds everything between the two markers into one ``<details
class="asb-deeper">`` whose summary reads "Going deeper: the exact law of a score". A MyST
directive cannot span notebook cells (a code cell ends the markdown cell that holds the
directive), hence the pair of markers, as sphinx-exercise's ``solution-start`` and
``solution-end``. A ``:lead:`` option replaces "Going deeper: " where the fold holds
something else a reader may skip (a chapter's recap: ``:lead: Recap:``). Both markers must sit in the same section, with nothing but siblings
between them; a stray or unmatched marker fails the build.

``_static/nav.js`` opens a fold when the address or a clicked link points inside it, and
before printing.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.errors import SphinxError
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

#: What every fold's summary starts with.
DEEPER_LABEL = "Going deeper: "


class deeper(nodes.General, nodes.Element):
    """The fold: its children are what the markers enclosed; ``title`` is the summary."""


class _marker(nodes.General, nodes.Element):
    """Where a fold starts (``kind="start"``, with a ``title``) or ends; removed by the transform."""


class DeeperStart(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec = {"class": directives.class_option, "lead": directives.unchanged_required}

    def run(self):
        lead = self.options.get("lead", DEEPER_LABEL).strip() + " "
        node = _marker(kind="start", title=self.arguments[0].strip(), lead=lead,
                       classes=self.options.get("class", []))
        self.set_source_info(node)
        return [node]


class DeeperEnd(SphinxDirective):
    has_content = False

    def run(self):
        node = _marker(kind="end")
        self.set_source_info(node)
        return [node]


class FoldBetweenMarkers(SphinxTransform):
    """Move the siblings between each start and end marker into a :class:`deeper` node."""

    default_priority = 500

    def apply(self, **kwargs):
        for start in list(self.document.findall(_marker)):
            if start.get("kind") != "start" or start.parent is None:
                continue
            parent = start.parent
            index = parent.index(start)
            end_at = None
            for i in range(index + 1, len(parent.children)):
                child = parent.children[i]
                if isinstance(child, _marker):
                    if child.get("kind") == "end":
                        end_at = i
                    break
                if any(m.get("kind") == "start" for m in child.findall(_marker)):
                    break  # a fold may not hold another fold
            if end_at is None:
                after = [type(c).__name__ for c in parent.children[index + 1:index + 8]]
                raise SphinxError(f"{start.source}:{start.line}: deeper-start \"{start['title']}\" has no "
                                  "deeper-end after it in the same section (and no fold inside it); "
                                  f"it is followed by {after}")
            fold = deeper(title=start["title"], lead=start.get("lead", DEEPER_LABEL), classes=["asb-deeper", *start.get("classes", [])])
            fold.source, fold.line = start.source, start.line
            fold.extend(parent.children[index + 1:end_at])   # moved, not copied: ids keep their nodes
            del parent.children[index:end_at + 1]
            parent.insert(index, fold)
        for stray in list(self.document.findall(_marker)):
            raise SphinxError(f"{stray.source}:{stray.line}: deeper-{stray.get('kind')} without its pair "
                              "in the same section")


def _visit_deeper_html(self, node):
    title = self.encode(node.get("lead", DEEPER_LABEL) + node["title"])
    classes = " ".join(node.get("classes", []))
    self.body.append(f'<details class="{classes}"><summary><span class="asb-deeper-title">{title}</span>'
                     '</summary><div class="asb-deeper-body">\n')


def _depart_deeper_html(self, node):
    self.body.append("</div></details>\n")


def _visit_deeper_text(self, node):
    pass


def _depart_deeper_text(self, node):
    pass
