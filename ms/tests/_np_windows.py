"""Plain NumPy references for sliding-window layers (loops over positions; small inputs)."""
import itertools

import numpy as np


def conv(x, w, b=None, stride=1, dilation=1, pads=0, groups=1):
    """Cross-correlation, x (N, C, *S), w (O, C/g, *K); pads ((lo, hi), ...)."""
    n_sp = x.ndim - 2
    stride = (stride,) * n_sp if np.isscalar(stride) else stride
    dilation = (dilation,) * n_sp if np.isscalar(dilation) else dilation
    pads = ((pads, pads),) * n_sp if np.isscalar(pads) else pads
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0)) + tuple(pads))
    kernel = w.shape[2:]
    outs = [(x.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
            for i in range(n_sp)]
    o, cg = w.shape[0], w.shape[1]
    y = np.zeros((x.shape[0], o) + tuple(outs))
    for pos in itertools.product(*(range(s) for s in outs)):
        for k in itertools.product(*(range(s) for s in kernel)):
            idx = tuple(p * s + kk * d for p, s, kk, d in zip(pos, stride, k, dilation))
            patch = x[(slice(None), slice(None)) + idx]            # (N, C)
            for g in range(groups):
                og = slice(g * (o // groups), (g + 1) * (o // groups))
                y[(slice(None), og) + pos] += patch[:, g * cg:(g + 1) * cg] @ \
                    w[(og, slice(None)) + k].T
    if b is not None:
        y += b.reshape((1, -1) + (1,) * n_sp)
    return y


def conv_transpose(x, w, stride=1, dilation=1, crops=0, groups=1):
    """Transposed convolution, w (C_in, O/g, *K); crops ((lo, hi), ...) off the full output."""
    n_sp = x.ndim - 2
    stride = (stride,) * n_sp if np.isscalar(stride) else stride
    dilation = (dilation,) * n_sp if np.isscalar(dilation) else dilation
    crops = ((crops, crops),) * n_sp if np.isscalar(crops) else crops
    kernel = w.shape[2:]
    cin, og = w.shape[0], w.shape[1]
    full = [(x.shape[2 + i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
            for i in range(n_sp)]
    y = np.zeros((x.shape[0], og * groups) + tuple(full))
    for pos in itertools.product(*(range(s) for s in x.shape[2:])):
        for k in itertools.product(*(range(s) for s in kernel)):
            idx = tuple(p * s + kk * d for p, s, kk, d in zip(pos, stride, k, dilation))
            for g in range(groups):
                cs = slice(g * (cin // groups), (g + 1) * (cin // groups))
                y[(slice(None), slice(g * og, (g + 1) * og)) + idx] += \
                    x[(slice(None), cs) + pos] @ w[(cs, slice(None)) + k]
    key = tuple(slice(lo, y.shape[2 + i] - hi) for i, (lo, hi) in enumerate(crops))
    return y[(slice(None), slice(None)) + key]


def pool(x, kernel, stride, reduce, pads=None, fill=-np.inf):
    n_sp = x.ndim - 2
    pads = pads or ((0, 0),) * n_sp
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0)) + tuple(pads), constant_values=fill)
    outs = [(x.shape[2 + i] - kernel[i]) // stride[i] + 1 for i in range(n_sp)]
    y = np.zeros(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*(range(s) for s in outs)):
        key = tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, stride, kernel))
        window = x[(slice(None), slice(None)) + key].reshape(x.shape[0], x.shape[1], -1)
        y[(slice(None), slice(None)) + pos] = reduce(window, -1)
    return y


def adaptive(x, outs, reduce):
    n_sp = x.ndim - 2
    y = np.zeros(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*(range(o) for o in outs)):
        key = tuple(slice(int(np.floor(p * s / o)), int(np.ceil((p + 1) * s / o)))
                    for p, s, o in zip(pos, x.shape[2:], outs))
        window = x[(slice(None), slice(None)) + key].reshape(x.shape[0], x.shape[1], -1)
        y[(slice(None), slice(None)) + pos] = reduce(window, -1)
    return y
