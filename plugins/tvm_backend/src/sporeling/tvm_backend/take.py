"""``x[i]`` at an index read from a tensor (``getitem`` of one 0-d integer operand: a
schedule's learning rate at the step count) as a generated function copying that row, so
that a training step reading one runs as one native step: NumPy's kernel returns a view of
the row, which a native step would read at the recorded index. Negative indices count from
the end, as NumPy's; an index out of range cannot raise inside the function: it sets a flag
(the row read is clamped), and the kernel then runs NumPy's, which names it. Every other
``getitem`` (basic indices: a view; index arrays) runs the provider below.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .kernels import below_call, invoke, made_call, spec_function
from .tir_text import Generated, Writer, header

__all__ = ["TakeSpec", "take_spec", "getitem"]

_OPERAND = "operand"  # the key's marker of an index operand (runtime.kernels.indexing)
_DTYPES = ("float32", "float64", "int32", "int64")


@dataclass(frozen=True)
class TakeSpec(Generated):
    """Row ``i`` of ``x`` seen as ``(rows, size)``."""
    rows: int
    size: int
    dtype: str
    index_dtype: str
    kind: str = "getitem"

    def source(self) -> str:
        n, dt = self.rows, self.dtype
        lines = header([("x", f"({n}, {self.size})", dt), ("i", "(1,)", self.index_dtype),
                        ("y", f"({self.size},)", dt), ("bad", "(1,)", "int32")])
        w = Writer()
        w.let("k", "T.Cast('int64', i[0])")
        w.let("j", f"T.Select(k < T.int64(0), k + T.int64({n}), k)")
        w(f"bad[0] = T.Select(j >= T.int64(0) and j < T.int64({n}), 0, 1)")
        w.let("row", f"T.max(T.min(j, T.int64({n - 1})), T.int64(0))")
        with w.block(f"for c in range(T.int64({self.size})):"):
            w("y[c] = x[row, c]")
        return "\n".join(lines + w.lines) + "\n"


def take_spec(name: str, params: dict, specs) -> TakeSpec | None:
    """The function of such a ``getitem``, None where it is none of this module's."""
    if tuple(params.get("key", ())) != (_OPERAND,) or len(specs) != 2:
        return None
    (shape, dtype), (index_shape, index_dtype) = specs
    dtype, index_dtype = np.dtype(dtype), np.dtype(index_dtype)
    if tuple(index_shape) or index_dtype.kind not in "iu" or dtype.name not in _DTYPES or \
            not shape or 0 in tuple(shape):
        return None
    return TakeSpec(int(shape[0]), math.prod(shape[1:]), dtype.name, index_dtype.name)


def getitem(backend, x, *arrays, out=None, key):
    """``x[key]``: one row at a 0-d integer operand copied by the generated function; any
    other key on the provider below (NumPy's views and copies)."""
    if out is None and len(arrays) == 1 and tuple(key) == (_OPERAND,) and \
            isinstance(x, np.ndarray) and isinstance(arrays[0], np.ndarray):
        specs = ((x.shape, x.dtype), (arrays[0].shape, arrays[0].dtype))
        call = made_call(("getitem", specs), lambda: _make(specs, key))
        return call(backend, (x, arrays[0]), out)
    return backend.below_kernel("getitem")(backend, x, *arrays, out=out, key=key)


def _make(specs, key):
    params = {"key": key}
    below = below_call("getitem", params)
    spec = take_spec("getitem", params, specs)
    fn = spec_function("getitem", spec)
    if fn is None:
        return below
    shape, dtype = tuple(specs[0][0][1:]), np.dtype(specs[0][1])

    def run(backend, inputs, out):
        x, i = inputs
        if not (x.flags.c_contiguous and x.flags.writeable and i.flags.writeable):
            return below(backend, inputs, out)
        y = backend.allocate(shape, dtype)
        bad = np.empty(1, np.int32)
        invoke(fn, x.reshape(spec.rows, spec.size), i.reshape(1), y.reshape(spec.size), bad)
        if RECORDING:  # a native step goes on only while the index is in range
            capture.check(bad)
        if bad[0]:  # out of range: NumPy's kernel raises naming it
            return below(backend, inputs, out)
        return y
    return run
