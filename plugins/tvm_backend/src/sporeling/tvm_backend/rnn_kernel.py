"""The ``lstm``, ``gru``, ``lstm_grad`` and ``gru_grad`` kernels of the ``tvm`` backend:
one generated function per call shape (:mod:`.rnn`), compiled with the program's fused
chains (or alone on its first call), or -- for what is not generated, or not faster
generated -- the provider below (oneDNN's RNN primitives, or NumPy's loop)."""
from __future__ import annotations

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .kernels import below_call, generated, invoke, made_call, packed, views
from .rnn import rnn_scratch, rnn_shapes, rnn_spec, rnn_unsupported

__all__ = ["lstm", "lstm_grad", "gru", "gru_grad"]

def lstm(backend, *inputs, out=None, **params):
    """``(y, h_n, c_n)`` of a stacked LSTM (NumPy's ``kernels/nn/rnn.py`` has the operands)."""
    return _run("lstm", backend, inputs, out, params)


def lstm_grad(backend, *inputs, out=None, **params):
    """The LSTM's gradients, one per floating operand, by recomputation and
    back-propagation through time."""
    return _run("lstm_grad", backend, inputs, out, params)


def gru(backend, *inputs, out=None, **params):
    """``(y, h_n)`` of a stacked GRU."""
    return _run("gru", backend, inputs, out, params)


def gru_grad(backend, *inputs, out=None, **params):
    """The GRU's gradients, one per floating operand."""
    return _run("gru_grad", backend, inputs, out, params)


def _run(kind, backend, inputs, out, params):
    key = (kind, tuple(params.items()), tuple([(x.shape, x.dtype) for x in inputs]))
    return made_call(key, lambda: _call(kind, inputs, params))(backend, inputs, out)


def _call(kind, inputs, params):
    specs = [(x.shape, x.dtype) for x in inputs]
    spec, fn = generated(kind, rnn_unsupported(kind, params, specs),
                         lambda: rnn_spec(kind, specs, params))
    if fn is None:
        return below_call(kind, params)
    dtype = spec.dtype
    result_size, result_at = packed([(shape, dtype) for _, shape in rnn_shapes(spec)])
    scratch_size, scratch_at = packed([(shape, dtype) for _, shape in rnn_scratch(spec)])

    def run(backend, inputs, out):
        # the results are views of one pool buffer (its bytes live while any of them
        # does), the scratch views of one plain array
        buffers = views(backend.allocate((result_size,), np.uint8), result_at)
        invoke(fn, *[x if x.flags.c_contiguous and x.flags.writeable else _copied(x)
                     for x in inputs],
               *buffers, *views(np.empty(scratch_size, np.uint8), scratch_at))
        if out is None:
            return tuple(buffers)
        for o, b in zip(out, buffers):
            if o is not None:
                if RECORDING:
                    capture.impure("copies its results")
                np.copyto(o, b)
        return tuple(b if o is None else o for o, b in zip(out, buffers))
    return run


def _copied(x):
    if RECORDING:
        capture.impure("copies a strided operand")
    return np.array(x, order="C")
