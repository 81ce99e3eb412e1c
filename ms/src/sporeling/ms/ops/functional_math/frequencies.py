"""The real-valued helpers of 2.10's FFT family: sample frequencies (``fftfreq``,
``rfftfreq``) and the zero-frequency shifts (``fftshift``, ``ifftshift``, rolls that carry
gradients). The transforms themselves give complex tensors, which Sporeling lacks (see
ms/README.md)."""
from __future__ import annotations

import numpy as np

from ._util import SporelingError, Tensor, np_dtype, ops, result, tensor

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _frequencies(op, n, d, dtype, fn):
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise SporelingError("n must be a positive int", op=op, expected="an int >= 1",
                             got=repr(n))
    return Tensor(fn(int(n), float(d)).astype(np_dtype(dtype) or np.float32))


def fftfreq(n, d=1.0, *, dtype=None):
    """The sample frequencies of an ``n``-point FFT with sample spacing ``d``:
    ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d n)`` (float32 unless
    ``dtype``)."""
    return _frequencies("ops.fftfreq", n, d, dtype, np.fft.fftfreq)


def rfftfreq(n, d=1.0, *, dtype=None):
    """The non-negative sample frequencies of an ``n``-point real FFT:
    ``[0, 1, ..., n // 2] / (d n)``."""
    return _frequencies("ops.rfftfreq", n, d, dtype, np.fft.rfftfreq)


def _shift(input, dim, sign):  # noqa: A002
    x = tensor(input)
    dims = tuple(range(x.ndim)) if dim is None else \
        (tuple(int(a) for a in dim) if isinstance(dim, (tuple, list)) else (int(dim),))
    shifts = tuple(sign * (x.shape[a] // 2) for a in dims)
    return result(ops.roll(x, shifts, dims))


def fftshift(input, dim=None):  # noqa: A002
    """``input`` rolled so the zero frequency is at the centre of each axis in ``dim``
    (all axes when None)."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):  # noqa: A002
    """The inverse of :func:`fftshift`."""
    return _shift(input, dim, -1)
