"""The claims convention: a sentence about a result fails loudly when the result changes."""

import json

import numpy as np
import pytest

from attention_scaling.claims import ClaimError, claim, claims_in, main
from book_files import toc_files


def test_claim_passes_and_fails_with_its_sentence_and_evidence():
    claim("two is less than three", 2 < 3)
    claim("all positive", np.array([1, 2]) > 0)
    with pytest.raises(ClaimError, match=r"the weights stay below 0\.3 \(largest=0\.31\)"):
        claim("the weights stay below 0.3", 0.31 < 0.3, largest=0.31)
    with pytest.raises(ClaimError):
        claim("all positive", np.array([1, -2]) > 0)


@pytest.mark.parametrize("text, holds, name", [
    ("", True, "text"), ("ok", 1, "holds"), ("ok", np.array([], dtype=bool), "holds"),
    ("ok", np.array([1.0]), "holds"), (None, True, "text"),
])
def test_claim_rejects_bad_input(text, holds, name):
    with pytest.raises(ValueError, match=name):
        claim(text, holds)


def test_claims_are_listed_from_myst_and_ipynb(tmp_path, capsys):
    md = tmp_path / "c.md"
    md.write_text("# T\n\n```{code-cell} ipython3\n:tags: [remove-cell]\n\nx = 1\n"
                  "claim('x is one', x == 1, x=x)\n```\n\nText.\n\n```{code-cell} ipython3\n---\n"
                  "tags: [hide-input]\n---\nfrom m import claim\nclaim(\"second\", True)\n```\n")
    nb = tmp_path / "n.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["%matplotlib inline\n", "claim('in a lab', True)"]},
                                        {"cell_type": "markdown", "source": ["claim('not code', True)"]}]}))
    assert [s for _, s in claims_in(md)] == ["x is one", "second"]
    assert [s for _, s in claims_in(nb)] == ["in a lab"]
    assert main([str(md)]) == 0
    assert "x is one" in capsys.readouterr().out
    with pytest.raises(ValueError, match="path"):
        claims_in(tmp_path / "missing.md")


def test_every_page_parses_for_the_claim_listing():
    for page in toc_files():
        claims_in(page)  # a page whose cells do not parse would hide its claims from review
