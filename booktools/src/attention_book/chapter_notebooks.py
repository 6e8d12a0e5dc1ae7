"""Chapters as plain notebooks, for launch buttons, Colab and any Jupyter front end.

A chapter is a MyST markdown notebook (book/*.md). JupyterLab opens it as text, and
opened as a notebook (jupytext) it shows raw roles and directives and no glued numbers.
This Sphinx extension writes each chapter again as a plain .ipynb from its *resolved*
doctree, where glue roles, cross-references, citations and numbers are already text:

- prose becomes CommonMark with ``$…$`` / ``$$…$$`` maths (headings, lists, tables,
  links, admonitions, theorems and exercises as block quotes with a bold title,
  solutions and dropdowns folded in ``<details>``), which JupyterLab, Notebook, Colab and
  VS Code render with no extension;
- every code cell is kept, in order, with its tags; the cells the book removes or hides
  are hidden by ``metadata.jupyter`` (``source_hidden`` / ``outputs_hidden``); an import
  of the build's (``from myst_nb import glue``) becomes the package's own
  (:data:`PORTABLE_IMPORTS`), so the notebook needs only the package's dependencies;
- the first code cell installs the book's package when it is missing (:func:`install_cell`).

Notes written for the static page only (an exercise that "needs a live kernel", whose
text depends on whether the book has launch buttons) are left out: the notebook is live.
Links to other pages go to the sibling notebook (``notebooks/chapters/X.ipynb``, or the
lab), so the committed notebooks do not depend on where the book is built; the Colab
copies link to the published pages when the book has an address. Images in prose: the
chapters have none outside code outputs (which the notebook makes when it runs); one
would be replaced by a sentence naming it.

Outputs of a build (``scripts/build-book``):

- ``_build/chapter_notebooks/<chapter>.ipynb``: what ``make chapter-notebooks`` copies to
  ``notebooks/chapters/`` (committed, checked by tests/book/test_chapter_notebooks.py);
- ``_build/html/_launch/<launch path>``: the chapters and labs with the install cell's
  repository and commit filled in, for Colab, which opens notebooks only from GitHub
  (``make publish`` and the workflow push the site to the branch named by ``pages_branch``
  in _config.yml, gh-pages here; :func:`attention_book.launch.pages_branch`).

The launch buttons of a chapter page open its generated notebook (:func:`launch_path`).

The folders and the install cell are this repository's layout (chapters in book/, the
package attention_scaling): a book turns the chapter notebooks on in its _config.yml
(``sphinx.config.book_chapter_notebooks: true``); with it off (the default), no page is a
chapter and only the labs (.ipynb pages) get their Colab copies.
"""

from __future__ import annotations

import copy
import posixpath
import re
import subprocess
from pathlib import Path

CHAPTERS_DIR = "notebooks/chapters"  # where the generated chapters are committed
BUILD_DIR = "chapter_notebooks"  # under _build/
LAUNCH_DIR = "_launch"  # under the built site: the Colab copies
MAX_LINE = 78  # visible code lines in chapters and labs
INSTALL_TAG = "install-package"
_SOURCE_LINE = 'SOURCE = ""  # a published copy: git+https://github.com/OWNER/REPO@COMMIT'

_INSTALL = '''\
# Installs the book's package if it is missing (on Colab, say): from the clone
# this notebook sits in, else from SOURCE. Elsewhere it does nothing.
import importlib.util, pathlib, site, sysconfig
{source}
HELP = ("The book's package, attention_scaling, is not installed. Open"
        " this notebook with the Binder button on the book's page, or, in a"
        " clone of the book's repository, run:"
        " pip install -r requirements.txt")
up = (pathlib.Path.cwd(), *pathlib.Path.cwd().parents)  # here, and above
root = [d for d in up if '"attention-scaling"' in "".join(
    p.read_text() for p in d.glob("pyproject.toml"))]
if importlib.util.find_spec("attention_scaling") is None:
    pkg = f'-e "{{root[0]}}"' if root else SOURCE
    if pkg:  # then check that pip installed it
        %pip install -q {{pkg}}
        site.addsitedir(sysconfig.get_paths()["purelib"])  # import it now
        importlib.invalidate_caches()
    if importlib.util.find_spec("attention_scaling") is None:
        raise ModuleNotFoundError(HELP)'''


def install_cell(repository: str = "", commit: str = "") -> str:
    """The install cell's code. A published copy names the GitHub ``repository``
    (https://github.com/OWNER/REPO) and the ``commit`` the book was built from, and
    installs ``git+REPOSITORY@COMMIT``; the committed notebooks name none and find the
    clone they sit in instead."""
    if not isinstance(repository, str):
        raise ValueError(f"repository must be a string, got {type(repository).__name__}")
    if not isinstance(commit, str):
        raise ValueError(f"commit must be a string, got {type(commit).__name__}")
    if bool(repository) != bool(commit):
        raise ValueError("repository and commit must be given together")
    if repository and not re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", repository):
        raise ValueError(f"repository must be https://github.com/OWNER/REPO, got {repository!r}")
    if commit and not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise ValueError(f"commit must be a full 40-digit commit hash, got {commit!r}")
    if not repository:
        return _INSTALL.format(source=_SOURCE_LINE)
    line = (f'SOURCE = ("git+{repository}"\n'
            f'          "@{commit}")  # the commit built')
    return _INSTALL.format(source=line)


def launch_path(docname: str, chapters: bool = True) -> str:
    """The repository path a page's launch buttons (Binder, JupyterHub) open: a chapter
    (``book/X``) opens its generated notebook ``notebooks/chapters/X.ipynb``, any other
    page (a lab, ``notebooks/X``) its own ``.ipynb``. Colab opens the same path under
    ``_launch/`` on the branch the site is published to. In a book without chapter
    notebooks (``chapters`` false) every page opens its own ``.ipynb``."""
    if not isinstance(docname, str) or not docname.strip():
        raise ValueError(f"docname must be a non-empty string, got {docname!r}")
    name = docname.strip().strip("/")
    if name.endswith((".md", ".ipynb")) or ".." in name.split("/") or name.startswith("."):
        raise ValueError(f"docname must be a page name without suffix, like book/intro, got {docname!r}")
    if chapters and name.startswith("book/"):
        return f"{CHAPTERS_DIR}/{name[len('book/'):]}.ipynb"
    return f"{name}.ipynb"


def colab_url(colab: str, owner: str, name: str, docname: str, branch: str, chapters: bool = True) -> str:
    """Colab's address for a page: the copy in the site published to ``branch``."""
    if not isinstance(branch, str) or not branch.strip():
        raise ValueError(f"branch must be a non-empty branch name, got {branch!r}")
    path = launch_path(docname, chapters)
    return f"{colab.rstrip('/')}/github/{owner}/{name}/blob/{branch}/{LAUNCH_DIR}/{path}"


def is_chapter(docname: str) -> bool:
    return isinstance(docname, str) and docname.startswith("book/")


def _is_chapter(app, docname: str) -> bool:
    """A chapter of a book that has its chapters written as notebooks (``book_chapter_notebooks``)."""
    return bool(getattr(app.config, "book_chapter_notebooks", False)) and is_chapter(docname)


# --- doctree → markdown -------------------------------------------------------------------


_ESCAPE = re.compile(r"([\\`*_\[\]<>$|#])")


def _escape(text: str) -> str:
    return _ESCAPE.sub(r"\\\1", text)


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _Context:
    def __init__(self, docname, fignumbers, link, math_numfig):
        self.docname = docname
        self.fignumbers = fignumbers
        self.link = link  # (target docname, anchor) -> url or None
        self.math_numfig = math_numfig
        self.in_table = False
        self.dropped_anchors = 0  # open <a> tags with a site-relative href, left out


#: An inline HTML link to a file of the built site (``href="../print/..."``): a notebook
#: has no such file beside it, so the link's text stays and the tags go.
_SITE_ANCHOR = re.compile(r'<a\s+href="(?![a-z][a-z0-9+.-]*:|#)[^"]*"\s*>')


def _number(ctx, kind, node_id):
    number = ctx.fignumbers.get(kind, {}).get(node_id)
    return ".".join(map(str, number)) if number else ""


def _href(ctx, node) -> str | None:
    uri = node.get("refuri")
    if not uri:
        return None
    if re.match(r"[a-z][a-z0-9+.-]*:", uri):  # http(s), mailto
        return uri
    path, _, anchor = uri.partition("#")
    if not path:
        return None  # the same page: the text says where
    if not path.endswith(".html"):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.docname), path[: -len(".html")]))
    return ctx.link(target, anchor)


def _inline(ctx, node) -> str:
    from docutils import nodes

    if isinstance(node, nodes.Text):
        return _escape(_one_line_keep_edges(str(node)))
    if isinstance(node, nodes.math):
        tex = _one_line(node.astext())
        if ctx.in_table:
            tex = tex.replace(r"\|", r"\Vert ").replace("|", r"\vert ")
        return f"${tex}$"
    if isinstance(node, nodes.literal):
        text = node.astext().replace("\n", " ")
        fence = "``" if "`" in text else "`"
        pad = " " if text.startswith("`") or text.endswith("`") else ""
        if ctx.in_table:
            text = text.replace("|", r"\|")
        return f"{fence}{pad}{text}{pad}{fence}"
    if isinstance(node, nodes.raw):
        text = node.astext()
        if _SITE_ANCHOR.fullmatch(text.strip()):
            ctx.dropped_anchors += 1
            return ""
        if text.strip() == "</a>" and ctx.dropped_anchors:
            ctx.dropped_anchors -= 1
            return ""
        return "" if "<script" in text or "<svg" in text else _one_line(text)
    if isinstance(node, (nodes.image, nodes.target, nodes.substitution_definition, nodes.comment)):
        return ""
    inner = "".join(_inline(ctx, child) for child in node.children)
    if isinstance(node, nodes.emphasis):
        return _wrap(inner, "*")
    if isinstance(node, nodes.strong):
        return _wrap(inner, "**")
    if isinstance(node, nodes.reference):
        href = _href(ctx, node)
        if href and inner.strip():
            return f"[{inner}]({href})"
        return inner
    if isinstance(node, (nodes.subscript,)):
        return f"<sub>{inner}</sub>"
    if isinstance(node, (nodes.superscript,)):
        return f"<sup>{inner}</sup>"
    return inner


def _one_line_keep_edges(text: str) -> str:
    """Whitespace runs (line breaks included) become one space; edges are kept."""
    return re.sub(r"\s+", " ", text)


def _wrap(inner: str, mark: str) -> str:
    stripped = inner.strip()
    if not stripped:
        return inner
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()):]
    return f"{lead}{mark}{stripped}{mark}{trail}"


def _paragraph(ctx, node) -> str:
    return "".join(_inline(ctx, child) for child in node.children).strip()


def _indent(text: str, prefix: str, first: str | None = None) -> str:
    lines = text.split("\n")
    first = prefix if first is None else first
    out = [(first if i == 0 else prefix) + line if line else (first if i == 0 else prefix).rstrip()
           for i, line in enumerate(lines)]
    return "\n".join(out)


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def _table(ctx, node) -> str:
    from docutils import nodes

    rows = []
    head_count = 0
    for part in node.findall(lambda n: isinstance(n, (nodes.thead, nodes.tbody))):
        for row in part.children:
            if not isinstance(row, nodes.row):
                continue
            cells = []
            for entry in row.children:
                if entry.get("morecols") or entry.get("morerows"):
                    raise _NotSimple
                ctx.in_table = True
                try:
                    text = " ".join(_blocks_text(ctx, entry.children)).replace("\n", " ")
                finally:
                    ctx.in_table = False
                cells.append(text)
            rows.append(cells)
            if isinstance(part, nodes.thead):
                head_count += 1
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    if head_count != 1:
        header, body = [""] * width, rows
    else:
        header, body = rows[0], rows[1:]
    line = lambda cells: "| " + " | ".join(c if c else " " for c in cells) + " |"  # noqa: E731
    out = [line(header), "|" + "|".join("---" for _ in range(width)) + "|", *map(line, body)]
    title = next(iter(node.findall(nodes.title)), None)
    if title is not None:
        out.insert(0, f"**{_paragraph(ctx, title)}**\n")
    return "\n".join(out)


class _NotSimple(Exception):
    pass


def _blocks_text(ctx, children) -> list[str]:
    return [b for b in (_block(ctx, child) for child in children) if b]


def _titled(ctx, node, kind_key: str, label: str) -> str:
    """A theorem, proof, exercise or admonition: a block quote with a bold title."""
    from docutils import nodes

    title_node = next((c for c in node.children if isinstance(c, nodes.title)), None)
    subtitle = _paragraph(ctx, title_node).strip() if title_node is not None else ""
    subtitle = subtitle.replace("%s", "").strip()
    if subtitle.lower().startswith(label.split(" ")[0].lower()):
        subtitle = subtitle[len(label.split(" ")[0]):].strip()
    head = f"**{label}**" + (f" {subtitle}" if subtitle else "")
    body = "\n\n".join(_blocks_text(ctx, [c for c in node.children if c is not title_node]))
    return _quote(head + ("\n\n" + body if body else ""))


#: What a folded solution says where its code was (the code is the next cell, collapsed).
CODE_BELOW = "*(The code of this solution is the collapsed code cell below it.)*"


def _is_cell(node) -> bool:
    from docutils import nodes

    return isinstance(node, nodes.container) and "cell" in node.get("classes", []) \
        and node.get("cell_index") is not None


def _math_block(ctx, node) -> str:
    tex = node.astext().strip("\n")
    number = ""
    if node.get("number") is not None and node.get("ids"):
        number = (_number(ctx, "displaymath", node["ids"][0]) if ctx.math_numfig else "") \
            or str(node["number"])
    if number and not node.get("nowrap"):
        tex += f"\n\\tag{{{number}}}"
    return f"$$\n{tex}\n$$"


def _literal_block(ctx, node) -> str:
    lang = node.get("language", "")
    lang = "" if lang in ("default", "none", "text") else lang
    return f"```{lang}\n{node.astext()}\n```"


def _list(ctx, node) -> str:
    from docutils import nodes

    items = []
    for i, item in enumerate(node.children, start=int(node.get("start", 1))):
        marker = "- " if isinstance(node, nodes.bullet_list) else f"{i}. "
        body = "\n\n".join(_blocks_text(ctx, item.children))
        items.append(_indent(body, " " * len(marker), marker))
    loose = any(len(item.children) > 1 for item in node.children)
    return ("\n\n" if loose else "\n").join(items)


def _table_or_blocks(ctx, node) -> str:
    try:
        return _table(ctx, node)
    except _NotSimple:
        return _children(ctx, node)


def _theorem(ctx, node) -> str:
    kind = node.get("countertype") or node.get("realtype") or "theorem"
    number = _number(ctx, kind, (node.get("ids") or [""])[0])
    label = f"{(node.get('realtype') or kind).title()} {number}".strip()
    return _titled(ctx, node, kind, label)


def _proof(ctx, node) -> str:
    from docutils import nodes

    inner = node.children[0] if len(node.children) == 1 and isinstance(node.children[0], nodes.admonition) \
        else node
    body = re.sub(r"^Proof\. ?", "*Proof.* ", _children(ctx, inner))
    return _quote(body)


def _exercise(ctx, node) -> str:
    number = _number(ctx, "exercise", node.get("label", ""))
    return _titled(ctx, node, "exercise", f"Exercise {number}".strip())


def _solution(ctx, node) -> str:
    from docutils import nodes

    body = "\n\n".join(_blocks_text(ctx, [c for c in node.children if not isinstance(c, nodes.title)]))
    return f"<details><summary>Solution</summary>\n\n{body}\n\n</details>"


def _dropdown(ctx, node) -> str:
    from docutils import nodes

    title = next((c for c in node.children if type(c).__name__ == "dropdown_title"), None)
    words = [t.astext() for t in title.findall(nodes.Text) if not isinstance(t.parent, nodes.raw)] \
        if title is not None else []
    summary = _escape_html(_one_line("".join(words))) or "Details"
    body = "\n\n".join(_blocks_text(ctx, [c for c in node.children if c is not title]))
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"


def _admonition(ctx, node) -> str:
    from docutils import nodes

    title_node = next((c for c in node.children if isinstance(c, nodes.title)), None)
    label = _paragraph(ctx, title_node) if title_node is not None else type(node).__name__.replace("_", " ").title()
    body = "\n\n".join(_blocks_text(ctx, [c for c in node.children if c is not title_node]))
    return _quote(f"**{label}**\n\n{body}")


def _citation(ctx, node) -> str:
    from docutils import nodes

    label = next((c for c in node.children if isinstance(c, nodes.label)), None)
    body = " ".join(_blocks_text(ctx, [c for c in node.children if c is not label]))
    return f"- [{_escape(label.astext())}] {body}" if label is not None else f"- {body}"


def _figure(ctx, node) -> str:
    from docutils import nodes

    alt = node.get("alt") or next((c.astext() for c in node.findall(nodes.caption)), "")
    return f"*(A figure here on the book's page{': ' + _escape(_one_line(alt)) if alt else ''}.)*"


def _raw(ctx, node) -> str:
    text = node.astext()
    return "" if node.get("format") != "html" or "<script" in text else text.strip()


def _definition_list(ctx, node) -> str:
    from docutils import nodes

    out = []
    for item in node.children:
        term = next(iter(item.findall(nodes.term)), None)
        definition = next(iter(item.findall(nodes.definition)), None)
        out.append(f"**{_paragraph(ctx, term)}**" if term is not None else "")
        if definition is not None:
            out.append(_indent("\n\n".join(_blocks_text(ctx, definition.children)), "    ", ": "))
    return "\n\n".join(out)


def _children(ctx, node) -> str:
    return "\n\n".join(_blocks_text(ctx, node.children))


def _nothing(ctx, node) -> str:
    return ""


#: Nodes of Sphinx extensions, by class name (sphinx-proof, sphinx-exercise, sphinx-design).
_BY_NAME = {
    **dict.fromkeys(("theorem_node", "corollary_node", "lemma_node", "definition_node", "proposition_node",
                     "remark_node", "example_node", "axiom_node", "conjecture_node", "criterion_node",
                     "property_node", "observation_node", "assumption_node", "notation_node",
                     "algorithm_node"), _theorem),
    "proof_node": _proof, "exercise_enumerable_node": _exercise, "exercise_node": _exercise,
    "solution_node": _solution, "dropdown_main": _dropdown, "toctree": _nothing, "pending_xref": _nothing,
}


def _by_type():
    """docutils node classes and their writers, in the order they are tried (first match wins)."""
    from docutils import nodes

    return (
        ((nodes.Text,), lambda ctx, node: _escape(_one_line(str(node)))),
        ((nodes.paragraph,), lambda ctx, node: "" if "asb-needs-kernel" in node.get("classes", [])
         else _paragraph(ctx, node)),  # "the static page cannot run this": the notebook can
        ((nodes.math_block,), _math_block),
        ((nodes.literal_block,), _literal_block),
        ((nodes.bullet_list, nodes.enumerated_list), _list),
        ((nodes.table,), _table_or_blocks),
        ((nodes.title, nodes.caption), lambda ctx, node: f"**{_paragraph(ctx, node)}**"),
        ((nodes.Admonition, nodes.admonition), _admonition),
        ((nodes.citation,), _citation),
        ((nodes.figure, nodes.image), _figure),
        ((nodes.raw,), _raw),
        ((nodes.target, nodes.comment, nodes.substitution_definition, nodes.label, nodes.colspec), _nothing),
        ((nodes.compound,), lambda ctx, node: "" if "toctree-wrapper" in node.get("classes", [])
         else _children(ctx, node)),
        ((nodes.block_quote,), lambda ctx, node: _quote(_children(ctx, node))),
        ((nodes.transition,), lambda ctx, node: "---"),
        ((nodes.definition_list,), _definition_list),
        ((nodes.Inline, nodes.TextElement), _paragraph),
    )


def _block(ctx, node) -> str:
    """One block of the page as Markdown: a code cell's place, or the writer of its node type;
    containers, sections inside admonitions, glue:md output, anything else: its children."""
    if _is_cell(node):
        return CODE_BELOW
    by_name = _BY_NAME.get(type(node).__name__)
    if by_name is not None:
        return by_name(ctx, node)
    for kinds, write in _by_type():
        if isinstance(node, kinds):
            return write(ctx, node)
    return _children(ctx, node)


def _escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- the notebook --------------------------------------------------------------------------


_HIDE = {  # tag -> what JupyterLab hides (metadata.jupyter)
    "remove-cell": ("source_hidden", "outputs_hidden"), "remove_cell": ("source_hidden", "outputs_hidden"),
    "hide-cell": ("source_hidden", "outputs_hidden"),
    "remove-input": ("source_hidden",), "remove_input": ("source_hidden",), "hide-input": ("source_hidden",),
    "remove-output": ("outputs_hidden",), "remove_output": ("outputs_hidden",), "hide-output": ("outputs_hidden",),
}


def _code_cell(source_cell, number: int):
    import nbformat

    metadata = {}
    tags = list(source_cell.metadata.get("tags", []))
    if tags:
        metadata["tags"] = tags
    hidden = {flag for tag in tags for flag in _HIDE.get(tag, ())}
    if hidden:
        metadata["jupyter"] = {flag: True for flag in sorted(hidden)}
    for key in ("mystnb",):
        if key in source_cell.metadata:
            metadata[key] = copy.deepcopy(source_cell.metadata[key])
    cell = nbformat.v4.new_code_cell(source=portable(source_cell.source), metadata=metadata)
    cell["id"] = f"code-{number}"
    return cell


#: Imports of the book's build that a chapter's notebook replaces by the package's own, so
#: that it runs with only the package's dependencies (Colab has no myst-nb).
PORTABLE_IMPORTS = {"from myst_nb import glue": "from attention_scaling.prose import glue"}


def portable(source: str) -> str:
    """A chapter's code cell as its notebook runs it: :data:`PORTABLE_IMPORTS` replaced,
    whole lines only."""
    if not isinstance(source, str):
        raise ValueError(f"source must be a string, got {type(source).__name__}")
    return "\n".join(PORTABLE_IMPORTS.get(line, line) for line in source.split("\n"))


def _first_line(node) -> int | None:
    from docutils import nodes

    for sub in node.findall(nodes.Element):
        if sub.line:
            return sub.line
    return None


class _NotebookWriter:
    """Walks a chapter's doctree in reading order: prose becomes Markdown cells, each code
    cell comes from the source notebook where the page shows it, and the cells the page
    removes come in before the first block that follows them in the source."""

    def __init__(self, ctx, source_nb):
        self.ctx = ctx
        self.cells_in = source_nb.cells
        self.lines = list(source_nb.metadata.get("source_map") or [])
        self.code_cells = [i for i, c in enumerate(self.cells_in) if c.cell_type == "code"]
        self.done: set[int] = set()
        self.out: list = []
        self.prose: list[str] = []
        self.counter = 0

    def flush_prose(self) -> None:
        import nbformat

        text = "\n\n".join(p for p in self.prose if p.strip()).strip()
        self.prose.clear()
        if text:
            cell = nbformat.v4.new_markdown_cell(source=text)
            cell["id"] = f"md-{len(self.out) + 1}"
            self.out.append(cell)

    def emit_code(self, index: int, collapse: bool = False) -> None:
        self.flush_prose()
        if not any(c.cell_type == "code" for c in self.out):
            self.out.append(_install_cell())
        self.counter += 1
        cell = _code_cell(self.cells_in[index], self.counter)
        if collapse:
            cell.metadata["jupyter"] = {"outputs_hidden": True, "source_hidden": True}
        self.out.append(cell)
        self.done.add(index)

    def catch_up(self, line: int | None = None, index: int | None = None) -> None:
        """Code cells the page left out that come before this line or cell index."""
        lines = self.lines
        for i in self.code_cells:
            if i in self.done:
                continue
            if (index is not None and i < index) or (line is not None and lines and i < len(lines)
                                                    and lines[i] < line):
                self.emit_code(i)

    def walk(self, node, level: int) -> None:
        from docutils import nodes

        for child in node.children:
            if _is_cell(child):
                self.catch_up(index=child["cell_index"])
                self.emit_code(child["cell_index"])
            elif type(child).__name__ == "HideCodeCellNode":
                self.walk(child, level)
            elif type(child).__name__ == "deeper":  # a fold of the page (folds.py): its cells stay in order
                from .folds import DEEPER_LABEL

                self.flush_prose()
                self.prose.append(f"**{_escape(child.get('lead', DEEPER_LABEL) + child['title'])}**")
                self.walk(child, level)
            else:
                self._block_or_section(node, child, level, nodes)

    def _block_or_section(self, parent, child, level: int, nodes) -> None:
        inner = sorted(c["cell_index"] for c in child.findall(_is_cell)) \
            if isinstance(child, nodes.Element) and not isinstance(child, nodes.section) else []
        if inner:
            self.catch_up(index=inner[0])
        else:
            line = _first_line(child) if isinstance(child, nodes.Element) else None
            if line is not None:
                self.catch_up(line=line)
        if isinstance(child, nodes.section):
            self.flush_prose()
            self.walk(child, level + 1)
            return
        if isinstance(child, nodes.title) and isinstance(parent, (nodes.section, nodes.document)):
            self.flush_prose()
            self.prose.append("#" * max(1, level) + " " + _paragraph(self.ctx, child))
            return
        text = _block(self.ctx, child)
        if text:
            self.prose.append(text)
        for index in inner:  # code inside a solution: after it, collapsed
            self.catch_up(index=index)
            self.emit_code(index, collapse=True)

    def cells(self, doctree) -> list:
        self.walk(doctree, 0)
        self.catch_up(index=len(self.cells_in))
        self.flush_prose()
        if not any(c.cell_type == "code" for c in self.out):
            self.out.insert(1 if self.out else 0, _install_cell())
        return self.out


def _install_cell():
    import nbformat

    install = nbformat.v4.new_code_cell(source=install_cell(), metadata={"tags": [INSTALL_TAG]})
    install["id"] = "install-package"
    return install


def build_notebook(doctree, docname: str, source_nb, *, fignumbers=None, link=None, math_numfig=True,
                   title: str = ""):
    """The notebook for one chapter: its resolved ``doctree`` (docutils document),
    ``docname`` (``book/X``) and ``source_nb``, the notebook myst-nb read from the chapter
    (with ``metadata.source_map``, the first line of each cell), which supplies every code
    cell, the ones the page removes included."""
    import nbformat

    if not is_chapter(docname):
        raise ValueError(f"docname must be a chapter, book/X, got {docname!r}")
    if link is None:
        link = sibling_link(docname)
    ctx = _Context(docname, fignumbers or {}, link, math_numfig)
    nb = nbformat.v4.new_notebook(cells=_NotebookWriter(ctx, source_nb).cells(doctree))
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "attention_scaling": {"generated_from": f"{docname}.md",
                              "note": "Generated by the book's build: edit the chapter, then run "
                                      "`make chapter-notebooks`."},
    }
    if title:
        nb.metadata["title"] = title
    return nb


def sibling_link(docname: str):
    """Links from a chapter's notebook to other pages: the sibling notebook (relative)."""
    here = posixpath.dirname(launch_path(docname))

    def link(target: str, anchor: str) -> str | None:
        try:
            path = launch_path(target)
        except ValueError:
            return None
        return posixpath.relpath(path, here)

    return link


def site_link(base: str, docname: str):
    """Links to the published pages under ``base`` (the site's address)."""
    def link(target: str, anchor: str) -> str:
        return f"{base}{target}.html" + (f"#{anchor}" if anchor else "")

    return link


def dumps(nb) -> str:
    """A notebook as nbformat writes it (one stable text, ending in a newline)."""
    import nbformat

    return nbformat.writes(nb) + "\n"


def with_source(nb, repository: str, commit: str):
    """A copy of ``nb`` whose install cell installs ``repository`` at ``commit``."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code" and INSTALL_TAG in cell.metadata.get("tags", []):
            cell.source = install_cell(repository, commit)
            break
    return nb


# --- Sphinx -------------------------------------------------------------------------------


def _source_notebook(app, docname):
    from myst_nb.core.read import read_myst_markdown_notebook

    path = Path(app.env.doc2path(docname))
    if path.suffix != ".md":
        return None
    return read_myst_markdown_notebook(path.read_text(encoding="utf-8"), add_source_map=True, path=path)


def _generate(app, doctree, docname):
    if not _is_chapter(app, docname) or getattr(app.builder, "format", "") != "html":
        return
    if "kernelspec" not in app.env.metadata.get(docname, {}):
        return
    source_nb = _source_notebook(app, docname)
    if source_nb is None:
        return
    fignumbers = app.env.toc_fignumbers.get(docname, {})
    numfig = bool(app.config.numfig and app.config.math_numfig)
    title = app.env.titles[docname].astext() if docname in app.env.titles else ""
    kwargs = dict(fignumbers=fignumbers, math_numfig=numfig, title=title)
    committed = build_notebook(doctree, docname, source_nb, **kwargs)
    base = app.config.html_baseurl or ""
    published = build_notebook(doctree, docname, source_nb, link=site_link(base, docname), **kwargs) \
        if base else committed
    out = Path(app.outdir).parent / BUILD_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{docname[len('book/'):]}.ipynb").write_text(dumps(committed), encoding="utf-8")
    app.asb_chapter_notebooks = getattr(app, "asb_chapter_notebooks", {})
    app.asb_chapter_notebooks[docname] = published


def _commit(srcdir) -> str:
    try:
        proc = subprocess.run(["git", "-C", str(srcdir), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", out) else ""


def _write_launch_copies(app, exception):
    """The Colab copies: every chapter's notebook and every lab, install cell filled in."""
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    import nbformat

    repo = getattr(app, "asb_launch", None)
    commit = _commit(app.srcdir) if repo is not None else ""
    site = Path(app.outdir) / LAUNCH_DIR
    generated = dict(getattr(app, "asb_chapter_notebooks", {}))
    built = Path(app.outdir).parent / BUILD_DIR
    for docname in sorted(app.env.found_docs):
        if _is_chapter(app, docname):
            nb = generated.get(docname)
            if nb is None and (built / f"{docname[len('book/'):]}.ipynb").is_file():
                nb = nbformat.read(built / f"{docname[len('book/'):]}.ipynb", as_version=4)
        elif Path(app.env.doc2path(docname)).suffix == ".ipynb":
            nb = Path(app.env.doc2path(docname))  # a lab: copied as it is unless filled in
        else:
            nb = None
        if nb is None:
            continue
        target = site / launch_path(docname, bool(app.config.book_chapter_notebooks))
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(nb, Path):
            text = nb.read_text(encoding="utf-8")
            if repo is not None and commit and INSTALL_TAG in text:
                text = dumps(with_source(nbformat.reads(text, as_version=4), repo.url, commit))
            target.write_text(text, encoding="utf-8")
        else:
            target.write_text(dumps(with_source(nb, repo.url, commit) if repo is not None and commit else nb),
                              encoding="utf-8")


def _launch_buttons_open_notebooks(app, pagename, templatename, context, doctree):
    """Binder and JupyterHub open a chapter's generated notebook; Colab opens the copy
    of the chapter or lab in the published site (``pages_branch``, _launch/)."""
    repo = getattr(app, "asb_launch", None)
    if repo is None or getattr(app.builder, "format", "") != "html":
        return
    if not (_is_chapter(app, pagename) or str(context.get("sourcename", "")).endswith((".ipynb", ".ipynb.txt"))):
        return
    from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

    options = app.config.html_theme_options.get("launch_buttons", {}) or {}
    colab = (options.get("colab_url") or "").strip()
    chapters = bool(app.config.book_chapter_notebooks)
    path = launch_path(pagename, chapters)
    for group in context.get("header_buttons", []):
        if not (isinstance(group, dict) and group.get("label") == "launch-buttons"):
            continue
        buttons = [b for b in group.get("buttons", []) if b.get("text") != "Colab"]
        for button in buttons:
            url = button.get("url")
            if not url or button.get("text") not in ("Binder", "JupyterHub"):
                continue
            parts = urlsplit(url)
            query = parse_qs(parts.query)
            if button["text"] == "Binder":
                query["urlpath"] = [f"lab/tree/{path}"]
            else:
                query["urlpath"] = [f"lab/tree/{repo.name}/{path}"]
            button["url"] = urlunsplit(parts._replace(query=urlencode({k: v[0] for k, v in query.items()},
                                                                      safe="/")))
        if colab:
            buttons.append({"type": "link", "text": "Colab", "tooltip": "Launch on Colab",
                            "icon": "_static/images/logo_colab.png",
                            "url": colab_url(colab, repo.owner, repo.name, pagename, app.config.pages_branch,
                                             chapters)})
        group["buttons"] = buttons


#: Extensions that do not declare whether they are safe for parallel reading (Sphinx then reads
#: serially, with a warning that ``-W`` makes an error), and are: sphinx-multitoc-numbering
#: replaces ``TocTreeCollector.assign_section_numbers``, which runs in the main process after
#: every page is read and merged; sphinx-jupyterbook-latex adds transforms that change each
#: page's own doctree (and act only for LaTeX). Neither keeps anything in the environment.
PARALLEL_READ_SAFE = ("sphinx_multitoc_numbering", "sphinx_jupyterbook_latex")


def _parallel_reading_serial_writing(app):
    """With ``-j N`` (scripts/build-book), pages are read, and so executed, N at a time.
    They are written one at a time, in this process, where ``_generate`` keeps each
    chapter's published notebook for ``_write_launch_copies``."""
    from sphinx.domains import Domain

    app.builder.allow_parallel = False
    for name in PARALLEL_READ_SAFE:
        if name in app.extensions:
            app.extensions[name].parallel_read_safe = True
    # sphinx-proof declares parallel reading safe, but its domain lacks the merge Sphinx
    # calls after a parallel read (NotImplementedError). It has nothing to merge: the
    # proofs live in env.proof_list, which sphinx-proof's own env-merge-info handler merges.
    proofs = app.env.domains.get("prf")
    if proofs is not None and type(proofs).merge_domaindata is Domain.merge_domaindata:
        type(proofs).merge_domaindata = lambda self, docnames, otherdata: None


def _pages_branch(app, config):
    """``PAGES_BRANCH`` in the environment overrides _config.yml's ``pages_branch``
    (config-inited, so Sphinx sees the change and rewrites every page)."""
    from .launch import pages_branch

    config.pages_branch = pages_branch(config.pages_branch)


def main(argv=None) -> int:
    """Copy the notebooks the last build generated into notebooks/chapters/."""
    import argparse
    import shutil

    parser = argparse.ArgumentParser(prog="python -m attention_book.chapter_notebooks",
                                     description=main.__doc__)
    parser.add_argument("--book", default=".", help="the book's root (where _config.yml is)")
    args = parser.parse_args(argv)
    book = Path(args.book)
    built = book / "_build" / BUILD_DIR
    found = sorted(built.glob("*.ipynb"))
    if not found:
        print(f"No generated chapters in {built}: build the book first (make book).")
        return 1
    target = book / CHAPTERS_DIR
    target.mkdir(parents=True, exist_ok=True)
    names = {p.name for p in found}
    for stale in target.glob("*.ipynb"):
        if stale.name not in names:
            stale.unlink()
    for path in found:
        shutil.copy2(path, target / path.name)
    print(f"Copied {len(found)} chapter notebooks to {target}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

