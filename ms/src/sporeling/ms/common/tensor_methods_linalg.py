"""MindSpore 2.10's ``Tensor`` methods ``qr``, ``triangular_solve`` and ``choose``: the rest
of the linear-algebra methods are one ``ms.ops`` call each (``tensor_methods.SAME``).

``qr(some)`` maps onto ``ops.qr(x, mode)``. ``triangular_solve`` calls
``ms.ops.triangular_solve`` when the facade has it (looked up per call) and otherwise solves
with LAPACK on the NumPy values, eager only (:func:`~sporeling.ms.common.eager.eager_only`:
an error under Graph mode or ``grad``). ``choose`` is composed from ``sx`` ops, so it
differentiates (in the choices) and traces.
"""
from __future__ import annotations

import types

import numpy as np

from sporeling.compiler import ops as _sops
from sporeling.core import SporelingError
from sporeling.expression import Tensor

from .eager import eager_only

__all__ = ["LINALG", "PreferOp"]


def _ops():
    from .. import ops  # the facade's functions (imported after this module)
    return ops


def _array(x) -> np.ndarray:
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


@eager_only("Tensor.triangular_solve")
def _triangular_solve(x, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803
    """``(X, A)`` with ``A @ X = x`` (``A^T`` with ``transpose``) for a triangular ``A``
    (upper unless ``upper=False``; diagonal taken as ones with ``unitriangular``); both
    ``(*, M, K)`` and ``(*, M, M)``, the batch axes broadcast."""
    from scipy.linalg import solve_triangular
    if x.ndim < 2:
        raise SporelingError("needs (a batch of) matrices", op="Tensor.triangular_solve",
                             expected="b of rank >= 2", got=f"shape {tuple(x.shape)}")
    b, a = _array(x).astype(np.float64), _array(A).astype(np.float64)
    batch = np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    b, a = np.broadcast_to(b, batch + b.shape[-2:]), np.broadcast_to(a, batch + a.shape[-2:])
    out = np.empty(batch + b.shape[-2:])
    for i in np.ndindex(*batch):
        out[i] = solve_triangular(a[i], b[i], trans=1 if transpose else 0, lower=not upper,
                                  unit_diagonal=unitriangular)
    dtype = x.dtype if x.dtype.kind == "f" else np.float32
    return Tensor(out.astype(dtype)), A if isinstance(A, Tensor) else Tensor(np.asarray(A))


def _choose(x, choices, mode="clip"):
    """``choices[x[i]][i]`` for every position ``i`` (NumPy's ``choose``): ``x`` holds
    indices into the sequence ``choices`` (a list of tensors, or a tensor's first axis); all
    broadcast together. ``mode``: ``"clip"`` (to ``[0, n-1]``), ``"wrap"`` or ``"raise"``."""
    ops = _ops()
    if mode not in ("clip", "wrap", "raise"):
        raise SporelingError("unknown mode", op="Tensor.choose",
                             expected="'clip', 'wrap' or 'raise'", got=repr(mode))
    if isinstance(choices, Tensor):
        choices = [choices[i] for i in range(choices.shape[0])]
    choices = [c if isinstance(c, Tensor) else Tensor(np.asarray(c)) for c in choices]
    n = len(choices)
    shape = tuple(np.broadcast_shapes(tuple(x.shape), *(tuple(c.shape) for c in choices)))
    stacked = ops.stack([ops.broadcast_to(c, shape) for c in choices], 0)
    index = _sops.cast(x, np.int64)
    if mode == "raise":
        values = _array(index)
        if values.size and (values.min() < 0 or values.max() >= n):
            raise SporelingError("an index is out of range", op="Tensor.choose",
                                 expected=f"indices in [0, {n - 1}]",
                                 got=f"[{values.min()}, {values.max()}]")
    index = ops.clamp(index, 0, n - 1) if mode == "clip" else ops.remainder(index, n)
    index = ops.expand_dims(ops.broadcast_to(index, shape), 0)
    return ops.squeeze(ops.gather_elements(stacked, 0, index), 0)


class PreferOp:
    """A method calling ``ms.ops.<name>`` when the facade has it, else ``fallback``;
    ``to_args(x, *args, **kwargs) -> (args, kwargs)`` maps the method's arguments onto the
    function's (default: as given, ``x`` first). Eager only as the one it calls."""

    def __init__(self, name, fallback, to_args=None):
        self.name, self.fallback, self.to_args = name, fallback, to_args
        self.__doc__ = (f"``ms.ops.{name}`` (MindSpore's ``Tensor`` method): "
                        f"{(fallback.__doc__ or '').strip()}")

    def _function(self):
        return getattr(_ops(), self.name, None)

    def __call__(self, x, *args, **kwargs):
        fn = self._function()
        if fn is None:
            return self.fallback(x, *args, **kwargs)
        if self.to_args is None:
            return fn(x, *args, **kwargs)
        args, kwargs = self.to_args(x, *args, **kwargs)
        return fn(*args, **kwargs)

    def __get__(self, tensor, owner=None):  # a method of Tensor: bound to the tensor
        return self if tensor is None else types.MethodType(self, tensor)

    @property
    def __ms_eager_only__(self) -> bool:
        """Read when asked (not when installed): a function the facade gains later counts."""
        return getattr(self._function() or self.fallback, "__ms_eager_only__", False) is True


def _qr(x, some=True):
    """``(Q, R)`` of each matrix: reduced factors with ``some``, else complete ones
    (``ops.qr(x, "reduced" / "complete")``)."""
    return _ops().qr(x, "reduced" if some else "complete")


_qr.__ms_eager_only__ = True  # as ops.qr (LAPACK on the values)


LINALG = {
    "triangular_solve": PreferOp("triangular_solve", _triangular_solve),
    "qr": _qr,
    "choose": _choose,
}
