"""Unit tests of attention_book.publishing: build stamp, footer, tags, plain-text maths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from attention_book import publishing as pub

ROOT = Path(__file__).resolve().parents[2]


def test_stamp_outside_git_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_SHA", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    stamp = pub.build_stamp(tmp_path)
    assert stamp == pub.BuildStamp(None, None, False, "2026-01-01")
    assert stamp.describe() == "Built on 2026-01-01 from a copy outside git (no commit recorded)"
    assert "asb-commit" not in pub.footer_html(stamp)


def test_stamp_outside_git_uses_the_ci_commit(tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567")
    stamp = pub.build_stamp(tmp_path)
    assert stamp.commit == "0123456" and stamp.sha.startswith("0123456789")


LICENCES = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]["book_licences"]


def test_footer_marks_commit_and_licences():
    stamp = pub.BuildStamp("abc1234", "abc1234" + "0" * 33, True, "2026-11-29")
    footer = pub.footer_html(stamp, LICENCES)
    assert 'Built on 2026-11-29 from commit <code class="asb-commit" data-sha="abc1234' in footer
    assert ">abc1234</code> with uncommitted changes." in footer
    assert ('. Text and figures: <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>; '
            'code: <a href="https://opensource.org/license/mit" rel="license">MIT</a>.</p>') in footer


def test_a_footer_names_no_licence_unless_the_book_does():
    stamp = pub.BuildStamp("abc1234", "abc1234" + "0" * 33, False, "2026-11-29")
    footer = pub.footer_html(stamp)
    assert footer.endswith(">abc1234</code>.</p>") and "license" not in footer
    for bad in ("CC BY", [["Text", "CC BY"]], [["Text", "", "https://x.test/"]], [("a", "b", 3)]):
        with pytest.raises(ValueError, match="book_licences"):
            pub.footer_html(stamp, bad)


def test_social_tags_escape_and_pair_twitter_with_og():
    tags = pub.social_tags(title='A "quoted" <title>', description="d & e", url="https://x.test/p.html",
                           image_url="https://x.test/i.png", image_alt="alt", site_name="S")
    assert 'content="A &quot;quoted&quot; &lt;title&gt;"' in tags
    assert '<meta name="twitter:card" content="summary_large_image" />' in tags
    assert '<meta property="og:description" content="d &amp; e" />' in tags
    only_twitter = pub.social_tags(title="t", description="d", url="u", image_url="i", image_alt="a",
                                   site_name="s", og=False)
    assert "og:title" not in only_twitter and "twitter:title" in only_twitter


@pytest.mark.parametrize(
    "tex, plain",
    [
        (r"The dot products q\cdot k inside", "The dot products q·k inside"),
        (r"P_i = e^{z_i} / \sum_j e^{z_j}", "P_i = e^(z_i) / ∑_j e^(z_j)"),
        (r"divide by \sqrt{d_k}", "divide by √(d_k)"),
        (r"\frac{\partial P_1}{\partial z_1} = P_1(1 - P_1)", "(∂P_1)/(∂z_1) = P_1(1 - P_1)"),
        (r"J = \operatorname{diag}(p) - pp^\top", "J = diag(p) - ppᵀ"),
        ("plain prose, costs $5", "plain prose, costs $5"),
    ],
)
def test_plain_text_maths(tex, plain):
    assert pub.plain_text_maths(tex) == plain
    assert not re.search(r"\\[A-Za-z]", pub.plain_text_maths(tex))


def test_alt_text_is_clipped_at_sentences():
    text = "One. " + "Two two two. " * 60
    clipped = pub._clip_sentences(text, 100)
    assert len(clipped) <= 100 and clipped.endswith(".") and clipped.startswith("One.")


def test_not_found_page_links_from_the_site_root():
    page = pub.not_found_page(book_title="B", baseurl="https://x.test/b/",
                              pages=[("book/intro.html", "Intro"), ("book/a.html", "1. A")],
                              favicon_svg=b"<svg/>", footer="<p>f</p>", tags="")
    assert 'data-baseurl="https://x.test/b/"' in page
    assert '<a data-path="book/a.html" href="book/a.html">1. A</a>' in page
    assert "src=\"data:image/svg+xml;base64," in page


def test_landing_page_names_the_icon_only_when_the_book_has_one():
    args = dict(book_title="B", first_page="a.html", first_title="A", canonical="https://x.test/a.html", tags="")
    assert 'rel="icon"' not in pub.landing_page(**args)
    assert '<link rel="icon" href="_static/i.svg" />' in pub.landing_page(**args, icon="_static/i.svg")
