"""Pooling (MindSpore r2.3 ``mindspore.ops``): 1-, 2- and 3-d average, max, Lp and adaptive
pooling, and max unpooling. Windows are read with strided slices of the padded input and
reduced, so any rank, ``ceil_mode`` and ``dilation`` compose from sx ops (Graph mode and
gradients included); the plain 2-d cases use sx's pooling kernels."""
from __future__ import annotations

import itertools
import math

import numpy as np

from sporeling.core.arguments import check_int

from ._common import SporelingError, float_like, ops, tensor, tuple_of, value_of

__all__ = ["avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool2d", "max_pool3d", "lp_pool1d",
           "lp_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "max_unpool1d", "max_unpool2d",
           "max_unpool3d", "fractional_max_pool3d"]


def _out_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1
    if span < 0:
        return 0
    out = (math.ceil(span / s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:  # the last window must start inside
        out -= 1
    return out


class _Geometry:
    """Window layout of one pooling call over the last ``nd`` axes."""

    def __init__(self, op, x, nd, kernel_size, stride, padding, dilation, ceil_mode):
        if x.ndim not in (nd + 1, nd + 2):
            raise SporelingError(f"{op} takes a {nd + 1}-d or {nd + 2}-d input", op=op,
                                 expected=f"rank {nd + 1} or {nd + 2}",
                                 got=f"shape {list(x.shape)}")
        self.op, self.nd = op, nd
        self.k = tuple_of(kernel_size, nd, "kernel_size", op)
        self.s = self.k if stride is None or stride == () else tuple_of(stride, nd, "stride", op)
        self.p = tuple_of(padding, nd, "padding", op)
        self.d = tuple_of(dilation, nd, "dilation", op)
        if any(2 * p > k for p, k in zip(self.p, self.k)):
            raise SporelingError("padding must be at most half the kernel", op=op,
                                 expected=f"padding <= kernel_size / 2 ({self.k})", got=self.p)
        self.size = tuple(x.shape[-nd:])
        self.out = tuple(_out_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d in
                         zip(self.size, self.k, self.s, self.p, self.d))
        if any(o <= 0 for o in self.out):
            raise SporelingError("the input is smaller than the kernel", op=op,
                                 expected=f"spatial size >= {self.k} (with padding)",
                                 got=f"shape {list(x.shape)}")
        # right padding: enough for the last window (ceil_mode may read past the input)
        self.right = tuple(max(0, (o - 1) * s + d * (k - 1) + 1 - n - p) for o, n, k, s, p, d in
                           zip(self.out, self.size, self.k, self.s, self.p, self.d))

    def padded(self, x, value):
        lead = [(0, 0)] * (x.ndim - self.nd)
        widths = lead + [(p, r) for p, r in zip(self.p, self.right)]
        if all(w == (0, 0) for w in widths):
            return x
        return ops.pad(x, widths, mode="constant", value=value)

    def offsets(self):
        return list(itertools.product(*(range(k) for k in self.k)))

    def window(self, xp, offset):
        lead = (slice(None),) * (xp.ndim - self.nd)
        key = tuple(slice(o * d, o * d + s * (n - 1) + 1, s) for o, d, s, n in
                    zip(offset, self.d, self.s, self.out))
        return ops.getitem(xp, lead + key)

    def windows(self, xp):
        return ops.stack([self.window(xp, off) for off in self.offsets()], axis=0)

    def flat_positions(self):
        """For each offset, the flat index (in the unpadded input) each window reads."""
        grids = np.meshgrid(*(np.arange(o) for o in self.out), indexing="ij")
        positions = []
        for off in self.offsets():
            coords = [g * s - p + o * d for g, s, p, o, d in
                      zip(grids, self.s, self.p, off, self.d)]
            coords = [np.clip(c, 0, n - 1) for c, n in zip(coords, self.size)]
            positions.append(np.ravel_multi_index(coords, self.size))
        return np.stack(positions).astype(np.int64)


def _lowest(dtype):
    return float(np.finfo(dtype).min) if dtype.kind == "f" else int(np.iinfo(dtype).min)


def _max_pool(op, x, nd, kernel_size, stride, padding, dilation, return_indices, ceil_mode):
    x = tensor(x)
    g = _Geometry(op, x, nd, kernel_size, stride, padding, dilation, ceil_mode)
    if nd == 2 and not return_indices and not ceil_mode and x.ndim == 4:
        return ops.max_pool2d(x, g.k, g.s, g.p, g.d)
    stacked = g.windows(g.padded(x, _lowest(x.dtype)))
    values = ops.max(stacked, axis=0)
    if not return_indices:
        return values
    which = ops.argmax(stacked, axis=0)                     # the offset holding each max
    positions = tensor(g.flat_positions())                  # (offsets, *out)
    lead = x.ndim - nd
    positions = ops.broadcast_to(ops.reshape(positions, (positions.shape[0],) + (1,) * lead
                                             + g.out), tuple(stacked.shape))
    indices = ops.squeeze(ops.take_along_axis(positions, ops.expand_dims(which, 0), 0), 0)
    return values, indices


def _avg_pool(op, x, nd, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override=None):
    x = float_like(x)
    g = _Geometry(op, x, nd, kernel_size, stride, padding, 1, ceil_mode)
    if nd == 2 and x.ndim == 4 and not ceil_mode and divisor_override is None:
        return ops.avg_pool2d(x, g.k, g.s, g.p, count_include_pad=count_include_pad)
    total = ops.sum(g.windows(g.padded(x, 0.0)), axis=0)
    if divisor_override:
        return total / float(divisor_override)
    # the divisor counts the input (and, with count_include_pad, the declared padding; never
    # the extra cells ceil_mode reads past it)
    shape = tuple(n + p + r for n, p, r in zip(g.size, g.p, g.right))
    inside = np.zeros(shape)
    if count_include_pad:
        inside[tuple(slice(0, min(n + 2 * p, m)) for n, p, m in zip(g.size, g.p, shape))] = 1
    else:
        inside[tuple(slice(p, p + n) for n, p in zip(g.size, g.p))] = 1
    counts = sum(inside[tuple(slice(o, o + s * (n - 1) + 1, s) for o, s, n in
                              zip(off, g.s, g.out))] for off in g.offsets())
    return total / tensor(np.maximum(counts, 1).astype(x.dtype))


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Average over windows of the last axis ((N, C, L) or (C, L))."""
    return _avg_pool("ops.avg_pool1d", input_x, 1, kernel_size, stride, padding, ceil_mode,
                     count_include_pad)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Average over windows of the last two axes. Note: MindSpore's stride defaults to 1
    (PyTorch's to the kernel size)."""
    return _avg_pool("ops.avg_pool2d", input_x, 2, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Average over windows of the last three axes."""
    return _avg_pool("ops.avg_pool3d", input_x, 3, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override or None)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """Maximum over windows; ``return_indices`` adds each maximum's flat position in its
    (H, W) plane."""
    return _max_pool("ops.max_pool2d", x, 2, kernel_size, stride, padding, dilation,
                     return_indices, ceil_mode)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Maximum over 3-d windows; ``return_indices`` adds flat (D, H, W) positions."""
    return _max_pool("ops.max_pool3d", x, 3, kernel_size, stride, padding, dilation,
                     return_indices, ceil_mode)


def _lp_pool(op, x, nd, norm_type, kernel_size, stride, ceil_mode):
    x = float_like(x)
    p = float(norm_type)
    k = tuple_of(kernel_size, nd, "kernel_size", op)
    summed = _avg_pool(op, ops.pow(x, p), nd, k, k if stride is None else stride, 0,
                       ceil_mode, True, divisor_override=1)
    # sign * relu(|s|)^(1/p), as PyTorch: negative sums (odd p) keep their sign
    return ops.sign(summed) * ops.pow(ops.relu(ops.abs(summed)), 1.0 / p)


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over the window of x^p)^(1/p) along the last axis."""
    return _lp_pool("ops.lp_pool1d", x, 1, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over the window of x^p)^(1/p) over the last two axes."""
    return _lp_pool("ops.lp_pool2d", x, 2, norm_type, kernel_size, stride, ceil_mode)


# ------------------------------------------------------------------------- adaptive pooling

def _bounds(size, out):
    return [(math.floor(i * size / out), math.ceil((i + 1) * size / out)) for i in range(out)]


def _adaptive(op, x, nd, output_size, reduce):
    x = tensor(x)
    if x.ndim not in (nd + 1, nd + 2):
        raise SporelingError(f"{op} takes a {nd + 1}-d or {nd + 2}-d input", op=op,
                             expected=f"rank {nd + 1} or {nd + 2}", got=f"shape {list(x.shape)}")
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * nd
    # int32 sizes, as MindSpore's kernels take (a huge one would loop here for ever)
    sizes = tuple(x.shape[x.ndim - nd + i] if s is None else
                  check_int(s, "output_size", op=op, min=1, max=2 ** 31 - 1)
                  for i, s in enumerate(sizes))
    if len(sizes) != nd or any(s <= 0 for s in sizes):
        raise SporelingError("bad output_size", op=op, expected=f"{nd} positive sizes",
                             got=repr(output_size))
    for i, out in enumerate(sizes):  # boxes are products of intervals: one axis at a time
        axis = x.ndim - nd + i
        lead = (slice(None),) * axis
        parts = [reduce(ops.getitem(x, lead + (slice(a, b),)), axis)
                 for a, b in _bounds(x.shape[axis], out)]
        x = ops.concat(parts, axis=axis)
    return x, sizes


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    """Mean over ``output_size`` near-equal windows of the last axis."""
    return _adaptive("ops.adaptive_avg_pool1d", float_like(input), 1, output_size,
                     lambda t, a: ops.mean(t, axis=a, keepdims=True))[0]


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    """Mean over near-equal windows of the last two axes (an int, a pair; None keeps a size)."""
    return _adaptive("ops.adaptive_avg_pool2d", float_like(input), 2, output_size,
                     lambda t, a: ops.mean(t, axis=a, keepdims=True))[0]


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    """Mean over near-equal windows of the last three axes."""
    return _adaptive("ops.adaptive_avg_pool3d", float_like(input), 3, output_size,
                     lambda t, a: ops.mean(t, axis=a, keepdims=True))[0]


def _adaptive_max(op, input, nd, output_size, return_indices):  # noqa: A002
    x = tensor(input)
    values, sizes = _adaptive(op, x, nd, output_size,
                              lambda t, a: ops.max(t, axis=a, keepdims=True))
    if not return_indices:
        return values
    # positions are integers (no gradient): found on the values, so PyNative only
    data = value_of(x, op, "input (for return_indices)",
                    "use return_indices=False under Graph mode")
    spatial = data.shape[-nd:]
    flat = data.reshape(data.shape[:-nd] + (-1,))
    out = np.zeros(data.shape[:-nd] + sizes, np.int64)
    for cell in itertools.product(*(range(s) for s in sizes)):
        box = [_bounds(n, s)[c] for n, s, c in zip(spatial, sizes, cell)]
        grid = np.meshgrid(*(np.arange(a, b) for a, b in box), indexing="ij")
        pos = np.ravel_multi_index([g.ravel() for g in grid], spatial)
        out[(Ellipsis,) + cell] = pos[np.argmax(flat[..., pos], axis=-1)]
    return values, tensor(out)


def adaptive_max_pool1d(input, output_size):  # noqa: A002
    """Maximum over near-equal windows of the last axis."""
    return _adaptive_max("ops.adaptive_max_pool1d", input, 1, output_size, False)


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    """Maximum over near-equal windows of the last two axes; ``return_indices`` (PyNative
    only) adds flat (H, W) positions."""
    return _adaptive_max("ops.adaptive_max_pool2d", input, 2, output_size, return_indices)


# ------------------------------------------------------------------------- unpooling

def _unpool(op, x, indices, nd, kernel_size, stride, padding, output_size):
    x, indices = tensor(x), ops.cast(tensor(indices), np.int64)
    k = tuple_of(kernel_size, nd, "kernel_size", op)
    s = k if stride is None or stride == 0 else tuple_of(stride, nd, "stride", op)
    p = tuple_of(padding, nd, "padding", op)
    default = tuple((n - 1) * st - 2 * pd + kk for n, st, pd, kk in
                    zip(x.shape[-nd:], s, p, k))
    if output_size is None or len(output_size) == 0:
        size = default
    else:
        size = tuple(int(v) for v in tuple(output_size)[-nd:])
    lead = tuple(x.shape[:-nd])
    flat_x = ops.reshape(x, lead + (-1,))
    flat_i = ops.reshape(indices, lead + (-1,))
    zeros = ops.mul(ops.reshape(ops.getitem(flat_x, (Ellipsis, slice(0, 1))), lead + (1,)), 0.0)
    out = ops.scatter_add(ops.broadcast_to(zeros, lead + (int(np.prod(size)),)), flat_i,
                          flat_x, axis=len(lead))
    return ops.reshape(out, lead + size)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of max_pool: each value goes to its flat position, zeros elsewhere."""
    return _unpool("ops.max_unpool1d", x, indices, 1, kernel_size, stride, padding, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of max_pool2d with ``return_indices``."""
    return _unpool("ops.max_unpool2d", x, indices, 2, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of max_pool3d with ``return_indices``."""
    return _unpool("ops.max_unpool3d", x, indices, 3, kernel_size, stride, padding, output_size)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices=False, _random_samples=None):
    """Max pooling over pseudo-random windows of size ``kernel_size`` whose starts cover the
    (D, H, W) input so that it shrinks to ``output_size`` (or ``output_ratio`` of it);
    ``return_indices`` adds flat (D, H, W) positions. One set of ``_random_samples`` (3
    numbers in [0, 1); the first 3 of a (N, C, 3) tensor) places the windows for the whole
    batch."""
    x = tensor(input)
    op = "ops.fractional_max_pool3d"
    k = tuple_of(kernel_size, 3, "kernel_size", op)
    size = tuple(x.shape[-3:])
    if output_size is not None:
        out = tuple_of(output_size, 3, "output_size", op)
    elif output_ratio is not None:
        ratio = output_ratio if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * 3
        out = tuple(int(n * float(r)) for n, r in zip(size, ratio))
    else:
        raise SporelingError("output_size or output_ratio is required", op=op,
                             expected="one of them", got="neither")
    if any(o + kk - 1 > n for o, kk, n in zip(out, k, size)):
        raise SporelingError("output too large for the kernel", op=op,
                             expected=f"output_size + kernel_size - 1 <= input size {size}",
                             got=f"output_size={out}, kernel_size={k}")
    samples = (np.random.default_rng().random(3) if _random_samples is None
               else np.asarray(value_of(_random_samples, op, "_random_samples"),
                               np.float64).reshape(-1)[:3])
    starts = []
    for n, o, kk, u in zip(size, out, k, samples):  # PyTorch's interval sequence
        alpha = (n - kk) / max(o - 1, 1)
        seq = [int((i + u) * alpha) - int(u * alpha) for i in range(o - 1)] + [n - kk]
        starts.append(seq)
    # every window is kernel-sized at an irregular start: read each kernel offset at all
    # starts (index_select per axis), then reduce over the offsets
    taps, flat = [], []
    dims = x.ndim - 3
    for off in itertools.product(*(range(kk) for kk in k)):
        t = x
        for a in range(3):
            t = ops.index_select(t, tensor(np.asarray(starts[a]) + off[a]), axis=dims + a)
        taps.append(t)
        grid = np.meshgrid(*(np.asarray(starts[a]) + off[a] for a in range(3)), indexing="ij")
        flat.append(np.ravel_multi_index(grid, size))
    stacked = ops.stack(taps, axis=0)
    values = ops.max(stacked, axis=0)
    if not return_indices:
        return values
    which = ops.expand_dims(ops.argmax(stacked, axis=0), 0)
    positions = np.stack(flat).reshape((len(flat),) + (1,) * dims + out)
    positions = ops.broadcast_to(tensor(positions.astype(np.int64)), tuple(stacked.shape))
    return values, ops.squeeze(ops.take_along_axis(positions, which, 0), 0)
