"""Neural-network layer functions (MindSpore r2.3 ``mindspore.ops``): dense, convolutions,
dropout, normalisation, embedding, fold/unfold, LRN. Built from sx ops (Graph mode and
gradients included) unless marked eager only."""
from __future__ import annotations

import itertools
import math

import numpy as np

import sporeling.expression as sx
from sporeling.ms.common import eager_only

from ._common import (SporelingError, canonical_axis, float_like, full_like, ops, tensor,
                      tuple_of, value_of)

__all__ = ["dense", "bidense", "bias_add", "conv1d", "conv2d", "conv3d", "flatten", "dropout",
           "dropout1d", "dropout2d", "dropout3d", "embedding", "batch_norm", "layer_norm",
           "group_norm", "lrn", "unfold", "fold", "ctc_greedy_decoder"]


def dense(input, weight, bias=None):  # noqa: A002
    """input @ weight.T + bias (weight: (out, in))."""
    x, w = float_like(input), float_like(weight)
    y = ops.matmul(x, ops.transpose(w)) if w.ndim == 2 else ops.matmul(x, w)
    return y if bias is None else y + float_like(bias)


def bidense(input1, input2, weight, bias=None):
    """x1 A x2 + b per output: ``weight`` (out, in1, in2)."""
    a, b, w = float_like(input1), float_like(input2), float_like(weight)
    y = ops.einsum("...i,oij,...j->...o", a, w, b)
    return y if bias is None else y + float_like(bias)


def bias_add(input_x, bias, data_format="NCHW"):
    """``bias`` (C,) added along the channel axis (1 for NC..., last for NHWC)."""
    x, b = tensor(input_x), tensor(bias)
    if data_format in ("NHWC",):
        return x + b
    return x + ops.reshape(b, (-1,) + (1,) * (x.ndim - 2))


# --------------------------------------------------------------------------- convolution

def _same_pads(size, k, s, d):
    # never negative: a stride past the kernel (1x1, stride 2) reads fewer inputs than n
    total = max(0, (math.ceil(size / s) - 1) * s + d * (k - 1) + 1 - size)
    return total // 2, total - total // 2


def _conv_pads(op, nd, pad_mode, padding, spatial, kernel, stride, dilation):
    """Per-axis (before, after) padding from MindSpore's pad_mode / padding."""
    if pad_mode == "same":
        return [_same_pads(n, k, s, d) for n, k, s, d in zip(spatial, kernel, stride, dilation)]
    if pad_mode == "valid":
        if padding not in (0, (0,) * nd, (0,) * (2 * nd)) and not (
                isinstance(padding, (tuple, list)) and not any(padding)):
            raise SporelingError("padding needs pad_mode='pad'", op=op,
                                 expected="padding=0 with pad_mode 'valid'", got=padding)
        return [(0, 0)] * nd
    if pad_mode != "pad":
        raise SporelingError("unknown pad_mode", op=op, expected="'same', 'valid' or 'pad'",
                             got=repr(pad_mode))
    if isinstance(padding, (int, np.integer)):
        return [(int(padding), int(padding))] * nd
    padding = tuple(int(p) for p in padding)
    if len(padding) == nd:
        return [(p, p) for p in padding]
    if len(padding) == 2 * nd:
        return [(padding[2 * i], padding[2 * i + 1]) for i in range(nd)]
    raise SporelingError("bad padding", op=op, expected=f"an int, {nd} or {2 * nd} ints",
                         got=padding)


def _conv(op, nd, input, weight, bias, stride, pad_mode, padding, dilation, groups):  # noqa: A002
    x, w = float_like(input), float_like(weight)
    if x.ndim != nd + 2 or w.ndim != nd + 2:
        raise SporelingError(f"{op} takes (N, C, {nd}-d spatial) inputs", op=op,
                             expected=f"rank {nd + 2} input and weight",
                             got=f"input {list(x.shape)}, weight {list(w.shape)}")
    kernel = tuple(w.shape[2:])
    stride = tuple_of(stride, nd, "stride", op)
    dilation = tuple_of(dilation, nd, "dilation", op)
    pads = _conv_pads(op, nd, pad_mode, padding, x.shape[2:], kernel, stride, dilation)
    if any(p != (0, 0) for p in pads):
        x = ops.pad(x, [(0, 0), (0, 0)] + list(pads))
    if nd == 2:
        y = ops.conv2d(x, w, None, stride, 0, dilation, int(groups))
    elif nd == 1:
        y = ops.conv1d(x, w, None, stride[0], 0, dilation[0], int(groups))
    else:  # depth folded into the batch, one 2-d convolution per kernel depth
        n, c, depth = x.shape[:3]
        out_d = (depth - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
        y = None
        for kd in range(kernel[0]):
            start = kd * dilation[0]
            xs = ops.getitem(x, (slice(None), slice(None),
                                 slice(start, start + stride[0] * (out_d - 1) + 1, stride[0])))
            xs = ops.reshape(ops.transpose(xs, (0, 2, 1, 3, 4)),
                             (n * out_d, c) + tuple(x.shape[3:]))
            part = ops.conv2d(xs, ops.getitem(w, (slice(None), slice(None), kd)), None,
                              stride[1:], 0, dilation[1:], int(groups))
            y = part if y is None else y + part
        y = ops.transpose(ops.reshape(y, (n, out_d) + tuple(y.shape[1:])), (0, 2, 1, 3, 4))
    if bias is not None:
        y = y + ops.reshape(float_like(bias), (-1,) + (1,) * nd)
    return y


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0,  # noqa: A002
           dilation=1, groups=1):
    """1-d cross-correlation over (N, C, L). Note: MindSpore's ``pad_mode`` ('valid' by
    default, 'same', 'pad') decides the padding; ``padding`` counts only with 'pad'."""
    return _conv("ops.conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation,
                 groups)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0,  # noqa: A002
           dilation=1, groups=1):
    """2-d cross-correlation over NCHW; ``padding`` with pad_mode='pad': an int, (h, w) or
    (top, bottom, left, right)."""
    return _conv("ops.conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation,
                 groups)


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0,  # noqa: A002
           dilation=1, groups=1):
    """3-d cross-correlation over NCDHW; ``padding``: an int, 3 or 6 ints."""
    return _conv("ops.conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation,
                 groups)


# --------------------------------------------------------------------------- shape helpers

def flatten(input, order="C", *, start_dim=1, end_dim=-1):  # noqa: A002
    """Axes ``start_dim..end_dim`` merged into one (MindSpore's default keeps axis 0)."""
    x = tensor(input)
    if order not in ("C", "F"):
        raise SporelingError("unknown order", op="ops.flatten", expected="'C' or 'F'",
                             got=repr(order))
    if x.ndim == 0:
        return ops.reshape(x, (1,))
    if order == "F":
        x = ops.transpose(x)
    s = canonical_axis(start_dim, x.ndim, "ops.flatten")
    e = canonical_axis(end_dim, x.ndim, "ops.flatten")
    if s > e:
        raise SporelingError("start_dim after end_dim", op="ops.flatten",
                             expected="start_dim <= end_dim", got=f"{start_dim}, {end_dim}")
    shape = tuple(x.shape[:s]) + (-1,) + tuple(x.shape[e + 1:])
    return ops.reshape(x, shape)


# --------------------------------------------------------------------------- dropout

def dropout(input, p=0.5, training=True, seed=None):  # noqa: A002
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p)."""
    if not 0 <= p <= 1:
        raise SporelingError("p must be a probability", op="ops.dropout", expected="0 <= p <= 1",
                             got=p)
    return ops.dropout(float_like(input), p=float(p), training=bool(training), seed=seed)


def _channel_dropout(op, nd, input, p, training):  # noqa: A002
    x = float_like(input)
    if not 0 <= p <= 1:
        raise SporelingError("p must be a probability", op=op, expected="0 <= p <= 1", got=p)
    if not training or p == 0:
        return x
    if x.ndim not in (nd + 1, nd + 2):
        raise SporelingError(f"{op} takes (N, C, ...) with {nd} spatial axes", op=op,
                             expected=f"rank {nd + 1} or {nd + 2}", got=f"shape {list(x.shape)}")
    if p == 1:
        return x * 0.0
    keep_shape = tuple(x.shape[:x.ndim - nd]) + (1,) * nd
    mask = ops.bernoulli(1.0 - float(p), shape=keep_shape, dtype=x.dtype)
    return x * mask / (1.0 - float(p))


def dropout1d(input, p=0.5, training=True):  # noqa: A002
    """Zero whole channels of (N, C, L) with probability ``p``."""
    return _channel_dropout("ops.dropout1d", 1, input, p, training)


def dropout2d(input, p=0.5, training=True):  # noqa: A002
    """Zero whole channels of (N, C, H, W) with probability ``p``."""
    return _channel_dropout("ops.dropout2d", 2, input, p, training)


def dropout3d(input, p=0.5, training=True):  # noqa: A002
    """Zero whole channels of (N, C, D, H, W) with probability ``p``."""
    return _channel_dropout("ops.dropout3d", 3, input, p, training)


# --------------------------------------------------------------------------- embedding, norms

def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,  # noqa: A002
              scale_grad_by_freq=False):
    """Rows of ``weight`` at ``input``. ``max_norm`` rescales looked-up rows whose
    ``norm_type``-norm exceeds it (on the result; the table itself is left as is)."""
    idx = ops.cast(tensor(input), np.int64)
    w = float_like(weight)
    rows = ops.embedding(idx, w, padding_idx=padding_idx)
    if max_norm is not None:
        norms = ops.norm(rows, ord=float(norm_type), axis=-1, keepdims=True)
        scale = ops.where(norms > float(max_norm), float(max_norm) / (norms + 1e-7),
                          full_like(norms, 1.0))
        rows = rows * sx.stop_gradient(scale)
    return rows


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-05):
    """Batch normalisation over every axis but the channels. With ``training`` the batch
    statistics are used and ``running_mean``/``running_var`` (Parameters) are updated in
    place: mean <- (1 - momentum) * mean + momentum * batch_mean, as MindSpore does."""
    x = float_like(input_x)
    if not training:
        return ops.batch_norm(x, running_mean, running_var, weight, bias, training=False,
                              eps=float(eps))
    y, mean, var = ops.batch_norm(x, running_mean, running_var, weight, bias, training=True,
                                  momentum=float(momentum), eps=float(eps))
    for stat, new in ((running_mean, mean), (running_var, var)):
        if isinstance(stat, sx.Parameter) and new is not None:
            stat.set_data(new)
    return y


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalise over the trailing ``normalized_shape`` axes."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    return ops.layer_norm(float_like(input), shape, weight, bias, float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalise each of ``num_groups`` channel groups per sample."""
    return ops.group_norm(float_like(input), int(num_groups), weight, bias, float(eps))


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation across channels (NCHW):
    x / (bias + alpha * sum of x^2 over channels c-r..c+r)^beta."""
    if norm_region != "ACROSS_CHANNELS":
        raise SporelingError("unknown norm_region", op="ops.lrn",
                             expected="'ACROSS_CHANNELS'", got=repr(norm_region))
    x = float_like(x)
    r = int(depth_radius)
    sq = ops.pad(ops.square(x), [(0, 0), (r, r)] + [(0, 0)] * (x.ndim - 2))
    c = x.shape[1]
    total = None
    for k in range(2 * r + 1):
        part = ops.getitem(sq, (slice(None), slice(k, k + c)))
        total = part if total is None else total + part
    return x / ops.pow(total * float(alpha) + float(bias), float(beta))


def _patch_geometry(op, x, kernel_size, dilation, padding, stride):
    k = tuple_of(kernel_size, 2, "kernel_size", op)
    d = tuple_of(dilation, 2, "dilation", op)
    p = tuple_of(padding, 2, "padding", op)
    s = tuple_of(stride, 2, "stride", op)
    return k, d, p, s


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """im2col: (N, C, H, W) -> (N, C * kh * kw, L), the sliding blocks as columns."""
    x = float_like(input)
    if x.ndim != 4:
        raise SporelingError("unfold takes an NCHW input", op="ops.unfold", expected="rank 4",
                             got=f"shape {list(x.shape)}")
    k, d, p, s = _patch_geometry("ops.unfold", x, kernel_size, dilation, padding, stride)
    xp = ops.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])]) if any(p) else x
    out = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]
    cols = [ops.getitem(xp, (slice(None), slice(None),
                             slice(i * d[0], i * d[0] + s[0] * (out[0] - 1) + 1, s[0]),
                             slice(j * d[1], j * d[1] + s[1] * (out[1] - 1) + 1, s[1])))
            for i, j in itertools.product(range(k[0]), range(k[1]))]
    n, c = x.shape[:2]
    return ops.reshape(ops.stack(cols, axis=2), (n, c * k[0] * k[1], out[0] * out[1]))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """col2im: (N, C * kh * kw, L) -> (N, C, H, W), overlapping blocks summed (unfold's
    adjoint)."""
    x = float_like(input)
    k, d, p, s = _patch_geometry("ops.fold", x, kernel_size, dilation, padding, stride)
    size = tuple(int(v) for v in (value_of(output_size, "ops.fold", "output_size").tolist()
                                  if not isinstance(output_size, (tuple, list, int))
                                  else tuple_of(output_size, 2, "output_size", "ops.fold")))
    out = [(size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]
    n, ck, length = x.shape
    if ck % (k[0] * k[1]) or length != out[0] * out[1]:
        raise SporelingError("input does not match the blocks", op="ops.fold",
                             expected=f"(N, C * {k[0] * k[1]}, {out[0] * out[1]})",
                             got=f"shape {list(x.shape)}")
    c = ck // (k[0] * k[1])
    blocks = ops.reshape(x, (n, c, k[0] * k[1], out[0], out[1]))
    full = ops.mul(ops.reshape(ops.getitem(x, (slice(None), slice(0, 1), slice(0, 1))),
                               (n, 1, 1, 1)), 0.0)
    full = ops.broadcast_to(full, (n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]))
    for idx, (i, j) in enumerate(itertools.product(range(k[0]), range(k[1]))):
        key = (slice(None), slice(None),
               slice(i * d[0], i * d[0] + s[0] * (out[0] - 1) + 1, s[0]),
               slice(j * d[1], j * d[1] + s[1] * (out[1] - 1) + 1, s[1]))
        full = ops.add_at(full, key, ops.getitem(blocks, (slice(None), slice(None), idx)))
    return ops.getitem(full, (slice(None), slice(None), slice(p[0], p[0] + size[0]),
                              slice(p[1], p[1] + size[1])))


@eager_only("ops.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Best-path CTC decoding of logits (T, N, C); the blank is the last class. Returns
    ``(decoded_indices (K, 2), decoded_values (K,), decoded_shape (2,), log_probability
    (N, 1))`` as MindSpore does (a sparse result: eager only)."""
    logits = value_of(inputs)
    lengths = value_of(sequence_length).astype(np.int64).reshape(-1)
    t_max, n, c = logits.shape
    indices, values, longest = [], [], 0
    logp = np.zeros((n, 1), logits.dtype)
    for b in range(n):
        best = logits[:lengths[b], b].argmax(-1)
        logp[b, 0] = -logits[:lengths[b], b].max(-1).sum()
        seq, prev = [], -1
        for label in best:
            if label != c - 1 and not (merge_repeated and label == prev):
                seq.append(int(label))
            prev = label
        indices += [(b, i) for i in range(len(seq))]
        values += seq
        longest = max(longest, len(seq))
    return (tensor(np.array(indices, np.int64).reshape(-1, 2)), tensor(np.array(values, np.int64)),
            tensor(np.array([n, longest], np.int64)), tensor(logp))
