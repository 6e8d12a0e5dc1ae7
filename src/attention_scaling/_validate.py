"""Argument checks shared by every public function of the package.

Every check raises :class:`ValueError` whose message starts with the name of the
offending parameter, so a reader who passes bad input learns which argument to fix.
"""

from __future__ import annotations

import numbers

import numpy as np

FLOAT_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def float_dtype(dtype, name: str = "dtype") -> np.dtype:
    """Return ``dtype`` as a numpy dtype if it is float16, float32 or float64."""
    try:
        dt = np.dtype(dtype)
    except TypeError as exc:
        raise ValueError(f"{name} must be float16, float32 or float64, got {dtype!r}") from exc
    if dt not in FLOAT_DTYPES:
        raise ValueError(f"{name} must be float16, float32 or float64, got {dt}")
    return dt


def real_array(x, name: str, *, dtype=None, min_ndim: int = 1, allow_neg_inf: bool = False) -> np.ndarray:
    """Convert ``x`` to a non-empty real floating array and reject NaN and inf.

    Integer and boolean input becomes float64. Floating input keeps its precision
    unless ``dtype`` asks for another one. ``allow_neg_inf`` lets masked scores
    (``-inf``) through.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:  # ragged nested lists, for example
        raise ValueError(f"{name} must be an array of real numbers: {exc}") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if dtype is not None:
        target = float_dtype(dtype)
    elif arr.dtype in FLOAT_DTYPES:
        target = arr.dtype
    else:
        target = np.dtype(np.float64)
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    with np.errstate(over="ignore"):
        out = arr.astype(target, copy=False)
    if np.isposinf(arr).any() or (not allow_neg_inf and np.isneginf(arr).any()):
        raise ValueError(f"{name} contains inf; pass finite values")
    if np.isinf(out).any() and not np.isinf(arr).any():
        raise ValueError(f"{name} has values outside the range of {target}")
    return out


def axis_index(axis, ndim: int, name: str = "axis") -> int:
    """Return ``axis`` normalised to ``0 <= axis < ndim``."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {axis!r}")
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name}={axis} is out of range for an array with {ndim} dimension(s)")
    return axis % ndim


def positive_int(value, name: str, minimum: int = 1) -> int:
    """Return ``value`` as an int if it is an integer ``>= minimum`` (bools are rejected)."""
    if is_bool(value) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def positive_real(value, name: str) -> float:
    """Return ``value`` as a float if it is a finite real number ``> 0``."""
    if is_bool(value) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = as_float(value, name)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {value}")
    return value


def as_float(value, name: str) -> float:
    """A real number as a float; one beyond float64's range (a Python int of 10**400, say,
    where ``float`` raises OverflowError) is refused by name."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must lie within float64's range (±1.8e308), got a number of "
                         f"{abs(int(value)).bit_length()} bits") from None


def probabilities(p, name: str, *, axis: int | None = -1, min_ndim: int = 1) -> np.ndarray:
    """Check that ``p`` holds probabilities in [0, 1] that sum to 1 along ``axis``.

    With ``axis=None`` only the range is checked (a single probability, for example).
    The tolerance on the sum scales with the dtype's resolution and the number of terms.
    """
    arr = real_array(p, name, min_ndim=min_ndim)
    eps = float(np.finfo(arr.dtype).eps)
    if (arr < 0).any() or (arr > 1).any():
        raise ValueError(f"{name} must lie in [0, 1]")
    if axis is not None:
        ax = axis_index(axis, arr.ndim)
        k = arr.shape[ax]
        total = arr.astype(np.float64).sum(axis=ax)
        tol = max(1e-9, 16 * eps * k)
        if np.abs(total - 1).max() > tol:
            raise ValueError(f"{name} must sum to 1 along axis {axis} (largest error {np.abs(total - 1).max():.3g})")
    return arr


def increasing_ints(values, name: str) -> list[int]:
    """``values`` as a list of strictly increasing positive integers (a grid of dimensions)."""
    items = [positive_int(x, name) for x in np.atleast_1d(np.asarray(values, dtype=object))]
    if not items or sorted(set(items)) != items:
        raise ValueError(f"{name} must be strictly increasing positive integers, got {items}")
    return items


def generator(seed, name: str = "seed") -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from an int seed ``>= 0`` or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(positive_int(seed, name, minimum=0))


def is_bool(value) -> bool:
    """True for a Python bool or a numpy bool (``np.True_``): both are accepted wherever a flag is."""
    return isinstance(value, (bool, np.bool_))


def scale_exponent(arr: np.ndarray, axis=None) -> np.ndarray:
    """Power-of-two exponent ``e`` with ``max|arr| < 2**e`` along ``axis`` (0 where the slice is all 0).

    Dividing by ``2**e`` is exact, so a computation that would overflow (a sum of squares of
    1e200) or underflow can be carried out on ``arr / 2**e`` and scaled back.
    """
    top = np.max(np.abs(arr), axis=axis, keepdims=axis is not None)
    return np.frexp(np.where(top > 0, top, 1.0))[1]
