"""An index of the book's theorems that a reader can read: numbers and titles, by chapter.

sphinx-proof's own index (``prf-prf.html``) lists each result by its label
("thm-cross-term") in alphabetical order. This one (``prf-theorems.html``) lists them as the
pages show them, "Theorem 2.1 · Off-diagonal terms", under the chapter they belong to, in the
book's order. A book keeps only this one with ``html_domain_indices: ["prf-theorems"]``.
"""

from __future__ import annotations

from sphinx.domains import Index


def _results(env, docname: str) -> list[tuple[str, str]]:
    """(label, title) of the results one page states, in the page's order (sphinx-proof keeps
    each result's title on its node)."""
    return [(node["label"], _bare(node.get("title", ""))) for node in env.get_doctree(docname).findall()
            if hasattr(node, "get") and node.get("label") and node.get("realtype")]


def _bare(title: str) -> str:
    """The title without the parentheses sphinx-proof's default title format puts round it."""
    title = title.strip()
    title = title[1:-1] if title.startswith("(") and title.endswith(")") else title
    return title.replace("'", "\u2019")  # the apostrophe the page shows (Sphinx's smart quotes)


class TheoremIndex(Index):
    name = "theorems"
    localname = "Theorems and results"
    shortname = "Theorems"

    def generate(self, docnames=None):
        env = self.domain.env
        proofs = getattr(env, "proof_list", {})
        pages = {p["docname"] for p in proofs.values()}
        content = []
        for docname in [d for d in reading_order(env) if d in pages]:
            if docnames and docname not in docnames:
                continue
            numbers = env.toc_fignumbers.get(docname, {})
            entries = []
            for label, title in _results(env, docname):
                if label not in proofs:
                    continue
                proof = proofs[label]
                number = ".".join(map(str, numbers.get(proof["countertype"], {}).get(label, ())))
                name = " ".join(filter(None, [proof["realtype"].title(), number]))
                if title:
                    name += f" · {title}"
                # (name, subtype, docname, anchor, extra, qualifier, description): the chapter's
                # title stands beside its first result.
                entries.append((name, 0, docname, label, "", "", "" if entries else env.titles[docname].astext()))
            section = ".".join(map(str, env.toc_secnumbers.get(docname, {}).get("", ())))
            content.append((f"Chapter\u00a0{section}" if section else env.titles[docname].astext(), entries))
        return content, False


def reading_order(env) -> list[str]:
    """The documents in the order the table of contents reads them (root first); the
    theorem index and the site pages' list of chapters (sphinx_ext._toc_pages) both follow it."""
    seen: list[str] = []

    def walk(docname: str) -> None:
        if docname in seen:
            return
        seen.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(env.config.root_doc)
    return seen
