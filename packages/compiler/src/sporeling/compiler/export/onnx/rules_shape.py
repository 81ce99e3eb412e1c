"""Shape and indexing primitives. Those whose parameters hold shapes follow a dynamic batch
axis (:class:`~.builder.Batch` entries become run-time dimensions)."""
from __future__ import annotations

import numpy as np

from .builder import Batch
from .table import def_onnx

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


@def_onnx("reshape", dynamic=True)
def _reshape(b, eq, ins, outs, *, shape):
    dyn = [i for i, d in enumerate(shape) if isinstance(d, Batch)]
    if len(dyn) == 1:  # the one batch-dependent dimension is what the others leave
        dims = [-1 if isinstance(d, Batch) else int(d) for d in shape]
        b.node("Reshape", [ins[0], b.ints(dims)], outs)
    else:
        b.node("Reshape", [ins[0], b.shape_tensor(shape)], outs)


@def_onnx("broadcast_to", dynamic=True)
def _broadcast_to(b, eq, ins, outs, *, shape):
    b.node("Expand", [ins[0], b.shape_tensor(shape)], outs)


@def_onnx("transpose")
def _transpose(b, eq, ins, outs, *, axes):
    b.node("Transpose", ins, outs, perm=[int(a) for a in axes])


@def_onnx("concat")
def _concat(b, eq, ins, outs, *, axis):
    b.node("Concat", ins, outs, axis=int(axis))


@def_onnx("split")
def _split(b, eq, ins, outs, *, indices, axis):
    n = eq.inputs[0].aval.shape[axis]
    bounds = [0, *[int(i) for i in indices], int(n)]
    sizes = [max(0, e - s) for s, e in zip(bounds, bounds[1:])]
    b.node("Split", [ins[0], b.ints(sizes)], outs, axis=int(axis))


@def_onnx("slice", dynamic=True)
def _slice(b, eq, ins, outs, *, slices):
    starts, ends, axes, steps = [], [], [], []
    for axis, (start, stop, step) in enumerate(slices):
        if isinstance(start, Batch) or isinstance(step, Batch) or (
                isinstance(stop, Batch) and stop.k != 1):
            raise b.error("a slice bound depends on the batch size", got=repr(slices),
                          hint="export with dynamic_batch=False")
        n = eq.inputs[0].aval.shape[axis]
        if isinstance(stop, Batch):  # the whole batch axis
            stop = INT64_MAX
        if (start, stop, step) in ((0, n, 1), (0, INT64_MAX, 1)):
            continue
        starts.append(int(start))
        ends.append(INT64_MIN if stop is None else int(stop))
        axes.append(axis)
        steps.append(int(step))
    if not axes:
        b.node("Identity", ins, outs)
        return
    b.node("Slice", [ins[0], b.ints(starts), b.ints(ends), b.ints(axes), b.ints(steps)], outs)


@def_onnx("getitem")
def _getitem(b, eq, ins, outs, *, key):
    """NumPy indexing with ints, slices, None and Ellipsis; one integer array index along
    an axis (the rest whole) is a Gather."""
    from ...ops.indexing import OPERAND
    ndim = len(eq.inputs[0].aval.shape)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + ((None, None, None),) * (ndim - n_real) + key[at + 1:]
    else:
        key = key + ((None, None, None),) * (ndim - n_real)
    if OPERAND in key:
        return _gather_index(b, eq, ins, outs, key, OPERAND)
    starts, ends, axes, steps, squeeze, unsqueeze = [], [], [], [], [], []
    axis = out_axis = 0
    for k in key:
        if k is None:
            unsqueeze.append(out_axis)
            out_axis += 1
            continue
        if isinstance(k, int):
            starts.append(k)
            ends.append(INT64_MAX if k == -1 else k + 1)
            steps.append(1)
            axes.append(axis)
            squeeze.append(axis)
        else:
            start, stop, step = k
            step = 1 if step is None else step
            if (start, stop, step) != (None, None, 1):
                starts.append((0 if step > 0 else INT64_MAX) if start is None else start)
                ends.append((INT64_MAX if step > 0 else INT64_MIN) if stop is None else stop)
                steps.append(step)
                axes.append(axis)
            out_axis += 1
        axis += 1
    x = ins[0]
    if axes:
        x = b.one("Slice", [x, b.ints(starts), b.ints(ends), b.ints(axes), b.ints(steps)])
    if squeeze:
        x = b.one("Squeeze", [x, b.ints(squeeze)])
    if unsqueeze:
        x = b.one("Unsqueeze", [x, b.ints(unsqueeze)])
    b.node("Identity", [x], outs)


def _gather_index(b, eq, ins, outs, key, operand):
    arrays = [i for i, k in enumerate(key) if k == operand]
    whole = all(k == (None, None, None) for i, k in enumerate(key) if i not in arrays)
    dtype = eq.inputs[1].aval.dtype if len(eq.inputs) > 1 else None
    if len(arrays) != 1 or not whole or dtype is None or np.dtype(dtype).kind not in "iu":
        raise b.error("this advanced index has no ONNX mapping here",
                      expected="one integer array index, the other axes taken whole",
                      got=repr(key))
    idx = ins[1] if np.dtype(dtype) in (np.int64, np.int32) else b.one(
        "Cast", [ins[1]], to=b.onnx.TensorProto.INT64)
    b.node("Gather", [ins[0], idx], outs, axis=arrays[0])


@def_onnx("pad")
def _pad(b, eq, ins, outs, *, pad_width, mode, value=0):
    pads = [int(p[0]) for p in pad_width] + [int(p[1]) for p in pad_width]
    modes = {"constant": "constant", "reflect": "reflect", "edge": "edge"}
    if mode not in modes:
        raise b.error("a pad mode ONNX does not have", expected=" or ".join(modes),
                      got=repr(mode))
    args = [ins[0], b.ints(pads)]
    if mode == "constant":
        args.append(b.const(np.asarray(value, eq.inputs[0].aval.dtype)))
    b.node("Pad", args, outs, mode=modes[mode])


@def_onnx("tile")
def _tile(b, eq, ins, outs, *, reps):
    reps = tuple(reps)
    ndim = len(eq.inputs[0].aval.shape)
    x = ins[0]
    if len(reps) > ndim:  # np.tile prepends axes first
        x = b.one("Unsqueeze", [x, b.ints(list(range(len(reps) - ndim)))])
    reps = (1,) * (ndim - len(reps)) + reps
    b.node("Tile", [x, b.ints(reps)], outs)


@def_onnx("flip")
def _flip(b, eq, ins, outs, *, axis):
    axes = [int(a) for a in ((axis,) if isinstance(axis, int) else axis)]
    n = len(axes)
    b.node("Slice", [ins[0], b.ints([-1] * n), b.ints([INT64_MIN] * n), b.ints(axes),
                     b.ints([-1] * n)], outs)


@def_onnx("cumsum")
def _cumsum(b, eq, ins, outs, *, axis, reverse=False):
    b.node("CumSum", [ins[0], b.const(np.asarray(axis, np.int64))], outs,
           reverse=int(bool(reverse)))


@def_onnx("tril")
def _tril(b, eq, ins, outs, *, k):
    b.node("Trilu", [ins[0], b.const(np.asarray(k, np.int64))], outs, upper=0)


@def_onnx("triu")
def _triu(b, eq, ins, outs, *, k):
    b.node("Trilu", [ins[0], b.const(np.asarray(k, np.int64))], outs, upper=1)
