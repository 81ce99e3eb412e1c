"""``matmul``: oneDNN's matmul primitive for float32, 1-D to N-D with NumPy's broadcasting of
the batch axes.

Transposed and sliced operands are read where they lie, through strided memory
descriptors (``x.T @ g`` copies nothing); a batch axis broadcast by a zero stride is
described as size 1, which oneDNN's matmul broadcasts itself. An operand oneDNN would read
only through its reference implementation (an unusual layout) is copied to a contiguous
one first; when even that gets the reference implementation, NumPy's kernel serves. So do
products under :data:`MIN_MACS` multiply-adds, where OpenBLAS is faster on a small machine.
"""
from __future__ import annotations

import threading

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING
from sporeling.runtime.kernels.linalg import matmul_shape

from .. import constants as C
from ..lib import OneDnnError
from ..memory import Desc
from ..plan import CACHE_SIZE, PrimitiveDesc, cached_plan
from . import _serve, blas
from ._serve import NotServed, onednn_kernel, output

_SLOW = ("ref",)  # implementation-name prefixes slower than a copy plus a good kernel


def _layout(x: np.ndarray, broadcast_batch: bool):
    """``(shape, strides in elements)`` describing ``x`` to oneDNN, or None when it needs a
    copy (negative strides, a zero stride in the matrix axes, misaligned strides). Size-1
    axes get the stride a C-contiguous array would have (they address nothing)."""
    item = x.itemsize
    shape, strides = list(x.shape), []
    for i, (n, s) in enumerate(zip(x.shape, x.strides)):
        if s % item or s < 0:
            return None
        s //= item
        if s == 0 and n > 1:
            if not broadcast_batch or i >= x.ndim - 2:
                return None
            shape[i] = 1  # a broadcast batch axis: oneDNN broadcasts size-1 batch axes
        strides.append(s)
    contiguous = 1
    for i in range(len(shape) - 1, -1, -1):
        if shape[i] == 1:
            strides[i] = contiguous
        contiguous *= shape[i]
    return tuple(shape), tuple(strides)


def _plan(a_layout, b_layout, y_shape, dtype, bias=False, post_ops=()):
    (a_shape, a_strides), (b_shape, b_strides) = a_layout, b_layout

    def build(b):
        a_desc = Desc.strided(a_shape, dtype, a_strides)
        b_desc = Desc.strided(b_shape, dtype, b_strides)
        y_desc = Desc.plain(y_shape, dtype)
        # a bias: one value per column, broadcast over the rows (and batch axes)
        bias_desc = Desc.plain((1,) * (len(y_shape) - 1) + y_shape[-1:], dtype) \
            if bias else None
        pd = PrimitiveDesc("matmul", a_desc, b_desc, bias_desc, y_desc, post_ops=post_ops)
        if pd.impl.startswith(_SLOW):
            raise NotServed("matmul", f"only oneDNN's {pd.impl} implementation")
        args = {C.DNNL_ARG_SRC: b.user(a_desc), C.DNNL_ARG_WEIGHTS: b.user(b_desc)}
        if bias:
            args[C.DNNL_ARG_BIAS] = b.user(bias_desc)
        args[C.DNNL_ARG_DST] = b.user(y_desc)
        b.execute(pd, args)

    return cached_plan(("matmul", a_layout, b_layout, y_shape, dtype, bias, post_ops), build)


def _matrices(a, b):
    """``a`` and ``b`` as operands of equal rank >= 2 (1-D ones as a row and a column,
    fewer batch axes padded with size-1 ones): views of the same first element."""
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    rank = max(a2.ndim, b2.ndim)
    return a2.reshape((1,) * (rank - a2.ndim) + a2.shape), \
        b2.reshape((1,) * (rank - b2.ndim) + b2.shape)


def _copies(*arrays):
    return tuple(np.ascontiguousarray(x) for x in arrays)


def _prepare(a, b, bias=False, post_ops=()):
    """``(result shape, plan, copy)`` for operands shaped and strided as ``a`` and ``b``
    (and a bias, and post-ops: see :func:`onednn_matmul`); ``copy``: the plan reads
    contiguous copies of ``_matrices(a, b)``."""
    shape = matmul_shape(a.shape, b.shape)
    if 0 in a.shape or 0 in b.shape or max(a.ndim, b.ndim, 2) > C.DNNL_MAX_NDIMS:
        raise NotServed("matmul", "an empty operand or too many axes")
    a2, b2 = _matrices(a, b)
    y_shape = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2]) + \
        (a2.shape[-2], b2.shape[-1])
    la, lb = _layout(a2, True), _layout(b2, True)
    if la is not None and lb is not None:
        try:
            return shape, _plan(la, lb, y_shape, a.dtype, bias, post_ops), False
        except OneDnnError:  # a slow or no kernel for that layout: contiguous copies
            pass
    a2, b2 = _copies(a2, b2)
    return shape, _plan(_layout(a2, False), _layout(b2, False), y_shape, a.dtype, bias,
                        post_ops), True


_LOCAL = threading.local()  # per thread, as the plans: (shapes, strides) -> _prepare's


# Products below this many multiply-adds run NumPy's kernel (OpenBLAS, on one thread under
# the onednn backend's policy): on 2 cores oneDNN's OpenMP matmul loses there and wins above
# (best blocks, BLAS 1 or 2 threads vs oneDNN on 2: 128x512 @ 512x10 33 vs 55 us, 128^3 64 vs
# 91, 8.4M MACs 116-153 vs 164-211, 256^3 164 vs 140; the MLP's 33M and 51M MAC products:
# bench/onednn_matmul.py).
MIN_MACS = 1 << 24


def _macs(a, b) -> int:
    """The multiply-adds of ``a @ b`` (at least: batch axes both operands broadcast count
    once)."""
    n = b.shape[-1] if b.ndim > 1 else 1
    m = a.shape[-2] if a.ndim > 1 else 1
    return max(a.size * n, b.size * m)


@onednn_kernel("matmul")
def matmul(backend, a, b, out=None):
    """``a @ b`` with NumPy's rules: oneDNN's matmul from :data:`MIN_MACS` multiply-adds,
    NumPy's kernel below."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and _macs(a, b) < MIN_MACS:
        y = _serve.numpy_kernel("matmul")(backend, a, b, out=out)
        if RECORDING:
            blas.record_sgemm(a, b, y)
        return y
    return onednn_matmul(backend, a, b, out)


def onednn_matmul(backend, a, b, out=None, bias=None, post_ops=()):
    """``a @ b`` by oneDNN, into ``out`` or a fresh (contiguous) buffer: ``OneDnnError``
    where it is not served (operands of two types, empty ones). With ``bias`` (one value
    per column) added and ``post_ops`` (activations, see ``plan.POST_OPS``) applied by
    oneDNN's kernel as it writes the result (Graph mode's epilogues)."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or \
            a.dtype != b.dtype:  # float32 with an integer operand: NumPy's promotion
        raise NotServed("matmul", "operands of two types")
    known = getattr(_LOCAL, "known", None)
    if known is None or len(known) > CACHE_SIZE:
        known = _LOCAL.known = {}
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype, bias is None, post_ops)
    entry = known.get(key)
    if entry is None:
        entry = known[key] = _prepare(a, b, bias is not None, post_ops)
    shape, plan, copy = entry
    if copy:
        a, b = _copies(*_matrices(a, b))
    y = output(backend, out, shape, a.dtype)
    target = y if y.flags.c_contiguous else np.empty(shape, y.dtype)
    if bias is None:  # a, b: the same first element as the plan's 2-D+ views
        plan.run(a, b, target)
    else:
        plan.run(a, b, np.ascontiguousarray(bias, a.dtype), target)
    if target is not y:
        np.copyto(y, target)
    if RECORDING:  # the work was the plan's native calls alone, or copies too
        copied = copy or target is not y or bias is not None and not (
            bias.flags.c_contiguous and bias.dtype == a.dtype)
        capture.impure("copies operands") if copied else capture.pure()
    return y
