"""MindSpore's ``export`` and ``load`` (``mindspore.train.serialization``).

    >>> import numpy as np, os, tempfile
    >>> import sporeling.ms as ms
    >>> net = ms.nn.Dense(3, 2)
    >>> x = ms.Tensor(np.ones((4, 3), np.float32))
    >>> path = os.path.join(tempfile.mkdtemp(), "dense")
    >>> ms.export(net, x, file_name=path, file_format="MINDIR")
    >>> graph = ms.load(path + ".mindir")
    >>> bool(np.allclose(ms.nn.GraphCell(graph)(x).asnumpy(), net(x).asnumpy()))
    True
"""
from __future__ import annotations

from pathlib import Path

from sporeling.expression.serialization import atomic_write

from .errors import MindIRError
from .proto import ModelProto
from .reader import MindIRGraph, read_mindir, read_model
from .writer import export_mindir

__all__ = ["export", "load", "load_mindir", "save_mindir"]

_FORMATS = ("MINDIR", "ONNX", "AIR")


def _no_encryption(kwargs: dict, op: str) -> None:
    keys = sorted(k for k in kwargs if k in ("enc_key", "enc_mode", "dec_key", "dec_mode",
                                              "obf_config", "obf_func"))
    if keys:
        raise MindIRError("encrypted or obfuscated MindIR is not supported", op=op,
                          got=", ".join(keys))


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs) -> None:
    """Write ``net(*inputs)`` (traced in inference mode) as ``file_name`` plus the
    format's suffix: ``"MINDIR"`` (loadable by MindSpore 2.10's ``mindspore.load`` and by
    :func:`load`) or ``"ONNX"`` (``sporeling.expression.export``'s, opset 17). ``"AIR"``
    (Ascend's format) is not supported."""
    fmt = str(file_format).upper()
    if fmt not in _FORMATS or fmt == "AIR":
        raise MindIRError("unsupported export format", op="export",
                          expected="'MINDIR' or 'ONNX'", got=repr(file_format))
    _no_encryption(kwargs, "export")
    if fmt == "ONNX":
        from sporeling.expression import export as sx_export
        sx_export(net, *inputs, file_name=str(file_name), file_format="ONNX")
        return
    export_mindir(net, *inputs, file_name=file_name)


def load(file_name, **kwargs) -> MindIRGraph:
    """The graph in the MindIR file ``file_name`` (written by MindSpore or by
    :func:`export`), to run with ``nn.GraphCell(graph)``."""
    _no_encryption(kwargs, "load")
    return read_mindir(file_name)


def load_mindir(file_name) -> ModelProto:
    """The ``ModelProto`` in a MindIR file (MindSpore's deprecated ``load_mindir``), to read
    or edit (``user_info``, ...) and write back with :func:`save_mindir`."""
    return read_model(file_name)


def save_mindir(model, file_name) -> None:
    """Write a ``ModelProto`` (from :func:`load_mindir`) to ``file_name`` (``.mindir``
    added when missing), atomically."""
    if not isinstance(model, ModelProto):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but "
                        f"got {type(model).__name__}.")
    path = Path(file_name)
    if path.suffix != ".mindir":
        path = path.with_name(path.name + ".mindir")
    data = model.SerializeToString()

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(str(path), write)
