"""Kernels of the layout pass's primitives (``layouts/primitives.py``): ``onednn_reorder``
and ``onednn_blocked`` (a convolution, batch normalisation or max pooling whose
activations are channel-blocked arrays ``(N, C/b, H, W, b)``, or a convolution or matmul
with an epilogue: ``layouts/epilogues.py``).

A call oneDNN refuses still gives NumPy's result: the blocked operands are unblocked, the
plain kernel runs (oneDNN's or NumPy's), the results are blocked again.
"""
from __future__ import annotations

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from ..blocking import blocked_shape, logical_shape, numpy_reorder
from ..lib import OneDnnError
from ..memory import Desc
from ..plan import cached_plan
from . import conv, matmul, normalization, pooling
from ._serve import FLOAT32, contiguous, log, output

__all__ = ["onednn_reorder", "onednn_blocked"]


def onednn_reorder(backend, x, out=None, *, block, to):
    """``x`` into the blocked array or back: oneDNN's reorder for float32, NumPy's
    transpose for other dtypes (masks, integers)."""
    shape = blocked_shape(x.shape, block) if to == "blocked" else logical_shape(x.shape, block)
    y = output(backend, out, shape, x.dtype)
    if x.dtype not in FLOAT32:
        if RECORDING:
            capture.impure("reorders with NumPy")
        np.copyto(y, numpy_reorder(x, block, to))
        return y
    x = contiguous(x)
    logical = x.shape if to == "blocked" else shape

    def build(b):
        plain, blocked = Desc.plain(logical, x.dtype), Desc.activation(logical, x.dtype, block)
        src, dst = (plain, blocked) if to == "blocked" else (blocked, plain)
        b.reorder(b.user(src), b.user(dst))

    cached_plan(("onednn_reorder", logical, x.dtype, block, to), build).run(x, y)
    if RECORDING:
        capture.pure()
    return y


def _blocked_call(backend, op, inputs, params, blocks_in, blocks_out, epilogue, argmax):
    """The blocked calls :func:`_prepared` does not prepare: a matmul's epilogue, a pooling
    whose argmax is int64, batch normalisation. (A convolution or byte-argmax pooling it
    did not prepare is one oneDNN refused: the plain kernels serve it.)"""
    if op == "matmul":  # a matmul with an epilogue (plain: nothing is blocked)
        return (matmul.onednn_matmul(backend, inputs[0], inputs[1],
                                     bias=inputs[2] if "bias" in epilogue else None,
                                     post_ops=tuple(e for e in epilogue if e != "bias")),)
    if op == "max_pool2d" and argmax != "bytes" and \
            blocks_in[0] == blocks_out[0] == blocks_out[1]:
        return pooling.max_forward(backend, *inputs, **params, block=blocks_in[0])
    if op == "max_pool2d_scatter" and inputs[1].dtype != np.uint8 and \
            blocks_in[0] == blocks_in[1] == blocks_out[0]:
        return (pooling.max_backward(backend, *inputs, **params, block=blocks_in[0]),)
    if op == "normalize" and blocks_in[0] == blocks_out[0]:
        return normalization.batch_norm_blocked(backend, inputs[0], eps=params["eps"],
                                                block=blocks_in[0])
    raise OneDnnError(op, "no channel-blocked kernel")


_PREPARED: dict = {}  # id(params) -> (the static arguments, {input specs: call or None})
_MAX_PREPARED = 4096


def onednn_blocked(backend, *inputs, out=None, op, params, blocks_in, blocks_out,
                   epilogue=(), argmax=None):
    # a compiled program passes the same static arguments (the same objects) at every
    # call of one instruction: found by identity, its call prepared once per input specs
    statics = (op, params, blocks_in, blocks_out, epilogue, argmax)
    entry = _PREPARED.get(id(params))
    if entry is None or entry[0] != statics:
        if len(_PREPARED) >= _MAX_PREPARED:
            _PREPARED.clear()
        entry = _PREPARED[id(params)] = (statics, {})
    specs = tuple([(x.shape, x.dtype) for x in inputs])
    call = entry[1].get(specs, False)
    if call is False:
        call = entry[1][specs] = _prepared(inputs, *statics)
    if call is not None:
        return call(backend, inputs)
    return _general(backend, inputs, op, dict(params), blocks_in, blocks_out, epilogue, argmax)


def _prepared(inputs, op, params, blocks_in, blocks_out, epilogue, argmax):
    """``call(backend, inputs) -> results`` doing only what changes from call to call --
    the results' buffers, the plan's run -- for a call of these specs; None where the
    general path serves it (another op or dtype, a refused call, an int64 argmax)."""
    if not all(x.dtype in FLOAT32 for x in inputs if x.dtype.kind not in "iu"):
        return None
    kw, dtype, shapes = dict(params), inputs[0].dtype, [x.shape for x in inputs]
    if op == "conv2d":
        post_ops = tuple(e for e in epilogue if e != "bias")
        plan = conv.forward_plan(shapes[0], shapes[1], dtype, **kw,
                                 blocks=(blocks_in[0], blocks_out[0]),
                                 bias="bias" in epilogue, post_ops=post_ops)
    elif op == "conv_transpose2d":
        plan = conv.backward_data_plan(shapes[0], shapes[1], dtype, **kw,
                                       blocks=(blocks_in[0], blocks_out[0]))
    elif op == "conv2d_weight_grad":
        plan = conv.backward_weights_plan(shapes[0], shapes[1], dtype, **kw,
                                          blocks=blocks_in[:2])
    elif op == "max_pool2d" and argmax == "bytes" and \
            blocks_in[0] == blocks_out[0] == blocks_out[1]:
        plan = pooling.max_forward_plan(shapes[0], dtype, **kw, block=blocks_in[0],
                                        argmax_bytes=True)
    elif op == "max_pool2d_scatter" and inputs[1].dtype == np.uint8 and \
            blocks_in[0] == blocks_in[1] == blocks_out[0]:
        plan = pooling.max_backward_plan(shapes[0], dtype, **kw, block=blocks_in[0],
                                         argmax_bytes=True)
    else:
        return None
    key, build, held = plan
    results = [(held, dtype)] + ([(held, np.dtype(np.uint8))] if op == "max_pool2d" else [])
    try:
        cached_plan(key, build)  # built here: a call oneDNN refuses takes the general path
    except OneDnnError:
        return None

    def call(backend, inputs):  # the plan's buffers: the inputs, then the results
        outs = [backend.allocate(shape, dt) for shape, dt in results]
        cached_plan(key, build).run(*[contiguous(x) for x in inputs], *outs)
        if RECORDING:
            capture.pure()
        return tuple(outs)
    return call


# the ops whose blocked kernels (_blocked_call) say themselves whether their work was native
_SAY_THEMSELVES = ("matmul", "max_pool2d", "max_pool2d_scatter", "normalize")


def _general(backend, inputs, op, params, blocks_in, blocks_out, epilogue, argmax):
    if RECORDING and op not in _SAY_THEMSELVES:
        capture.impure("runs a kernel not recorded")
    if all(x.dtype in FLOAT32 for x in inputs if x.dtype.kind not in "iu"):  # but argmaxes
        try:
            return _blocked_call(backend, op, inputs, params, blocks_in, blocks_out,
                                 epilogue, argmax)
        except OneDnnError as error:
            log.info("oneDNN refused blocked %s (%s): the plain kernel serves it", op,
                     error.status)
    if RECORDING:
        capture.impure("runs the plain kernels")
    operands = inputs[:len(inputs) - ("bias" in epilogue)]
    plain = [numpy_reorder(x, b, "plain") if b else x for x, b in zip(operands, blocks_in)]
    plain = [x.astype(np.int64) if x.dtype == np.uint8 else x for x in plain]  # an argmax
    results = backend.kernel(op)(backend, *plain, **params)
    results = results if isinstance(results, tuple) else (results,)
    if argmax == "bytes":
        results = (results[0], results[1].astype(np.uint8))
    if epilogue:  # a convolution's or a matmul's: its bias per channel (column), then its
        # activations
        bias_shape = (1, -1, 1, 1) if op == "conv2d" else (-1,)
        y = results[0] + inputs[-1].reshape(bias_shape) if "bias" in epilogue else results[0]
        for name in epilogue:
            if name != "bias":
                y = backend.kernel(name)(backend, y)
        results = (y,)
    return tuple(np.ascontiguousarray(numpy_reorder(r, b, "blocked")) if b else r
                 for r, b in zip(results, blocks_out))
