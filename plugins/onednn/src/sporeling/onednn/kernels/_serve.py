"""What every oneDNN kernel shares: which calls it takes, the fallback to NumPy's kernel,
and the output buffer.

oneDNN serves float32 (and bfloat16/float16 where a kernel says so); float64 and integer
inputs stay on NumPy's kernel, as does a call oneDNN refuses (``unimplemented`` for those
shapes): that is said once per primitive and shapes in the log (logger
``sporeling.onednn``), and the refusal is remembered so the next call goes straight to
NumPy.
"""
from __future__ import annotations

import functools
import logging

import numpy as np

from sporeling.runtime import get_kernels
from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from ..lib import OneDnnError
from ..threads import follow_context

__all__ = ["onednn_kernel", "output", "contiguous", "NotServed", "FLOAT32", "log"]

log = logging.getLogger("sporeling.onednn")
FLOAT32 = (np.dtype(np.float32),)
_REFUSED: set = set()     # calls oneDNN refused (unimplemented for those shapes)
_NOT_SERVED: set = set()  # calls this plugin hands to NumPy by design


class NotServed(OneDnnError):
    """A call this plugin does not hand to oneDNN (e.g. normalisation over axes no oneDNN
    primitive reduces over): NumPy's kernel serves it, like a call oneDNN refuses."""

    def __init__(self, primitive: str, why: str) -> None:
        super().__init__(primitive, f"not served: {why}")


def numpy_kernel(primitive: str):
    return get_kernels().lookup("numpy", primitive)


def onednn_kernel(primitive: str, dtypes=FLOAT32):
    """Decorate ``fn(backend, *inputs, out=None, **params)``: it runs when every floating
    input has one of ``dtypes``; otherwise, or when oneDNN refuses, NumPy's kernel runs."""
    def wrap(fn):
        @functools.wraps(fn)
        def kernel(backend, *inputs, out=None, **params):
            follow_context()  # the thread policy, if set_context changed it
            if _served(inputs, dtypes):
                # the key is built only once this primitive has had a call sent to NumPy
                known = _SENT.get(primitive)
                key = None if known is None else _key(primitive, inputs, params)
                if key is None or key not in known:
                    try:
                        return fn(backend, *inputs, out=out, **params)
                    except NotServed as error:
                        _remember(_NOT_SERVED, primitive, inputs, params)
                        _say_once((primitive, error.status), "%s %s: NumPy's kernel serves "
                                  "it", primitive, error.status)
                    except OneDnnError as error:
                        _remember(_REFUSED, primitive, inputs, params)
                        log.info("oneDNN refused %s for shapes %s (%s): NumPy's kernel "
                                 "serves it", primitive,
                                 [getattr(x, "shape", None) for x in inputs], error.status)
            if RECORDING:
                capture.impure("runs NumPy's kernel")
            return numpy_kernel(primitive)(backend, *inputs, out=out, **params)
        kernel.primitive = primitive
        return kernel
    return wrap


_SENT: dict = {}  # primitive -> keys of every call sent to NumPy (either reason)


def _key(primitive, inputs, params):
    return (primitive,) + tuple((getattr(x, "shape", None), getattr(x, "dtype", None))
                                for x in inputs) + tuple(repr(v) for v in params.values())


def forget() -> None:
    """Forget every call sent to NumPy (tests; a library swapped at run time)."""
    for known in (_REFUSED, _NOT_SERVED, _SENT):
        known.clear()


def _remember(kind: set, primitive, inputs, params) -> None:
    key = _key(primitive, inputs, params)
    kind.add(key)
    _SENT.setdefault(primitive, set()).add(key)


_SAID: set = set()


def _say_once(key, message, *args) -> None:
    if key not in _SAID:
        _SAID.add(key)
        log.info(message, *args)


def _served(inputs, dtypes) -> bool:
    """Every floating input has one of ``dtypes`` (integer inputs such as max pooling's
    argmax are the kernel's business). A plain loop: this runs on every call."""
    seen = False
    for x in inputs:
        dtype = getattr(x, "dtype", None)
        if dtype is not None and dtype.kind in "fcV":
            if dtype not in dtypes:
                return False
            seen = True
    return seen


def output(backend, out, shape, dtype):
    """``out`` or a fresh buffer: contiguous either way (pool buffers and planned arena
    views are)."""
    return backend.allocate(shape, dtype) if out is None else out


def contiguous(x: np.ndarray) -> np.ndarray:
    if x.flags.c_contiguous:
        return x
    if RECORDING:
        capture.impure("copies a strided operand")
    return np.ascontiguousarray(x)
