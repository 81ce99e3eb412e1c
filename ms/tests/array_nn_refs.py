"""Loop-based NumPy references for engineer B's facade tests (pooling, convolution,
interpolation, fold): slow and obvious, written from the definitions (PyTorch's semantics,
which MindSpore 2.x documents for these functions)."""
from __future__ import annotations

import itertools
import math

import numpy as np


def _out(n, k, s, p, d, ceil_mode):
    span = n + 2 * p - d * (k - 1) - 1
    out = (math.ceil(span / s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def pool(x, kernel, stride, padding=0, dilation=1, ceil_mode=False, kind="max",
         count_include_pad=True, divisor=None):
    """N-d pooling over the trailing len(kernel) axes; 'max' returns (values, flat indices)."""
    nd = len(kernel)
    stride = stride or kernel
    pad = (padding,) * nd if np.isscalar(padding) else tuple(padding)
    dil = (dilation,) * nd if np.isscalar(dilation) else tuple(dilation)
    size = x.shape[-nd:]
    outs = [_out(n, k, s, p, d, ceil_mode) for n, k, s, p, d in zip(size, kernel, stride, pad, dil)]
    lead = x.shape[:-nd]
    values = np.zeros(lead + tuple(outs), x.dtype)
    index = np.zeros(lead + tuple(outs), np.int64)
    for cell in itertools.product(*(range(o) for o in outs)):
        starts = [c * s - p for c, s, p in zip(cell, stride, pad)]
        coords = [[st + i * d for i in range(k)] for st, k, d in zip(starts, kernel, dil)]
        inside = [[c for c in cs if 0 <= c < n] for cs, n in zip(coords, size)]
        block = x[(Ellipsis,) + np.ix_(*inside)] if all(inside) else None
        if kind == "max":
            flat = block.reshape(lead + (-1,))
            arg = flat.argmax(-1)
            values[(Ellipsis,) + cell] = flat.max(-1)
            grid = np.array(list(itertools.product(*inside)))
            index[(Ellipsis,) + cell] = np.ravel_multi_index(grid.T, size)[arg]
        else:
            total = block.reshape(lead + (-1,)).sum(-1)
            if divisor:
                count = divisor
            elif count_include_pad:
                count = np.prod([min(st + k, n + p) - st for st, k, n, p in
                                 zip(starts, kernel, size, pad)])
            else:
                count = np.prod([len(i) for i in inside])
            values[(Ellipsis,) + cell] = total / count
    return (values, index) if kind == "max" else values


def conv(x, w, stride=1, padding=0, dilation=1, groups=1):
    """N-d cross-correlation (N, C, *spatial) x (O, C/groups, *kernel), symmetric padding."""
    nd = w.ndim - 2
    st = (stride,) * nd if np.isscalar(stride) else tuple(stride)
    pd = (padding,) * nd if np.isscalar(padding) else tuple(padding)
    dl = (dilation,) * nd if np.isscalar(dilation) else tuple(dilation)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pd])
    n, c = x.shape[:2]
    o = w.shape[0]
    ks = w.shape[2:]
    outs = [(xp.shape[2 + i] - dl[i] * (ks[i] - 1) - 1) // st[i] + 1 for i in range(nd)]
    y = np.zeros((n, o) + tuple(outs))
    cg, og = c // groups, o // groups
    for cell in itertools.product(*(range(v) for v in outs)):
        sl = tuple(slice(cell[i] * st[i], cell[i] * st[i] + dl[i] * (ks[i] - 1) + 1, dl[i])
                   for i in range(nd))
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            y[(slice(None), slice(g * og, (g + 1) * og)) + cell] = np.tensordot(
                patch, w[g * og:(g + 1) * og], axes=(list(range(1, nd + 2)),
                                                     list(range(1, nd + 2))))
    return y
