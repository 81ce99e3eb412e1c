"""Parameter normalisation shared by convolution and pooling: ints or tuples become pairs,
padding becomes ``((top, bottom), (left, right))``, and the output-size arithmetic with
errors that name the op and the shapes."""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError, SporelingError

__all__ = ["pair", "conv_padding", "pool_padding", "window_output", "check_ndim"]

_INTS = (int, np.integer)


def pair(op: str, name: str, value, minimum: int) -> tuple[int, int]:
    """``value`` (an int or two ints, each >= ``minimum``) as a pair of ints."""
    if type(value) is int and value >= minimum:  # the common case, without the checks below
        return value, value
    if isinstance(value, _INTS) and not isinstance(value, bool):
        value = (value, value)
    try:
        a, b = value
        ok = all(isinstance(v, _INTS) and not isinstance(v, bool) and v >= minimum
                 for v in (a, b))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise SporelingError(f"bad {name}", op=op,
                             expected=f"an int or a pair of ints >= {minimum}", got=repr(value))
    return int(a), int(b)


def conv_padding(op: str, padding, kernel, dilation, stride):
    """``padding`` as ``((top, bottom), (left, right))``. ``"valid"`` is no padding;
    ``"same"`` keeps the size at stride 1 (the odd pixel goes bottom/right, as PyTorch)."""
    if isinstance(padding, str):
        if padding == "valid":
            return (0, 0), (0, 0)
        if padding == "same":
            if stride != (1, 1):
                raise SporelingError('padding="same" needs stride 1', op=op,
                                     expected="stride 1", got=f"stride {stride}")
            out = []
            for k, d in zip(kernel, dilation):
                total = d * (k - 1)
                out.append((total // 2, total - total // 2))
            return tuple(out)
        raise SporelingError("bad padding", op=op,
                             expected='an int, a pair, "same" or "valid"', got=repr(padding))
    ph, pw = pair(op, "padding", padding, 0)
    return (ph, ph), (pw, pw)


def pool_padding(op: str, padding, kernel) -> tuple:
    """Pooling padding: at most half the kernel on each side (PyTorch's rule)."""
    ph, pw = pair(op, "padding", padding, 0)
    if ph > kernel[0] // 2 or pw > kernel[1] // 2:
        raise SporelingError("padding larger than half the kernel", op=op,
                             expected=f"padding <= {(kernel[0] // 2, kernel[1] // 2)}",
                             got=f"padding {(ph, pw)} with kernel {tuple(kernel)}")
    return (ph, ph), (pw, pw)


def check_ndim(op: str, name: str, aval, ndim: int, layout: str) -> None:
    if len(aval.shape) != ndim:
        raise ShapeError(f"{name} must be {ndim}-d ({layout})", op=op,
                         expected=f"{ndim} dimensions", got=tuple(aval.shape))


def window_output(op: str, spatial, kernel, stride, padding, dilation, x_shape):
    """Output size per spatial axis of a sliding window, or a ShapeError when the
    (dilated) kernel is larger than the padded input."""
    out = []
    for n, k, s, (lo, hi), d in zip(spatial, kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        if span > n + lo + hi:
            raise ShapeError("kernel larger than the padded input", op=op,
                             expected=f"dilated kernel size <= padded input size "
                                      f"({n} + {lo} + {hi})",
                             got=f"kernel {tuple(kernel)} (dilation {tuple(dilation)}) "
                                 f"over input {tuple(x_shape)}")
        out.append((n + lo + hi - span) // s + 1)
    return tuple(out)
