"""N-d sliding windows from sx ops: the building block of the facade's 1-d/3-d convolutions,
transposed convolutions, pooling and ``Unfold`` (``sx.ops`` has 2-d kernels only).

``patches`` stacks one strided slice per kernel offset: (N, C, K, *out) where K is the
number of kernel positions. Everything is ``strided_slice``/``stack``/``einsum``, so it traces
into Graph mode and differentiates like any other sx code.
"""
from __future__ import annotations

import itertools

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ShapeError

ops = sx.ops
_SPATIAL = "xyz"


def ntuple(value, n: int, name: str, owner: str) -> tuple:
    """``value`` as an n-tuple of ints (an int is repeated)."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ShapeError(f"bad {name}", op=owner, expected=f"an int or {n} ints", got=value)
    return value


def check_ndim(x, ndim: int, owner: str, layout: str) -> None:
    if len(x.shape) != ndim:
        raise ShapeError("wrong input rank", op=owner, expected=f"{ndim}-d input {layout}",
                         got=f"shape {tuple(x.shape)}")


def pad_spatial(x, pads, value=0.0, mode: str = "constant"):
    """Pad the trailing len(pads) axes; ``pads`` is ((before, after), ...) per spatial axis."""
    if not any(p for pair in pads for p in pair):
        return x
    width = ((0, 0),) * (len(x.shape) - len(pads)) + tuple(tuple(p) for p in pads)
    if mode == "replicate":
        return replicate_pad(x, width)
    return ops.pad(x, width, mode=mode, value=value)


def replicate_pad(x, width):
    """Edge padding (``ReplicationPad``): repeat the border slices."""
    for axis, (before, after) in enumerate(width):
        if not (before or after):
            continue
        size = x.shape[axis]
        parts = []
        if before:
            edge = _take(x, axis, 0, 1)
            parts.append(ops.broadcast_to(edge, _with(x.shape, axis, before)))
        parts.append(x)
        if after:
            edge = _take(x, axis, size - 1, size)
            parts.append(ops.broadcast_to(edge, _with(x.shape, axis, after)))
        x = ops.concat(parts, axis)
    return x


def _with(shape, axis, size):
    shape = list(shape)
    shape[axis] = size
    return tuple(shape)


def _take(x, axis, start, stop, step=1):
    key = [slice(None)] * len(x.shape)
    key[axis] = slice(start, stop, step)
    return ops.getitem(x, tuple(key))


def same_pads(sizes, kernel, stride, dilation):
    """TensorFlow/MindSpore 'same': output ceil(size / stride), the extra pad at the end."""
    pads = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        out = -(-size // s)
        total = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def out_sizes(sizes, kernel, stride, dilation, ceil_mode=False):
    outs = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        span = size - d * (k - 1) - 1
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= size:
            out -= 1
        outs.append(out)
    return tuple(outs)


def patches(x, kernel, stride, dilation, ceil_mode=False, fill=0.0):
    """(N, C, *spatial) -> (N, C, K, *out): one strided slice per kernel offset."""
    spatial = tuple(x.shape[2:])
    outs = out_sizes(spatial, kernel, stride, dilation, ceil_mode)
    if any(o <= 0 for o in outs):
        spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        raise ShapeError("input smaller than the (dilated) kernel", op="window",
                         expected=f"spatial sizes >= {spans}", got=spatial)
    if ceil_mode:  # the last window may run past the end: pad with ``fill`` so it exists
        need = [(o - 1) * s + d * (k - 1) + 1 - size
                for o, s, d, k, size in zip(outs, stride, dilation, kernel, spatial)]
        x = pad_spatial(x, [(0, max(0, n)) for n in need], value=fill)
    slices = []
    for offset in itertools.product(*(range(k) for k in kernel)):
        begin = [0, 0] + [o * d for o, d in zip(offset, dilation)]
        end = [x.shape[0], x.shape[1]] + [b + (n - 1) * s + 1 for b, n, s in
                                          zip(begin[2:], outs, stride)]
        slices.append(ops.strided_slice(x, begin, end, [1, 1, *stride]))
    return ops.stack(slices, 2)


def conv_nd(x, weight, bias, stride, dilation, pads, groups):
    """Cross-correlation of (N, C, *spatial) with weight (O, C/groups, *kernel)."""
    n_sp = len(weight.shape) - 2
    x = pad_spatial(x, pads)
    p = patches(x, tuple(weight.shape[2:]), stride, dilation)      # (N, C, K, *out)
    n, c, k = p.shape[0], p.shape[1], p.shape[2]
    outs = tuple(p.shape[3:])
    o = weight.shape[0]
    p = ops.reshape(p, (n, groups, (c // groups) * k) + outs)
    w = ops.reshape(weight, (groups, o // groups, (c // groups) * k))
    sp = _SPATIAL[:n_sp]
    y = ops.einsum(f"ngk{sp},gok->ngo{sp}", p, w)
    y = ops.reshape(y, (n, o) + outs)
    if bias is not None:
        y = ops.add(y, ops.reshape(bias, (1, o) + (1,) * n_sp))
    return y


def dilate_zeros(x, stride):
    """Insert stride-1 zeros between elements of each spatial axis (transposed convs)."""
    n_sp = len(stride)
    for i, s in enumerate(stride):
        if s == 1:
            continue
        axis = len(x.shape) - n_sp + i
        size = x.shape[axis]
        expanded = ops.expand_dims(x, axis + 1)
        zeros_shape = list(expanded.shape)
        zeros_shape[axis + 1] = s - 1
        zeros = ops.mul(ops.broadcast_to(_take(expanded, axis + 1, 0, 1), tuple(zeros_shape)), 0.0)
        x = ops.concat([expanded, zeros], axis + 1)
        merged = list(x.shape)
        merged[axis:axis + 2] = [size * s]
        x = _take(ops.reshape(x, tuple(merged)), axis, 0, (size - 1) * s + 1)
    return x


def conv_transpose_nd(x, weight, bias, stride, dilation, crops, groups, output_padding=None):
    """Transposed convolution; weight (C_in, O/groups, *kernel); ``crops`` ((lo, hi), ...)
    taken off the full output (size (in - 1) * s + d * (k - 1) + 1)."""
    n_sp = len(weight.shape) - 2
    kernel = tuple(weight.shape[2:])
    cin, og = weight.shape[0], weight.shape[1]
    # equivalent correlation: flip the kernel, swap in/out per group
    w = ops.flip(weight, tuple(range(2, 2 + n_sp)))
    w = ops.reshape(w, (groups, cin // groups, og) + kernel)
    w = ops.transpose(w, (0, 2, 1) + tuple(range(3, 3 + n_sp)))
    w = ops.reshape(w, (groups * og, cin // groups) + kernel)
    x = dilate_zeros(x, stride)
    full = [(d * (k - 1), d * (k - 1)) for k, d in zip(kernel, dilation)]
    extra = output_padding or (0,) * n_sp
    pads = [(lo - c0, hi - c1 + e) for (lo, hi), (c0, c1), e in zip(full, crops, extra)]
    neg = [(max(0, -a), max(0, -b)) for a, b in pads]
    y = conv_nd(x, w, bias, (1,) * n_sp, dilation, [(max(0, a), max(0, b)) for a, b in pads],
                groups)
    if any(a or b for a, b in neg):
        key = (slice(None), slice(None)) + tuple(
            slice(a, y.shape[2 + i] - b) for i, (a, b) in enumerate(neg))
        y = ops.getitem(y, key)
    return y
