"""What the published book needs besides its chapters: build stamp, social preview, 404 page.

Used by :mod:`attention_book.sphinx_ext` during the build; everything here is plain
functions of their arguments so the tests can call them too.

- :func:`build_stamp` – which git commit the book is built from, and when.
- :func:`footer_html` – the line every page's footer carries (commit, date, and the
  licences the book names, ``book_licences`` in _config.yml).
- :func:`social_tags` – Open Graph and Twitter meta tags (absolute URLs, never fetched).
- :func:`preview_card` – the 1200×630 PNG shown when a page is shared: the book's title
  and subtitle over a picture the book draws (``book_preview_figure``), when it names one.
- :func:`not_found_page` – a self-contained 404 page (see its docstring for why).
- :func:`landing_page` – the site root: a redirect to the first page, with the tags.
"""

from __future__ import annotations

import base64
import html
import io
import os
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

__all__ = [
    "PREVIEW_PATH",
    "PREVIEW_SIZE",
    "CARD_FRAME_TOP",
    "BuildStamp",
    "build_stamp",
    "footer_html",
    "plain_text_maths",
    "social_tags",
    "preview_card",
    "not_found_page",
    "landing_page",
]

#: Where the card goes, relative to the site root, unless _config.yml says (``book_preview_path``).
PREVIEW_PATH = "_static/social/preview.png"
PREVIEW_SIZE = (1200, 630)  # the 1.91:1 card that Open Graph and Twitter crop least
CARD_FRAME_TOP = 165  # pixels above the picture's frame on the card (title, subtitle)


@dataclass(frozen=True)
class BuildStamp:
    """The commit a build comes from (``None`` outside git) and the build date (UTC)."""

    commit: str | None  # short hash, as `git rev-parse --short HEAD` prints it
    sha: str | None
    modified: bool  # tracked files differ from the commit
    date: str  # YYYY-MM-DD

    def describe(self) -> str:
        if self.commit is None:
            return f"Built on {self.date} from a copy outside git (no commit recorded)"
        extra = " with uncommitted changes" if self.modified else ""
        return f"Built on {self.date} from commit {self.commit}{extra}"


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def build_stamp(root: str | Path) -> BuildStamp:
    """Read the commit from git in ``root``; the date honours ``SOURCE_DATE_EPOCH``."""
    root = Path(root)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.fromtimestamp(int(epoch), timezone.utc) if epoch else datetime.now(timezone.utc)
    sha = _git(root, "rev-parse", "HEAD")
    if sha is None:  # e.g. a downloaded archive; CI may still say which commit it is
        sha = os.environ.get("GITHUB_SHA") or None
        short = sha[:7] if sha else None
        return BuildStamp(short, sha, False, when.strftime("%Y-%m-%d"))
    short = _git(root, "rev-parse", "--short", "HEAD") or sha[:7]
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return BuildStamp(short, sha, bool(status), when.strftime("%Y-%m-%d"))


def licence_rows(rows) -> list[tuple[str, str, str]]:
    """``rows`` (``book_licences`` in _config.yml: [what, licence, URL] each, like
    ``["Text and figures", "CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"]``)
    as tuples; ValueError naming the row that is not three non-empty strings."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)):
        raise ValueError(f"book_licences must be a list of [what, licence, URL] rows, got {rows!r}")
    out = []
    for row in rows:
        if not (isinstance(row, (list, tuple)) and len(row) == 3
                and all(isinstance(v, str) and v.strip() for v in row)):
            raise ValueError(f"each row of book_licences must be [what, licence, URL], got {row!r}")
        out.append(tuple(v.strip() for v in row))
    return out


def footer_html(stamp: BuildStamp, licences=()) -> str:
    """One paragraph: the build stamp and the ``licences`` ([what, licence, URL] rows,
    :func:`licence_rows`), with the commit marked for tests."""
    text = html.escape(stamp.describe())
    if stamp.commit:
        marked = f'<code class="asb-commit" data-sha="{html.escape(stamp.sha or "")}">{html.escape(stamp.commit)}</code>'
        text = text.replace(html.escape(stamp.commit), marked, 1)
    esc = html.escape
    named = "; ".join(f'{esc(what)}: <a href="{esc(url)}" rel="license">{esc(name)}</a>'
                      for what, name, url in licence_rows(licences))
    return f'<p class="asb-build">{text}.' + (f" {named}." if named else "") + "</p>"


def social_tags(*, title: str, description: str, url: str, image_url: str, image_alt: str,
                site_name: str, og: bool = True) -> str:
    """Meta tags for link previews. ``og=False`` gives only the Twitter ones (for pages
    whose Open Graph tags sphinxext-opengraph already wrote)."""
    esc = lambda s: html.escape(" ".join(str(s).split()), quote=True)  # noqa: E731
    tags = []
    if og:
        for prop, value in [("og:title", title), ("og:type", "website"), ("og:url", url),
                            ("og:site_name", site_name), ("og:description", description),
                            ("og:image", image_url), ("og:image:alt", image_alt)]:
            tags.append(f'<meta property="{prop}" content="{esc(value)}" />')
        tags.append(f'<meta name="description" content="{esc(description)}" />')
    tags.append(f'<meta property="og:image:width" content="{PREVIEW_SIZE[0]}" />')
    tags.append(f'<meta property="og:image:height" content="{PREVIEW_SIZE[1]}" />')
    for name, value in [("twitter:card", "summary_large_image"), ("twitter:title", title),
                        ("twitter:description", description), ("twitter:image", image_url),
                        ("twitter:image:alt", image_alt)]:
        tags.append(f'<meta name="{name}" content="{esc(value)}" />')
    return "\n".join(tags) + "\n"


def preview_card(path: str | Path, *, title: str, subtitle: str, site_text: str,
                 figure: tuple[bytes, str] | None = None) -> str:
    """Write the social preview PNG: the book's ``title`` and ``subtitle`` (matplotlib's
    mathtext, ``$...$``, allowed) over ``figure``, a PNG and its alt text (placed pixel for
    pixel, not rescaled), when there is one. Returns the image's alt text."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    width, height = PREVIEW_SIZE
    top = CARD_FRAME_TOP
    frame = None
    if figure is not None:
        frame_png, frame_alt = figure
        frame = np.asarray(Image.open(io.BytesIO(frame_png)).convert("RGB"))
        fh, fw = frame.shape[:2]
        if fw > width or fh > height - top - 60:
            raise ValueError(f"the preview figure's frame ({fw}×{fh}) does not fit the {width}×{height} card")

    fig = Figure(figsize=(width / 100, height / 100), dpi=100, facecolor="white")
    FigureCanvasAgg(fig)
    fig.text(0.04, 1 - 58 / height, title, size=32, weight="bold", color="#1f4e79", va="center")
    if subtitle:
        fig.text(0.04, 1 - 112 / height, subtitle, size=19, color="#2b2b2b", va="center")
    if frame is not None:
        fig.figimage(frame, xo=(width - fw) // 2, yo=height - top - fh, origin="upper")
    fig.text(0.04, 40 / height, site_text, size=14, color="#4a4a4a", va="center")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, facecolor="white")
    card = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    if card.size != PREVIEW_SIZE:  # pragma: no cover - matplotlib keeps figsize × dpi exact
        raise ValueError(f"preview card came out {card.size}, expected {PREVIEW_SIZE}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    card.save(path, format="PNG", optimize=True)
    if frame is None:
        words = " ".join(plain_text_maths(subtitle).replace("$", "").split())
        return _clip_sentences(f"Preview of the book: {title}" + (f". {words}" if words else ""), ALT_LIMIT)
    return _clip_sentences(f"Preview of the book: {frame_alt}", ALT_LIMIT)


ALT_LIMIT = 420  # Twitter's limit for image alt text


def _clip_sentences(text: str, limit: int) -> str:
    """Whole sentences of ``text`` up to ``limit`` characters (at least the first)."""
    sentences = [s if s.endswith(".") else s + "." for s in text.split(". ") if s]
    out = sentences[0]
    for sentence in sentences[1:]:
        if len(out) + 1 + len(sentence) > limit:
            break
        out += " " + sentence
    return out


_TEX_SYMBOLS = {
    "cdot": "·", "times": "×", "sum": "∑", "prod": "∏", "partial": "∂", "top": "ᵀ", "le": "≤",
    "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "infty": "∞", "to": "→",
    "in": "∈", "propto": "∝", "pm": "±", "ldots": "…", "dots": "…", "cdots": "⋯", "mid": "|",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "omega": "ω", "Sigma": "Σ", "Delta": "Δ", "nabla": "∇",
    "left": "", "right": "", "big": "", "Big": "", "quad": " ", "qquad": " ",
}


def _wrap(term: str) -> str:
    return term if len(term) == 1 else f"({term})"


def plain_text_maths(text: str) -> str:
    """Readable plain text for TeX that leaks into a page description (meta tags cannot
    show maths): ``q\\cdot k_j`` becomes ``q·k_j``, ``\\sqrt{d_k}`` becomes ``√(d_k)``."""
    import re

    def group(pattern):  # one level of {...}
        return pattern.replace("G", r"\{([^{}]*)\}")

    for _ in range(3):  # innermost groups first
        text = re.sub(group(r"\\[dt]?frac\s*GG"), lambda m: f"{_wrap(m.group(1))}/{_wrap(m.group(2))}", text)
        text = re.sub(group(r"\\sqrt\s*G"), r"√(\1)", text)
        text = re.sub(group(r"\\(?:operatorname|mathrm|mathbf|mathit|text|boldsymbol)\s*G"), r"\1", text)
        text = re.sub(group(r"([_^])G"), lambda m: m.group(1) + _wrap(m.group(2)), text)
    text = re.sub(r"\^\s*\\top\b", "ᵀ", text)
    text = text.replace(r"\|", "‖")
    # TeX swallows the space after a control word: "q\cdot k" reads "q·k".
    text = re.sub(r"\\([A-Za-z]+) ?", lambda m: _TEX_SYMBOLS.get(m.group(1), m.group(1)), text)
    text = re.sub(r"\\[,;:! ]", " ", text)
    return re.sub(r"[ \t]+", " ", text.replace("{", "").replace("}", ""))


_PAGE_STYLE = """
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
         color: #222832; background: #fff; line-height: 1.55; }
  header, main, footer { max-width: 46rem; margin: 0 auto; padding: 0 1.25rem; }
  header { display: flex; align-items: center; gap: 0.6rem; padding-top: 1.25rem; }
  header img { width: 2rem; height: 2rem; }
  header a { color: #222832; font-weight: 600; text-decoration: none; }
  h1 { font-size: 2rem; margin: 2rem 0 0.5rem; }
  h2 { font-size: 1.2rem; margin-top: 1.75rem; }
  a { color: #0a4a8c; }
  li { margin: 0.3rem 0; }
  footer { margin-top: 3rem; padding-top: 1rem; padding-bottom: 2rem; border-top: 1px solid #d5d8dc;
           font-size: 0.9rem; color: #4a4a4a; }
  footer a { color: #0a4a8c; }
  /* the reader's dark setting, as the book's pages follow it (the same text and link colours) */
  @media (prefers-color-scheme: dark) {
    body { color: #ced6dd; background: #14181e; }
    header a { color: #ced6dd; }
    a, footer a { color: #9cc9ff; }
    footer { color: #b0b8c0; border-top-color: #3a4048; }
  }
"""

# GitHub Pages answers every missing address under the site with this one file, at that
# address: relative links would resolve against the missing page's folder. So links are
# written relative to the site root (right from file:// and `make serve`), and on the
# published site this rewrites them to start at the site's path, whatever the depth.
_ROOT_LINKS = """
(function () {
  var base = document.documentElement.dataset.baseurl;
  if (!base) return;  // a build with no site address (attention_book.launch)
  var root = new URL(base).pathname;
  if (location.protocol === "file:" || location.pathname.indexOf(root) !== 0) return;
  document.querySelectorAll("a[data-path]").forEach(function (a) {
    a.setAttribute("href", root + a.dataset.path);
  });
})();
"""


def _favicon_data_uri(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def not_found_page(*, book_title: str, baseurl: str, pages: list[tuple[str, str]], favicon_svg: bytes,
                   footer: str, tags: str) -> str:
    """The 404 page, self-contained: inline style, inline icon, no file to fetch, so it
    looks the same at any depth and from disk. ``pages`` are (path from the site root,
    title) pairs. sphinx-notfound-page is not used: it makes every URL absolute
    (``notfound_urls_prefix``, default ``/en/latest/``), which breaks the page from file://."""
    esc = html.escape
    items = "\n".join(f'      <li><a data-path="{esc(p)}" href="{esc(p)}">{esc(t)}</a></li>' for p, t in pages)
    icon = _favicon_data_uri(favicon_svg)
    first = pages[0][0] if pages else "index.html"
    return f"""<!DOCTYPE html>
<html lang="en" data-baseurl="{esc(baseurl)}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>Page not found · {esc(book_title)}</title>
<link rel="icon" href="{icon}" />
{tags}<style>{_PAGE_STYLE}</style>
</head>
<body>
  <header>
    <img src="{icon}" alt="" />
    <a data-path="{esc(first)}" href="{esc(first)}">{esc(book_title)}</a>
  </header>
  <main>
    <h1>Page not found</h1>
    <p>There is no page at this address in <em>{esc(book_title)}</em>. The link may be
    old or mistyped; every page of the book is listed below.</p>
    <h2>The book's pages</h2>
    <ul>
{items}
    </ul>
    <p>Or <a data-path="search.html" href="search.html">search the book</a>.</p>
  </main>
  <footer>
    {footer}
  </footer>
<script>{_ROOT_LINKS}</script>
</body>
</html>
"""


def landing_page(*, book_title: str, first_page: str, first_title: str, canonical: str, tags: str,
                 icon: str = "") -> str:
    """The site root: an immediate redirect to the first page (as Jupyter Book writes it),
    plus a title, a canonical link, the book's ``icon`` (its URL from the root; none when
    "") and the social tags, so a shared root URL has a preview."""
    esc = html.escape
    icon_link = f'<link rel="icon" href="{esc(icon)}" />\n' if icon else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta http-equiv="Refresh" content="0; url={esc(first_page)}" />
<title>{esc(book_title)}</title>
<link rel="canonical" href="{esc(canonical)}" />
{icon_link}{tags}</head>
<body>
<p>The book starts at <a href="{esc(first_page)}">{esc(first_title)}</a>.</p>
</body>
</html>
"""
