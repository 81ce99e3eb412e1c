"""Loading ``libdnnl`` (the PyPI wheel ``onednn-cpu-gomp``: oneDNN 3.2, GNU OpenMP) and
declaring the C functions the plugin calls, with ctypes: no compiler, no headers.

Every handle is a ``void*``; functions returning ``dnnl_status_t`` go through :func:`call`,
which turns a failure into :class:`OneDnnError` naming the function and the status.
The generated enum values (``constants.py``) are checked against the library's own
``dnnl_*2str`` before anything runs (``check_constants.verify``).
"""
from __future__ import annotations

import ctypes
import os
import sys
from ctypes import c_float, c_int, c_int64, c_size_t, c_uint, c_void_p
from pathlib import Path

from . import constants as C

__all__ = ["OneDnnError", "OneDnnUnavailable", "load", "call", "dims", "Dims", "ExecArg"]

MAX_NDIMS = C.DNNL_MAX_NDIMS
Dims = c_int64 * MAX_NDIMS


class ExecArg(ctypes.Structure):
    """``dnnl_exec_arg_t``: an argument index and the memory it names."""
    _fields_ = [("arg", c_int), ("memory", c_void_p)]


class OneDnnUnavailable(RuntimeError):
    """The library cannot be loaded here (not installed, no libgomp, wrong CPU, wrong
    version): the plugin reports itself failed with this reason and NumPy serves all."""


class OneDnnError(RuntimeError):
    """A oneDNN call failed: ``status`` is the library's name for what went wrong
    (``unimplemented`` when it has no kernel for the shapes or types)."""

    def __init__(self, function: str, status: str) -> None:
        super().__init__(f"oneDNN {function} failed: {status}")
        self.function, self.status = function, status


# name -> (restype, argtypes). Codes: p void* (handle), o void** (out-parameter),
# i int, u unsigned, z size_t, d dnnl_dims_t, f float, a exec args.
_P, _O = c_void_p, ctypes.POINTER(c_void_p)
_CODES = {"p": _P, "o": _O, "i": c_int, "u": c_uint, "z": c_size_t, "d": Dims, "f": c_float,
          "a": ctypes.POINTER(ExecArg)}
_STATUS = c_int
_FUNCTIONS = {
    "dnnl_engine_create": "oiz", "dnnl_stream_create": "opu", "dnnl_stream_wait": "p",
    "dnnl_memory_desc_create_with_tag": "oidii", "dnnl_memory_desc_create_with_strides": "oidid",
    "dnnl_memory_desc_destroy": "p", "dnnl_memory_desc_query": "pip",
    "dnnl_memory_create": "oppp", "dnnl_memory_set_data_handle": "pp",
    "dnnl_memory_destroy": "p",
    "dnnl_primitive_desc_query": "piip", "dnnl_primitive_desc_destroy": "p",
    "dnnl_primitive_create": "op", "dnnl_primitive_execute": "ppia",
    "dnnl_primitive_destroy": "p",
    "dnnl_primitive_attr_create": "o", "dnnl_primitive_attr_destroy": "p",
    "dnnl_primitive_attr_set_scratchpad_mode": "pi",
    "dnnl_primitive_attr_set_post_ops": "pp",
    "dnnl_post_ops_create": "o", "dnnl_post_ops_destroy": "p",
    "dnnl_post_ops_append_eltwise": "piff",
    "dnnl_reorder_primitive_desc_create": "opppp" + "p",
    "dnnl_convolution_forward_primitive_desc_create": "opii" + "pppp" + "dddd" + "p",
    "dnnl_convolution_backward_data_primitive_desc_create": "opi" + "ppp" + "dddd" + "pp",
    "dnnl_convolution_backward_weights_primitive_desc_create":
        "opi" + "pppp" + "dddd" + "pp",
    "dnnl_pooling_forward_primitive_desc_create": "opii" + "pp" + "ddddd" + "p",
    "dnnl_pooling_backward_primitive_desc_create": "opi" + "pp" + "ddddd" + "pp",
    "dnnl_batch_normalization_forward_primitive_desc_create": "opi" + "pp" + "fu" + "p",
    "dnnl_batch_normalization_backward_primitive_desc_create":
        "opi" + "ppp" + "fu" + "pp",
    "dnnl_layer_normalization_forward_primitive_desc_create": "opi" + "ppp" + "fu" + "p",
    "dnnl_layer_normalization_backward_primitive_desc_create":
        "opi" + "pppp" + "fu" + "pp",
    "dnnl_softmax_forward_primitive_desc_create": "opii" + "pp" + "i" + "p",
    "dnnl_softmax_backward_primitive_desc_create": "opi" + "ppp" + "i" + "pp",
    "dnnl_matmul_primitive_desc_create": "op" + "pppp" + "p",
    "dnnl_lstm_forward_primitive_desc_create": "opii" + "p" * 11 + "u" + "p",
    "dnnl_lstm_backward_primitive_desc_create": "opii" + "p" * 22 + "u" + "pp",
    "dnnl_lbr_gru_forward_primitive_desc_create": "opii" + "p" * 7 + "u" + "p",
    "dnnl_lbr_gru_backward_primitive_desc_create": "opii" + "p" * 14 + "u" + "pp",
}
# functions that do not return a status
_PLAIN = {
    "dnnl_memory_desc_get_size": (c_size_t, "p"),
    "dnnl_memory_desc_equal": (c_int, "pp"),
    "dnnl_primitive_desc_query_md": (c_void_p, "pii"),
    "dnnl_status2str": (ctypes.c_char_p, "i"),
}


def _library_paths():
    """Where the library may be: ``SPORELING_ONEDNN_LIBRARY``, then the wheel's own file
    (it installs into ``<prefix>/lib``), then the interpreter's prefixes."""
    explicit = os.environ.get("SPORELING_ONEDNN_LIBRARY")
    if explicit:
        yield Path(explicit)
        return
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        dist = distribution("onednn-cpu-gomp")
        for file in dist.files or ():
            if file.name == "libdnnl.so.3":
                yield Path(dist.locate_file(file)).resolve()
    except PackageNotFoundError:
        pass
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        yield Path(prefix) / "lib" / "libdnnl.so.3"


def _open() -> ctypes.CDLL:
    tried = []
    for path in _library_paths():
        if not path.exists():
            tried.append(f"{path} (absent)")
            continue
        try:
            return ctypes.CDLL(str(path))
        except OSError as error:  # e.g. libgomp.so.1 missing
            tried.append(f"{path} ({error})")
    raise OneDnnUnavailable("libdnnl.so.3 could not be loaded (pip install onednn-cpu-gomp"
                            "==2023.2.0, which is oneDNN 3.2); tried: " + "; ".join(tried))


def _declare(lib: ctypes.CDLL) -> None:
    for name, codes in _FUNCTIONS.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = _STATUS, [_CODES[c] for c in codes]
    for name, (restype, codes) in _PLAIN.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, [_CODES[c] for c in codes]


_LIB: ctypes.CDLL | None = None
_FAILURE: OneDnnUnavailable | None = None


def load() -> ctypes.CDLL:
    """The library, opened, declared and checked once; :class:`OneDnnUnavailable` with the
    reason when it cannot serve (the same reason every time it is asked)."""
    global _LIB, _FAILURE
    if _LIB is not None:
        return _LIB
    if _FAILURE is not None:
        raise _FAILURE
    try:
        lib = _open()
        _declare(lib)
        from .check_constants import verify
        verify(lib)
    except OneDnnUnavailable as error:
        _FAILURE = error
        raise
    except (OSError, AttributeError, RuntimeError) as error:  # old library, wrong enums
        _FAILURE = OneDnnUnavailable(f"oneDNN library unusable: {error}")
        raise _FAILURE from error
    _LIB = lib
    return lib


def call(name: str, *args) -> None:
    """Call a status-returning function; a failure raises :class:`OneDnnError`."""
    status = getattr(_LIB or load(), name)(*args)
    if status != C.dnnl_success:
        raise OneDnnError(name, _LIB.dnnl_status2str(status).decode())


def dims(values) -> Dims:
    """A ``dnnl_dims_t`` holding ``values``."""
    return Dims(*values)
