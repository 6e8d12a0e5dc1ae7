"""attention_scaling: the code behind the book *Why attention divides by √d_k*.

Layers, each importing only the ones before it:

1. :mod:`attention_scaling.numerics` – stable softmax, its Jacobian, P(1−P), entropy,
   seeded query and key vectors.
"""

from .numerics import diagonal_gradient, draw_queries_keys, entropy, softmax, softmax_jacobian

__all__ = ["softmax", "softmax_jacobian", "diagonal_gradient", "entropy", "draw_queries_keys"]
__version__ = "0.1.0"
