"""An explorer shown as a player of precomputed frames, for the tests of that machinery
(Explorable.static_html's frame player, the live blit path and its frame cache): the book's
explorers all compute in the page now (issue 30), so this is the normalisation explorer without its
module, with the magnitude's row of frames cached live, as it was shown before."""

from __future__ import annotations

import dataclasses

from attention_scaling.explorables import normalization_explorer


def frame_normalization_explorer(seed: int = 0):
    """The normalisation explorer as a frame player (no module), its magnitude the cached slider."""
    return dataclasses.replace(normalization_explorer(seed), web=None, payload=None, fast="magnitude")
