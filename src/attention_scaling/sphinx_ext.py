"""Sphinx extension for this book's build (listed in _config.yml under extra_extensions).

Jupyter Book 1.x always loads sphinx-thebe, which declares ``THEBE_JS_URL`` twice on
every page (a console error), points at a CDN, and adds a config block. The book runs
code in Binder and in its own static players instead, so thebe's assets are removed.
It also corrects the ARIA roles of bibliography entries (see ``_fix_citation_roles``).
"""

from __future__ import annotations

from docutils import nodes


def _is_thebe(asset) -> bool:
    name = str(getattr(asset, "filename", "") or "")
    body = str(getattr(asset, "attributes", {}).get("body", "") or "")
    return "thebe" in name or "THEBE_JS_URL" in body


def _drop_thebe_assets(app, pagename, templatename, context, doctree):
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if not _is_thebe(a)]


def _drop_thebe_config(app, doctree, docname):
    for node in list(doctree.findall(nodes.raw)):
        if "x-thebe-config" in node.astext():
            node.parent.remove(node)


def _fix_citation_roles(app, pagename, templatename, context, doctree):
    """Bibliography entries are marked role="doc-biblioentry" inside a role="list"
    container; axe-core flags that pairing as critical (a list needs listitem children,
    and doc-biblioentry is deprecated). Listitems are what the markup means."""
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", _drop_thebe_assets)
    app.connect("html-page-context", _fix_citation_roles)
    # sphinx-thebe adds its config block at the default priority (500); run after it.
    app.connect("doctree-resolved", _drop_thebe_config, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
