"""attention_scaling: the code behind the book *Why attention divides by √d_k*.

Layers, each importing only the ones before it:

1. :mod:`attention_scaling.numerics` – stable softmax, its Jacobian, P(1−P), entropy,
   seeded query and key vectors, central differences;
   :mod:`attention_scaling.attention` – attention forward and backward in numpy.
   :mod:`attention_scaling.stability` – where the naive softmax breaks, log-sum-exp,
   log-softmax, masked softmax (imported from its module, not re-exported here).
2. :mod:`attention_scaling.symbolic` – derivations whose every step SymPy checks;
   :mod:`attention_scaling.derivations` – the book's proofs built with it.
3. :mod:`attention_scaling.figures` – matplotlib figures (no pyplot), live blitted figures.
4. :mod:`attention_scaling.explorables` – ipywidgets sliders; static players for the book.
"""

from . import numerics
from .numerics import *  # noqa: F403 - the numerics layer is the package's top-level API

__all__ = list(numerics.__all__)
__version__ = "0.1.0"
