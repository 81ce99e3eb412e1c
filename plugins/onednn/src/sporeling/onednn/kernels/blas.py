"""The small products NumPy's kernel serves (``matmul.MIN_MACS``), as a native step makes
them: the ``sgemm`` (``sgemv`` for a row times a matrix) of the OpenBLAS NumPy's wheels
bundle, with the arguments NumPy's ``matmul`` passes it (row-major, each operand as it lies
or transposed). Only recorded (:mod:`sporeling.runtime.executor.capture`): NumPy still
computes it in Python, and a native step's first run is compared with NumPy's bit for bit.
"""
from __future__ import annotations

import functools

import numpy as np

from sporeling.runtime.executor import capture

__all__ = ["record_sgemm"]

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112  # CBLAS's enums


@functools.lru_cache(maxsize=None)
def _sgemm() -> tuple[str, str] | None:
    """``(library path, symbol)`` of NumPy's ``cblas_sgemm`` (64-bit integers), where
    NumPy runs on scipy-openblas (its PyPI wheels); None elsewhere."""
    blas = np.__config__.CONFIG.get("Build Dependencies", {}).get("blas", {})
    if blas.get("name") != "scipy-openblas" or \
            "USE64BITINT" not in blas.get("openblas configuration", ""):
        return None
    from threadpoolctl import threadpool_info
    for library in threadpool_info():
        if library.get("internal_api") == "openblas" and \
                "scipy_openblas64" in library.get("filepath", ""):
            return library["filepath"], "scipy_cblas_sgemm64_"
    return None


def _operand(x: np.ndarray):
    """``(transposed, leading dimension)`` of a float32 matrix BLAS reads where it lies."""
    item = x.itemsize
    if x.strides[1] == item and x.strides[0] >= x.shape[1] * item:
        return _NO_TRANS, x.strides[0] // item
    if x.strides[0] == item and x.strides[1] >= x.shape[0] * item:
        return _TRANS, x.strides[1] // item
    return None


def record_sgemm(a, b, y) -> None:
    """Record ``y = a @ b`` (NumPy's kernel has just computed it) as the BLAS call NumPy's
    ``matmul`` makes: ``sgemm`` for two matrices, ``sgemv`` for a row times a matrix (an
    RNN's last step into a dense layer: bit for bit NumPy's, whichever way the matrix
    lies); where NumPy would call another (a dot product, ``syrk``) or none (other dtypes,
    a layout BLAS cannot read), the kernel's work is Python's."""
    library = _sgemm()
    ok = library is not None and a.ndim == b.ndim == y.ndim == 2 and \
        a.dtype == b.dtype == y.dtype == np.float32 and y.flags.c_contiguous and \
        b.shape[1] > 1 and a.shape[1] > 0
    fa, fb = (_operand(a), _operand(b)) if ok else (None, None)
    if fb is None or a.ctypes.data == b.ctypes.data or (fa is None and a.shape[0] > 1):
        capture.impure("runs NumPy's kernel")
        return
    m, k = a.shape
    n = b.shape[1]
    i64, f32 = np.int64, np.float32
    if m > 1:
        capture.extern(library[0], library[1], (
            _ROW_MAJOR, fa[0], fb[0], i64(m), i64(n), i64(k), f32(1), a, i64(fa[1]), b,
            i64(fb[1]), f32(0), y, i64(n)), status=False)
    else:  # y = b^T a: b as it lies, read transposed, or its transpose as it lies
        step = a.strides[1] // a.itemsize
        if a.strides[1] % a.itemsize or step < 1:
            capture.impure("runs NumPy's kernel")
            return
        trans, rows, cols = (_TRANS, k, n) if fb[0] == _NO_TRANS else (_NO_TRANS, n, k)
        capture.extern(library[0], library[1].replace("gemm", "gemv"), (
            _ROW_MAJOR, trans, i64(rows), i64(cols), f32(1), b, i64(fb[1]), a, i64(step),
            f32(0), y, i64(1)), status=False)
    capture.pure()
