"""Launch buttons: every Binder, JupyterHub (nbgitpuller) and Colab link points at a file
that exists in this repository, Colab appears only on notebook pages, and the download
links point at files in the built site."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlparse

import pytest
import yaml

from book_files import ROOT, html_page, toc_files

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
REPO_URL = CONFIG["repository"]["url"].rstrip("/")
ORG, REPO = urlparse(REPO_URL).path.strip("/").split("/")[:2]
BRANCH = CONFIG["repository"]["branch"]
PAGES = toc_files()


def links(html: str, host: str) -> list[str]:
    return [unquote(h.replace("&amp;", "&")) for h in re.findall(rf'href="(https://{re.escape(host)}[^"]+)"', html)]


@pytest.mark.parametrize("source", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_launch_links_point_at_files_in_the_repository(site, source):
    html = (site / html_page(source)).read_text(encoding="utf-8")
    rel = str(source.relative_to(ROOT))
    launch = CONFIG["launch_buttons"]

    binder = links(html, urlparse(launch["binderhub_url"]).netloc)
    assert len(binder) == 1, binder
    url = urlparse(binder[0])
    assert url.path == f"/v2/gh/{ORG}/{REPO}/{BRANCH}"
    target = parse_qs(url.query)["urlpath"][0].split("tree/", 1)[1]
    assert target == rel and (ROOT / target).is_file()

    hub = links(html, urlparse(launch["jupyterhub_url"]).netloc)
    assert len(hub) == 1, hub
    query = parse_qs(urlparse(hub[0]).query)
    assert query["repo"] == [REPO_URL] and query["branch"] == [BRANCH]
    target = query["urlpath"][0].split(f"tree/{REPO}/", 1)[1]
    assert target == rel and (ROOT / target).is_file()

    colab = links(html, urlparse(launch["colab_url"]).netloc)
    if source.suffix == ".ipynb":
        assert len(colab) == 1
        blob = urlparse(colab[0]).path.split(f"/github/{ORG}/{REPO}/blob/{BRANCH}/", 1)[1]
        assert blob == rel and (ROOT / blob).is_file()
    else:  # Colab opens only .ipynb files
        assert colab == []


@pytest.mark.parametrize("source", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_download_links_exist_in_the_site(site, source):
    page = site / html_page(source)
    html = page.read_text(encoding="utf-8")
    downloads = set(re.findall(r'href="([^"]*_sources/[^"]+)"', html))
    suffixes = {".ipynb"} | ({".md"} if source.suffix == ".md" else set())
    assert {d.rsplit(".", 1)[-1] for d in downloads} >= {s.lstrip(".") for s in suffixes}
    for href in downloads:
        assert (page.parent / href).resolve().is_file(), href
