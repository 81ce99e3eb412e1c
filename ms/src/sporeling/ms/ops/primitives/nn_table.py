"""Neural-network primitive classes of MindSpore 2.10 (pooling, convolution, activations,
losses, image and box ops), one declaration each over the facade's functions (``_table.py``)."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.ms.common import eager_only
from sporeling.ms.common.dtype import to_numpy

from ..functional_array import pooling as fpool
from ..functional_array._common import tensor
from ..functional_array.nn import _conv_pads
from ._args import ops
from ._table import F, op, same, table


def _tuple(v, n):
    """An int or a sequence (MindSpore's (1, 1, d, h, w) forms included) as ``n`` ints."""
    if isinstance(v, (int, np.integer)):
        return (int(v),) * n
    v = tuple(int(i) for i in v)
    return v[-n:] if len(v) > n else v


def _ints(v):
    if hasattr(v, "asnumpy"):
        v = v.asnumpy()
    return tuple(int(i) for i in np.asarray(v).reshape(-1))


# ---------------------------------------------------------------------------- pooling

def _pool_pads(x, nd, pad_mode, pad, k, s, d=None):
    d = d or (1,) * nd
    return _conv_pads("ops.Pool", nd, str(pad_mode).lower(), pad, tuple(x.shape[2:]), k, s, d)


def _padded(x, pads, value=0.0):
    return ops.pad(x, [(0, 0), (0, 0)] + [tuple(p) for p in pads], value=value)


def _avg_pool3d(self, x):
    x = tensor(x)
    k, s = _tuple(self.kernel_size, 3), _tuple(self.strides, 3)
    pad = self.pad if str(self.pad_mode).lower() == "pad" else 0
    pads = _pool_pads(x, 3, self.pad_mode, pad, k, s)
    same = str(self.pad_mode).lower() == "same"
    total = fpool._avg_pool("ops.AvgPool3D", _padded(x, pads), 3, k, s, 0, self.ceil_mode,
                            True, self.divisor_override or None)
    if self.divisor_override or (self.count_include_pad and not same):
        return total
    ones = tensor(np.ones((1, 1) + tuple(x.shape[2:]), x.dtype))
    count = fpool._avg_pool("ops.AvgPool3D", _padded(ones, pads), 3, k, s, 0, self.ceil_mode,
                            True)
    return total / count


def _max_pool_nd(nd, x, kernel, strides, pad_mode, pad, dilation=None, ceil_mode=False,
                 with_indices=False):
    x = tensor(x)
    k, s = _tuple(kernel, nd), _tuple(strides, nd)
    d = _tuple(dilation, nd) if dilation is not None else (1,) * nd
    pads = _pool_pads(x, nd, pad_mode, pad if str(pad_mode).lower() == "pad" else 0, k, s, d)
    symmetric = all(a == b for a, b in pads)
    if symmetric:
        padding = tuple(a for a, _ in pads)
        return fpool._max_pool(f"ops.MaxPool{nd}D", x, nd, k, s, padding, d, with_indices,
                               bool(ceil_mode))
    low = float(np.finfo(x.dtype).min) if x.dtype.kind == "f" else int(np.iinfo(x.dtype).min)
    out = fpool._max_pool(f"ops.MaxPool{nd}D", _padded(x, pads, low), nd, k, s, 0, d,
                          with_indices, bool(ceil_mode))
    if not with_indices:
        return out
    values, index = out   # positions in the padded input: back to the input's
    padded = tuple(n + a + b for n, (a, b) in zip(x.shape[2:], pads))
    coords = np.unravel_index(index.asnumpy(), padded)
    real = np.ravel_multi_index([c - a for c, (a, _) in zip(coords, pads)], tuple(x.shape[2:]))
    return values, tensor(real.astype(np.int64))


def _max_pool3d(self, x):
    return _max_pool_nd(3, x, self.kernel_size, self.strides, self.pad_mode, self.pad_list,
                        None, bool(self.ceil_mode))


def _max_pool3d_argmax(self, x):
    values, index = _max_pool_nd(3, x, self.ksize, self.strides, "pad", self.pads,
                                 self.dilation, self.ceil_mode, True)
    return values, ops.cast(index, to_numpy(self.argmax_type))


def _max_pool_argmax(self, x):
    values, index = _max_pool_nd(2, x, self.kernel_size, self.strides, self.pad_mode, 0,
                                 None, False, True)
    return values, ops.cast(index, np.int32)


def _max_pool_argmax_v2(self, x):
    strides = self.strides if self.strides is not None else self.kernel_size
    values, index = _max_pool_nd(2, x, self.kernel_size, strides, "pad", self.pads,
                                 self.dilation, self.ceil_mode, True)
    return values, ops.cast(index, to_numpy(self.argmax_type))


def _max_unpool(nd):
    def call(self, x, argmax):
        fn = F.max_unpool2d if nd == 2 else F.max_unpool3d
        strides = self.strides if self.strides else self.ksize
        out = tuple(self.output_shape)[-nd:] if self.output_shape else None
        return fn(x, ops.cast(tensor(argmax), np.int64), _tuple(self.ksize, nd),
                  _tuple(strides, nd), _tuple(self.pads, nd), out)
    return call


def _adaptive_max3d(self, x, output_size):
    return fpool._adaptive_max("ops.AdaptiveMaxPool3D", x, 3, _ints(output_size), True)


def _fractional_fixed(nd):
    def call(self, x, random_samples):
        x = tensor(x)
        if nd == 3:
            return F.fractional_max_pool3d(x, _tuple(self.ksize, 3), _tuple(self.output_shape, 3),
                                           None, True, random_samples)
        # 2-d: the 3-d pooling over a unit depth axis
        samples = tensor(random_samples).asnumpy().reshape(-1)[:2]
        y, idx = F.fractional_max_pool3d(F.expand_dims(x, 2), (1,) + _tuple(self.ksize, 2),
                                         (1,) + _tuple(self.output_shape, 2), None, True,
                                         tensor(np.concatenate([[0.0], samples])
                                                .astype(np.float32)))
        return F.squeeze(y, 2), F.squeeze(idx, 2)
    return call


def _fractional_sequences(size, ratio, pseudo_random, seed):
    """Row/column boundaries of fractional pooling (Graham's)."""
    out = int(size / ratio)
    alpha = size / out
    rng = np.random.default_rng(seed or None)
    u = rng.uniform(0, 1) if pseudo_random else 0.0
    seq = np.ceil(alpha * (np.arange(out + 1) + u)).astype(np.int64) - int(np.ceil(alpha * u))
    seq[-1] = size
    return seq


@eager_only("ops.FractionalPool")
def _fractional_pool(kind, x, ratio, pseudo_random, overlapping, seed):
    """NHWC fractional pooling (MindSpore's layout): (y, row_seq, col_seq)."""
    a = tensor(x).asnumpy()
    rows = _fractional_sequences(a.shape[1], ratio[1], pseudo_random, seed)
    cols = _fractional_sequences(a.shape[2], ratio[2], pseudo_random, seed + 1 if seed else 0)
    reduce = np.max if kind == "max" else np.mean
    out = np.empty((a.shape[0], len(rows) - 1, len(cols) - 1, a.shape[3]), a.dtype)
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            r1 = rows[i + 1] + (1 if overlapping and i + 1 < len(rows) - 1 else 0)
            c1 = cols[j + 1] + (1 if overlapping and j + 1 < len(cols) - 1 else 0)
            out[:, i, j] = reduce(a[:, rows[i]:r1, cols[j]:c1], axis=(1, 2))
    return tensor(out), tensor(rows), tensor(cols)


def _fractional(kind):
    return lambda self, x: _fractional_pool(kind, x, tuple(self.pooling_ratio),
                                            self.pseudo_random, self.overlapping, self.seed)


# ------------------------------------------------------------------------ convolution

def _conv_transpose(x, weight, input_size, nd, pad_mode, pad, stride, dilation, group):
    """The input gradient of a convolution (``Conv2DBackpropInput``): the transposed
    convolution cropped so that the result has ``input_size`` (the forward padding)."""
    from sporeling.ms.nn._windows import conv_transpose_nd
    x, w = tensor(x), tensor(weight)
    size = _ints(input_size)[-nd:]
    k, s, d = tuple(w.shape[2:]), _tuple(stride, nd), _tuple(dilation, nd)
    pads = _conv_pads("ops.Conv2DBackpropInput", nd, str(pad_mode).lower(), pad, size, k, s, d)
    full = [(n - 1) * ss + dd * (kk - 1) + 1 for n, ss, dd, kk in zip(x.shape[2:], s, d, k)]
    extra = tuple(n - (f - a - b) for n, f, (a, b) in zip(size, full, pads))
    return conv_transpose_nd(x, w, None, s, d, pads, int(group), extra)


def _conv2d_backprop_input(self, dout, weight, input_size):
    pad = self.pad_list if self.pad_list else self.pad
    return _conv_transpose(dout, weight, input_size, 2, self.pad_mode, pad, self.stride,
                           self.dilation, self.group)


def _conv3d(self, x, weight, bias=None):
    return F.conv3d(x, weight, bias, _tuple(self.stride, 3), self.pad_mode, self.pad,
                    _tuple(self.dilation, 3), self.group)


def _conv3d_transpose(self, dout, weight):
    dout, w = tensor(dout), tensor(weight)
    k, s, d = tuple(w.shape[2:]), _tuple(self.stride, 3), _tuple(self.dilation, 3)
    extra = _tuple(self.output_padding, 3)
    mode = str(self.pad_mode).lower()
    if mode == "same":
        size = tuple(n * ss for n, ss in zip(dout.shape[2:], s))
    else:
        pads = _conv_pads("ops.Conv3DTranspose", 3, mode, self.pad, (0, 0, 0), k, s, d) \
            if mode == "pad" else [(0, 0)] * 3
        size = tuple((n - 1) * ss - a - b + dd * (kk - 1) + 1 + e for n, ss, (a, b), dd, kk, e
                     in zip(dout.shape[2:], s, pads, d, k, extra))
    return _conv_transpose(dout, w, size, 3, mode, self.pad, s, d, self.group)


def _depthwise(self, x, weight, bias=None):
    x, w = tensor(x), tensor(weight)
    c = x.shape[1]
    w = F.reshape(F.transpose(w, (1, 0, 2, 3)), (c * self.channel_multiplier, 1) +
                  tuple(w.shape[2:]))
    return F.conv2d(x, w, bias, _tuple(self.stride, 2), self.pad_mode, self.pad,
                    _tuple(self.dilation, 2), c)


def _deformable_offsets(self, x, offsets):
    """The deformed patches of deformable convolution, (N, C, H_out * kh, W_out * kw): tap
    (i, j) of output (h, w) samples x at its grid position plus its offset (bilinear, zero
    outside), times its mask when ``modulated``. ``offsets``: (N, 3 * groups * kh * kw,
    H_out, W_out), x offsets, y offsets, masks (``ops.deformable_conv2d``'s layout)."""
    from ..functional_array.grids import sample_pixels
    x, off = tensor(x), tensor(offsets)
    kh, kw = _tuple(self.ksize, 2)
    sh, sw = _tuple(self.strides, 2)
    dh, dw = _tuple(self.dilations, 2)
    top, _, left, _ = (int(p) for p in self.pads)
    n, c = x.shape[:2]
    ho, wo, dg = off.shape[2], off.shape[3], int(self.deformable_groups)
    parts = F.reshape(off, (n, 3, dg, kh * kw, ho, wo))
    base_y = (np.arange(ho) * sh - top).astype(x.dtype)[:, None]
    base_x = (np.arange(wo) * sw - left).astype(x.dtype)[None, :]
    cg, rows = c // dg, []
    for i in range(kh):
        taps = []
        for j in range(kw):
            tap, groups = i * kw + j, []
            for g in range(dg):
                py = tensor(base_y + i * dh) + parts[:, 1, g, tap]
                px = tensor(base_x + j * dw) + parts[:, 0, g, tap]
                sampled = sample_pixels(x[:, g * cg:(g + 1) * cg],
                                        F.broadcast_to(px, (n, ho, wo)),
                                        F.broadcast_to(py, (n, ho, wo)))
                if self.modulated:
                    sampled = sampled * F.expand_dims(parts[:, 2, g, tap], 1)
                groups.append(sampled)
            taps.append(F.concat(groups, 1) if dg > 1 else groups[0])
        rows.append(F.stack(taps, -1))                       # (N, C, ho, wo, kw)
    out = F.stack(rows, 3)                                   # (N, C, ho, kh, wo, kw)
    return F.reshape(out, (n, c, ho * kh, wo * kw))


def _dilation2d(self, x, filter):  # noqa: A002
    """Morphological dilation: max over the window of x + filter (per channel)."""
    x, w = tensor(x), tensor(filter)
    kh, kw = w.shape[1:]
    s, d = _tuple(self.stride, 2), _tuple(self.dilation, 2)
    pads = _conv_pads("ops.Dilation2D", 2, str(self.pad_mode).lower(), 0, tuple(x.shape[2:]),
                      (kh, kw), s, d)
    low = float(np.finfo(x.dtype).min)
    x = _padded(x, pads, low)
    oh = (x.shape[2] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (x.shape[3] - d[1] * (kw - 1) - 1) // s[1] + 1
    taps = [x[:, :, i * d[0]:i * d[0] + (oh - 1) * s[0] + 1:s[0],
              j * d[1]:j * d[1] + (ow - 1) * s[1] + 1:s[1]] +
            F.reshape(w[:, i, j], (1, -1, 1, 1)) for i in range(kh) for j in range(kw)]
    return F.amax(F.stack(taps, 0), 0)


# --------------------------------------------------------------------- losses, others

def _l2_normalize(self, x):
    x = tensor(x)
    axis = self.axis if isinstance(self.axis, int) else tuple(self.axis)
    norm = ops.sqrt(ops.maximum(F.sum(ops.square(x), axis, True), self.epsilon))
    return x / norm


def _multilabel_margin(self, x, target):
    loss = F.multi_label_margin_loss(x, target, self.reduction)
    t = tensor(target).asnumpy()
    is_target = np.zeros(t.shape, np.int32)
    for index in np.ndindex(*t.shape[:-1]):
        for label in t[index]:
            if label < 0:
                break
            is_target[index + (int(label),)] = 1
    return loss, tensor(is_target)


def _sigmoid_ce(logits, label):
    x, y = tensor(logits), tensor(label)
    return ops.maximum(x, 0) - x * y + ops.log1p(ops.exp(-ops.abs(x)))


def _triplet(self, x, positive, negative, margin):
    return F.triplet_margin_loss(x, positive, negative, float(np.asarray(
        margin.asnumpy() if hasattr(margin, "asnumpy") else margin)), self.p, self.eps,
        self.swap, self.reduction)


def _ctc_loss(self, x, labels_indices, labels_values, sequence_length):
    """TensorFlow-style CTC: (T, N, C) logits, sparse labels; blank is the last class."""
    x = tensor(x)
    t, n, c = x.shape
    idx, vals = tensor(labels_indices).asnumpy(), tensor(labels_values).asnumpy()
    lengths = np.bincount(idx[:, 0], minlength=n)
    targets = np.zeros((n, max(int(lengths.max(initial=0)), 1)), np.int64)
    for (b, j), v in zip(idx, vals):
        targets[b, j] = v
    args = (tensor(targets), ops.cast(tensor(sequence_length), np.int64),
            tensor(lengths.astype(np.int64)), c - 1, "none")

    def total(z):
        return F.sum(F.ctc_loss(F.log_softmax(z, -1), *args)[0])
    return F.ctc_loss(F.log_softmax(x, -1), *args)[0], sx.grad(total)(x)


def _ctc_loss_v2(self, log_probs, targets, input_lengths, target_lengths):
    """``(neg_log_likelihood, log_alpha)``, as the facade's ``ops.ctc_loss``."""
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                      self.reduction, self.zero_infinity)


def _ctc_greedy(self, inputs, sequence_length):
    return F.ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


@eager_only("ops.RNNTLoss")
def _rnnt(acts, labels, input_lengths, label_lengths, blank):
    """RNN-T loss per batch element (Graves 2012) and its gradient w.r.t. ``acts``."""
    a = tensor(acts).asnumpy().astype(np.float64)
    labels_, t_len, u_len = (tensor(v).asnumpy() for v in (labels, input_lengths, label_lengths))
    logp = a - np.log(np.exp(a - a.max(-1, keepdims=True)).sum(-1, keepdims=True)) - \
        a.max(-1, keepdims=True)
    costs, grads = np.zeros(a.shape[0]), np.zeros_like(a)
    for b in range(a.shape[0]):
        big_t, big_u = int(t_len[b]), int(u_len[b]) + 1
        lab = labels_[b]
        alpha = np.full((big_t, big_u), -np.inf)
        beta = np.full((big_t, big_u), -np.inf)
        alpha[0, 0] = 0
        for t in range(big_t):
            for u in range(big_u):
                if t:
                    alpha[t, u] = alpha[t - 1, u] + logp[b, t - 1, u, blank]
                if u:
                    alpha[t, u] = np.logaddexp(alpha[t, u], alpha[t, u - 1] +
                                               logp[b, t, u - 1, lab[u - 1]])
        beta[-1, -1] = logp[b, big_t - 1, big_u - 1, blank]
        for t in range(big_t - 1, -1, -1):
            for u in range(big_u - 1, -1, -1):
                if t == big_t - 1 and u == big_u - 1:
                    continue
                terms = []
                if t < big_t - 1:
                    terms.append(beta[t + 1, u] + logp[b, t, u, blank])
                if u < big_u - 1:
                    terms.append(beta[t, u + 1] + logp[b, t, u, lab[u]])
                beta[t, u] = np.logaddexp.reduce(terms)
        total = beta[0, 0]
        costs[b] = -total
        g = np.zeros((big_t, big_u, a.shape[-1]))
        for t in range(big_t):
            for u in range(big_u):
                if t < big_t - 1:
                    g[t, u, blank] -= np.exp(alpha[t, u] + beta[t + 1, u] + logp[b, t, u, blank]
                                             - total)
                elif u == big_u - 1:
                    g[t, u, blank] -= np.exp(alpha[t, u] + logp[b, t, u, blank] - total)
                if u < big_u - 1:
                    g[t, u, lab[u]] -= np.exp(alpha[t, u] + beta[t, u + 1] + logp[b, t, u, lab[u]]
                                              - total)
        g += np.exp(logp[b, :big_t, :big_u]) * np.exp(alpha + beta - total)[..., None]
        grads[b, :big_t, :big_u] = g
    dtype = tensor(acts).asnumpy().dtype
    return tensor(costs.astype(dtype)), tensor(grads.astype(dtype))


def _rms_norm(self, x, gamma):
    x = tensor(x)
    axes_ = tuple(range(x.ndim - tensor(gamma).ndim, x.ndim))
    rstd = ops.rsqrt(F.mean(ops.square(x), axes_, True) + self.epsilon)
    return x * rstd * tensor(gamma), rstd


def _dropout_nd(nd):
    def call(self, x):
        x = tensor(x)
        shape = tuple(x.shape[:2]) + (1,) * nd
        mask = F.bernoulli(F.zeros(shape, np.float32), float(self.keep_prob))
        mask = F.broadcast_to(ops.cast(mask, np.bool_), x.shape)
        return x * ops.cast(mask, x.dtype) / float(self.keep_prob), mask
    return call


def _dropout_gen_mask(self, shape, keep_prob):
    """A uint8 bit mask (LSB first), 128-bit aligned as MindSpore's."""
    size = int(np.prod(_ints(shape)))
    p = float(np.asarray(keep_prob.asnumpy() if hasattr(keep_prob, "asnumpy") else keep_prob))
    seed = None if not (self.Seed0 or self.Seed1) else int(self.Seed0) * 7919 + int(self.Seed1)
    keep = np.random.default_rng(seed).random(-(-size // 128) * 128) < p
    return tensor(np.packbits(keep, bitorder="little"))


def _dropout_do_mask(input_x, mask, keep_prob):
    x = tensor(input_x)
    bits = np.unpackbits(tensor(mask).asnumpy(), bitorder="little")[:int(np.prod(x.shape))]
    p = float(np.asarray(keep_prob.asnumpy() if hasattr(keep_prob, "asnumpy") else keep_prob))
    return x * tensor(bits.reshape(x.shape).astype(x.dtype)) / p


# ------------------------------------------------------------------------------ image

def _tf_source(out, n, align_corners, half_pixel):
    """TensorFlow's (and MindSpore's) source coordinates: aligned corners, half-pixel
    centres, or by default the asymmetric ``dst * n / out``."""
    dst = np.arange(out, dtype=np.float64)
    if align_corners:
        return dst * ((n - 1) / (out - 1) if out > 1 else 0.0)
    if half_pixel:
        return (dst + 0.5) * n / out - 0.5
    return dst * n / out


def _tf_resample(x, axis, out, cubic, align_corners, half_pixel):
    """One axis of bilinear or bicubic resizing from sx ops (gathers and weighted sums)."""
    n = x.shape[axis]
    src = _tf_source(out, n, align_corners, half_pixel)
    view = [1] * x.ndim
    view[axis] = out
    if not cubic:
        src = np.clip(src, 0.0, n - 1)
        i0 = np.floor(src).astype(np.int64)
        i1 = np.minimum(i0 + 1, n - 1)
        w = tensor((src - i0).astype(x.dtype).reshape(view))
        a, b = F.gather(x, tensor(i0), axis), F.gather(x, tensor(i1), axis)
        return a + (b - a) * w
    # Keys' cubic: a = -0.5 with half-pixel centres (taps outside dropped, weights
    # renormalised), else -0.75 with taps clamped to the edge
    a = -0.5 if half_pixel else -0.75
    base = np.floor(src).astype(np.int64)
    t = src - base
    dist = [t + 1, t, 1 - t, 2 - t]
    taps = [np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                     ((a * d - 5 * a) * d + 8 * a) * d - 4 * a) for d in dist]
    idx = [base - 1 + k for k in range(4)]
    if half_pixel:
        taps = [np.where((i >= 0) & (i < n), w, 0.0) for w, i in zip(taps, idx)]
        total = sum(taps)
        taps = [w / total for w in taps]
    out_t = None
    for w, i in zip(taps, idx):
        term = F.gather(x, tensor(np.clip(i, 0, n - 1)), axis) * \
            tensor(w.astype(x.dtype).reshape(view))
        out_t = term if out_t is None else out_t + term
    return out_t


def _resize(mode):
    def call(self, x, size):
        x, size = tensor(x), _ints(size)[-2:]
        align = getattr(self, "align_corners", False)
        half = getattr(self, "half_pixel_centers", False)
        if mode == "nearest":
            return _nearest_aligned(x, size) if align else _nearest(x, size, half)
        if mode == "area":
            return F.interpolate(x, size, None, "area")
        for axis, out in zip((2, 3), size):
            x = _tf_resample(x, axis, out, mode == "bicubic", align, half)
        return x
    return call


def _nearest(x, size, half_pixel):
    """TensorFlow's nearest: src = floor(dst * in / out) (+0.5 with half-pixel centres)."""
    x = tensor(x)
    for axis, out in zip((2, 3), size):
        n = x.shape[axis]
        pos = (np.arange(out) + (0.5 if half_pixel else 0.0)) * n / out
        src = np.minimum(np.floor(pos).astype(np.int64), n - 1)
        x = F.gather(x, tensor(src), axis)
    return x


def _resize_nearest_v1(self, x):
    size = _tuple(self.size, 2)
    return _nearest_aligned(x, size) if self.align_corners else _nearest(x, size, False)


def _nearest_aligned(x, size):
    x = tensor(x)
    for axis, out in zip((2, 3), size):
        n = x.shape[axis]
        scale = (n - 1) / (out - 1) if out > 1 else 0.0
        src = np.minimum(np.round(np.arange(out) * scale).astype(np.int64), n - 1)
        x = F.gather(x, tensor(src), axis)
    return x


def _resize_linear1d(self, x, size):
    align = self.coordinate_transformation_mode == "align_corners"
    return F.interpolate(x, _ints(size)[-1:], None, "linear", align)


def _upsample3d(mode):
    def call(self, x, output_size=None, scales=None):
        size = _ints(output_size)[-3:] if output_size is not None and len(_ints(output_size)) \
            else None
        scale = tuple(float(s) for s in scales) if size is None else None
        align = getattr(self, "align_corners", False) if mode == "trilinear" else None
        return F.interpolate(x, size, scale, mode, align)
    return call


def _crop_and_resize(self, x, boxes, box_index, crop_size):
    return F.crop_and_resize(x, boxes, box_index, _ints(crop_size), self.method,
                             self.extrapolation_value)


def _grid_sampler(self, x, grid):
    mode = self.interpolation_mode
    if tensor(x).ndim == 5:
        return _grid_sample_3d(x, grid, mode, self.padding_mode, self.align_corners)
    return F.grid_sample(x, grid, mode, self.padding_mode, self.align_corners)


def _grid_sample_3d(x, grid, mode, padding_mode, align_corners):
    """3-d grid sampling as a stack of 2-d samplings along depth (linear in z)."""
    x, g = tensor(x), tensor(grid)
    n, c, d, h, w = x.shape
    z = g[..., 2]
    zpos = ((z + 1) * (d - 1) / 2) if align_corners else ((z + 1) * d - 1) / 2
    planes = [F.grid_sample(x[:, :, k], F.reshape(g[..., :2], (n, -1, g.shape[-2], 2)), mode,
                            padding_mode, align_corners) for k in range(d)]
    stack = F.stack(planes, 2)                                # (N, C, D, Do*Ho, Wo)
    stack = F.reshape(stack, (n, c, d) + tuple(g.shape[1:4]))
    weights = [ops.maximum(1 - ops.abs(zpos - k), 0) if mode == "bilinear" else
               ops.cast(ops.equal(ops.round(zpos), k), x.dtype) for k in range(d)]
    out = sum(stack[:, :, k] * F.expand_dims(weights[k], 1) for k in range(d))
    return out


def _rgb_to_hsv(images):
    x = tensor(images)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = ops.maximum(ops.maximum(r, g), b)
    mn = ops.minimum(ops.minimum(r, g), b)
    delta = v - mn
    safe = F.where(ops.equal(delta, 0), F.ones_like(delta), delta)
    s = F.where(ops.equal(v, 0), F.zeros_like(v), delta / F.where(ops.equal(v, 0),
                                                                  F.ones_like(v), v))
    h = F.where(ops.equal(v, r), (g - b) / safe,
                F.where(ops.equal(v, g), 2.0 + (b - r) / safe, 4.0 + (r - g) / safe)) / 6.0
    h = F.where(ops.equal(delta, 0), F.zeros_like(h), h)
    h = h - ops.floor(h)
    return F.stack([h, s, v], -1)


def _hsv_to_rgb(images):
    x = tensor(images)
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    def channel(n):
        k = (n + h * 6.0) - ops.floor((n + h * 6.0) / 6.0) * 6.0
        return v - v * s * ops.maximum(ops.minimum(ops.minimum(k, 4.0 - k), 1.0), 0.0)
    return F.stack([channel(5.0), channel(3.0), channel(1.0)], -1)


def _adjust_hue(image, delta):
    hsv = _rgb_to_hsv(image)
    h = hsv[..., 0] + tensor(delta)
    h = h - ops.floor(h)
    return _hsv_to_rgb(F.stack([h, hsv[..., 1], hsv[..., 2]], -1))


def _adjust_saturation(image, scale):
    hsv = _rgb_to_hsv(image)
    s = ops.clip(hsv[..., 1] * tensor(scale), 0.0, 1.0)
    return _hsv_to_rgb(F.stack([hsv[..., 0], s, hsv[..., 2]], -1))


@eager_only("ops.NMSWithMask")
def _nms_with_mask(bboxes, iou_threshold):
    """(boxes sorted by score, their indices, the mask of kept ones)."""
    a = tensor(bboxes).asnumpy()
    order = np.argsort(-a[:, 4], kind="stable")
    boxes = a[order]
    keep = np.ones(len(boxes), bool)
    for i in range(len(boxes)):
        if keep[i]:
            keep[i + 1:] &= _iou_np(boxes[i, :4], boxes[i + 1:, :4]) <= iou_threshold
    return tensor(boxes), tensor(order.astype(np.int32)), tensor(keep)


def _iou_np(box, boxes):
    lt = np.maximum(box[:2], boxes[:, :2])
    rb = np.minimum(box[2:4], boxes[:, 2:4])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=1)
    area = np.prod(box[2:4] - box[:2])
    areas = np.prod(boxes[:, 2:4] - boxes[:, :2], axis=1)
    return inter / np.maximum(area + areas - inter, 1e-12)


def _greedy_nms(overlap, scores, max_out, threshold, score_threshold):
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > score_threshold]
    chosen = []
    for i in order:
        if len(chosen) >= max_out:
            break
        if all(overlap(i, j) <= threshold for j in chosen):
            chosen.append(i)
    return np.array(chosen, np.int32)


@eager_only("ops.NonMaxSuppressionV3")
def _nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    b, s = tensor(boxes).asnumpy(), tensor(scores).asnumpy()
    b = np.concatenate([np.minimum(b[:, :2], b[:, 2:]), np.maximum(b[:, :2], b[:, 2:])], 1)
    keep = _greedy_nms(lambda i, j: _iou_np(b[i], b[j:j + 1])[0], s, _scalar(max_output_size),
                       _scalar(iou_threshold), _scalar(score_threshold))
    return tensor(keep)


@eager_only("ops.NonMaxSuppressionWithOverlaps")
def _nms_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    o, s = tensor(overlaps).asnumpy(), tensor(scores).asnumpy()
    return tensor(_greedy_nms(lambda i, j: o[i, j], s, _scalar(max_output_size),
                              _scalar(overlap_threshold), _scalar(score_threshold)))


@eager_only("ops.CombinedNonMaxSuppression")
def _combined_nms(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold,
                  pad_per_class, clip_boxes):
    b, s = tensor(boxes).asnumpy(), tensor(scores).asnumpy()
    per_class, total = int(_scalar(max_per_class)), int(_scalar(max_total))
    size = min(total, per_class * s.shape[-1]) if pad_per_class else total
    out_boxes = np.zeros((b.shape[0], size, 4), np.float32)
    out_scores = np.zeros((b.shape[0], size), np.float32)
    out_classes = np.zeros((b.shape[0], size), np.float32)
    valid = np.zeros(b.shape[0], np.int32)
    for n in range(b.shape[0]):
        found = []
        for c in range(s.shape[-1]):
            boxes_c = b[n, :, c if b.shape[2] > 1 else 0]
            keep = _greedy_nms(lambda i, j: _iou_np(boxes_c[i], boxes_c[j:j + 1])[0],
                               s[n, :, c], per_class, _scalar(iou_threshold),
                               _scalar(score_threshold))
            found += [(s[n, i, c], c, boxes_c[i]) for i in keep]
        found.sort(key=lambda item: -item[0])
        for k, (score, c, box) in enumerate(found[:size]):
            out_boxes[n, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[n, k], out_classes[n, k] = score, c
        valid[n] = min(len(found), size)
    return tensor(out_boxes), tensor(out_scores), tensor(out_classes), tensor(valid)


def _scalar(v):
    return np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v).reshape(-1)[0].item()


def _roi_align(self, features, rois):
    """Average of ``sample_num``^2 bilinear samples per bin (MindSpore's ROIAlign)."""
    from ..functional_array.grids import sample_pixels
    x, r = tensor(features), tensor(rois)
    ph, pw, n_s = self.pooled_height, self.pooled_width, max(int(self.sample_num), 1)
    outs = []
    for k in range(r.shape[0]):
        b = int(r[k, 0].asnumpy())
        box = r[k, 1:] * self.spatial_scale
        x0, y0, x1, y1 = (box[i] for i in range(4))
        end = 1.0 if self.roi_end_mode == 1 else 0.0
        bw = ops.maximum(x1 - x0 + end, 1.0) / pw
        bh = ops.maximum(y1 - y0 + end, 1.0) / ph
        grid_y = (np.arange(ph)[:, None] + (np.arange(n_s)[None, :] + 0.5) / n_s).reshape(-1)
        grid_x = (np.arange(pw)[:, None] + (np.arange(n_s)[None, :] + 0.5) / n_s).reshape(-1)
        py = y0 + bh * tensor(grid_y.astype(np.float32))
        px = x0 + bw * tensor(grid_x.astype(np.float32))
        py2, px2 = F.broadcast_to(F.reshape(py, (-1, 1)), (py.shape[0], px.shape[0])), \
            F.broadcast_to(F.reshape(px, (1, -1)), (py.shape[0], px.shape[0]))
        sampled = sample_pixels(x[b:b + 1], F.expand_dims(px2, 0), F.expand_dims(py2, 0))
        sampled = F.reshape(sampled, (1, x.shape[1], ph, n_s, pw, n_s))
        outs.append(F.mean(sampled, (3, 5)))
    return F.concat(outs, 0)


def _bbox_decode(self, anchor, deltas):
    return F.bounding_box_decode(anchor, deltas, tuple(self.max_shape), tuple(self.means),
                                 tuple(self.stds), self.wh_ratio_clip)


@eager_only("ops.ExtractGlimpse")
def _extract_glimpse(self, x, size, offsets):
    """(N, H, W, C) windows of ``size`` around ``offsets`` (zero outside the image)."""
    a, off = tensor(x).asnumpy(), tensor(offsets).asnumpy().astype(np.float64)
    gh, gw = _ints(size)
    n, h, w, c = a.shape
    out = np.zeros((n, gh, gw, c), a.dtype)
    for i in range(n):
        y, xx = off[i]
        if self.normalized:
            y, xx = y * h, xx * w
        if self.centered:
            y, xx = y + h / 2, xx + w / 2
        top, left = int(np.floor(y - gh / 2)), int(np.floor(xx - gw / 2))
        for r in range(gh):
            for q in range(gw):
                if 0 <= top + r < h and 0 <= left + q < w:
                    out[i, r, q] = a[i, top + r, left + q]
                elif self.uniform_noise or self.noise == "uniform":
                    out[i, r, q] = np.random.uniform(size=c)
                elif self.noise == "gaussian":
                    out[i, r, q] = np.random.normal(size=c)
    return tensor(out)


def _scale_and_translate(self, images, size, scale, translation):
    """(N, H, W, C) resampled to ``size``: out(y) = in((y + 0.5 - t) / s - 0.5), bilinear
    ('triangle' kernel) with zero outside."""
    from ..functional_array.grids import sample_pixels
    x = F.transpose(tensor(images), (0, 3, 1, 2))
    oh, ow = _ints(size)
    sy, sx_ = (float(v) for v in tensor(scale).asnumpy())
    ty, tx = (float(v) for v in tensor(translation).asnumpy())
    py = ((np.arange(oh) + 0.5 - ty) / sy - 0.5).astype(np.float32)
    px = ((np.arange(ow) + 0.5 - tx) / sx_ - 0.5).astype(np.float32)
    grid_y, grid_x = np.meshgrid(py, px, indexing="ij")
    n = x.shape[0]
    out = sample_pixels(x, tensor(np.broadcast_to(grid_x, (n, oh, ow)).copy()),
                        tensor(np.broadcast_to(grid_y, (n, oh, ow)).copy()))
    return F.transpose(out, (0, 2, 3, 1))


@eager_only("ops.SampleDistortedBoundingBoxV2")
def _sample_distorted(self, image_size, bounding_boxes, min_object_covered):
    """(begin, size, bbox) of a random crop covering ``min_object_covered`` of a box."""
    h, w, c = _ints(image_size)
    boxes = tensor(bounding_boxes).asnumpy().reshape(-1, 4)
    if not len(boxes) and self.use_image_if_no_bounding_boxes:
        boxes = np.array([[0.0, 0.0, 1.0, 1.0]])
    rng = np.random.default_rng((self.seed * 7919 + self.seed2) or None)
    covered = float(_scalar(min_object_covered))
    lo_ar, hi_ar = self.aspect_ratio_range
    lo_a, hi_a = self.area_range
    for _ in range(self.max_attempts):
        area = rng.uniform(lo_a, hi_a) * h * w
        ratio = rng.uniform(lo_ar, hi_ar)
        ch, cw = int(round(np.sqrt(area / ratio))), int(round(np.sqrt(area * ratio)))
        if not (0 < ch <= h and 0 < cw <= w):
            continue
        y0, x0 = rng.integers(0, h - ch + 1), rng.integers(0, w - cw + 1)
        crop = np.array([y0 / h, x0 / w, (y0 + ch) / h, (x0 + cw) / w])
        for box in boxes:
            lt, rb = np.maximum(crop[:2], box[:2]), np.minimum(crop[2:], box[2:])
            inter = np.prod(np.clip(rb - lt, 0, None))
            if inter / max(np.prod(box[2:] - box[:2]), 1e-12) >= covered:
                return (tensor(np.array([y0, x0, 0], np.int32)),
                        tensor(np.array([ch, cw, -1], np.int32)),
                        tensor(crop.reshape(1, 1, 4).astype(np.float32)))
    return (tensor(np.zeros(3, np.int32)), tensor(np.array([h, w, -1], np.int32)),
            tensor(np.array([[[0, 0, 1, 1]]], np.float32)))


__all__ = table(globals(), [
    # pooling
    op("AdaptiveAvgPool2D", "output_size", lambda self, x: F.adaptive_avg_pool2d(
        x, self.output_size)),
    op("AdaptiveAvgPool3D", "output_size", lambda self, x: F.adaptive_avg_pool3d(
        x, self.output_size)),
    op("AdaptiveMaxPool2D", "output_size", lambda self, x: F.adaptive_max_pool2d(
        x, self.output_size, True), eager=True),
    op("AdaptiveMaxPool3D", "", _adaptive_max3d, eager=True),
    op("AvgPool3D", "kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, "
       "count_include_pad=True, divisor_override=0, data_format='NCDHW'", _avg_pool3d),
    op("MaxPool3D", "kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None, "
       "data_format='NCDHW'", _max_pool3d),
    op("MaxPool3DWithArgmax", "ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, "
       "data_format='NCDHW', argmax_type=np.int64", _max_pool3d_argmax),
    op("MaxPoolWithArgmax", "kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'",
       _max_pool_argmax),
    op("MaxPoolWithArgmaxV2", "kernel_size, strides=None, pads=0, dilation=(1, 1), "
       "ceil_mode=False, argmax_type=np.int64", _max_pool_argmax_v2),
    op("MaxUnpool2D", "ksize, strides=0, pads=0, output_shape=(), data_format='NCHW'",
       _max_unpool(2)),
    op("MaxUnpool3D", "ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW'",
       _max_unpool(3)),
    op("FractionalMaxPool", "pooling_ratio, pseudo_random=False, overlapping=False, "
       "deterministic=False, seed=0, seed2=0", _fractional("max"), eager=True),
    op("FractionalAvgPool", "pooling_ratio, pseudo_random=False, overlapping=False, "
       "deterministic=False, seed=0, seed2=0", _fractional("avg"), eager=True),
    op("FractionalMaxPoolWithFixedKsize", "ksize, output_shape, data_format='NCHW'",
       _fractional_fixed(2), eager=True),
    op("FractionalMaxPool3DWithFixedKsize", "ksize, output_shape, data_format='NCDHW'",
       _fractional_fixed(3), eager=True),
    op("LRN", "depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS'",
       lambda self, x: F.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta,
                             self.norm_region)),
    # convolution
    op("Conv2DBackpropInput", "out_channel, kernel_size, pad_mode='valid', pad=0, "
       "pad_list=None, mode=1, stride=1, dilation=1, group=1, data_format='NCHW'",
       _conv2d_backprop_input),
    op("Conv2DTranspose", "out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None, "
       "mode=1, stride=1, dilation=1, group=1, data_format='NCHW'", _conv2d_backprop_input),
    op("Conv3D", "out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, "
       "dilation=1, group=1, data_format='NCDHW'", _conv3d),
    op("Conv3DTranspose", "in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', "
       "pad=0, stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW'",
       _conv3d_transpose),
    op("DepthwiseConv2dNative", "channel_multiplier, kernel_size, mode=3, pad_mode='valid', "
       "pad=0, stride=1, dilation=1, group=1", _depthwise),
    op("DeformableOffsets", "strides, pads, ksize, dilations=(1, 1, 1, 1), "
       "data_format='NCHW', deformable_groups=1, modulated=True", _deformable_offsets),
    op("Dilation2D", "stride, dilation, pad_mode='SAME', data_format='NCHW'", _dilation2d),
    same("Dense", F.dense),
    # activations and normalisation
    op("CeLU", "alpha=1.0", lambda self, x: F.celu(x, self.alpha)),
    op("Gelu", "", lambda self, x, approximate="none": F.gelu(x, approximate)),
    same("FastGeLU", F.fast_gelu), same("FastGelu", F.fast_gelu),
    op("GLU", "axis=-1", lambda self, x: F.glu(x, self.axis)),
    op("HShrink", "lambd=0.5", lambda self, x: F.hardshrink(x, self.lambd)),
    same("HSigmoid", F.hardsigmoid), same("HSwish", F.hardswish), same("Mish", F.mish),
    same("PReLU", F.prelu), same("SeLU", F.selu),
    op("SoftShrink", "lambd=0.5", lambda self, x: F.softshrink(x, self.lambd)),
    same("Softplus", lambda x: sx.ops.softplus(tensor(x))), same("Softsign", F.softsign),
    op("LogSoftmaxExt", "", lambda self, x, dim=None, dtype=None: F.log_softmax(
        x if dtype is None else ops.cast(tensor(x), to_numpy(dtype)), -1 if dim is None else dim)),
    op("L2Normalize", "axis=0, epsilon=1e-4", _l2_normalize),
    op("RmsNorm", "epsilon=1e-6", _rms_norm),
    op("Dropout2D", "keep_prob=0.5", _dropout_nd(2)),
    op("Dropout3D", "keep_prob=0.5", _dropout_nd(3)),
    op("DropoutGenMask", "Seed0=0, Seed1=0", _dropout_gen_mask),
    same("DropoutDoMask", eager_only("ops.DropoutDoMask", ("input_x",))(_dropout_do_mask)),
    op("ChannelShuffle", "group", lambda self, x: F.channel_shuffle(x, self.group)),
    # losses
    same("L2Loss", lambda x: F.sum(ops.square(tensor(x))) / 2),
    op("KLDivLoss", "reduction='mean'", lambda self, x, y: F.kl_div(x, y, self.reduction)),
    op("MultiMarginLoss", "p=1, margin=1.0, reduction='mean'", lambda self, x, t, w=None:
       F.multi_margin_loss(x, t, self.p, self.margin, w, self.reduction)),
    op("MultilabelMarginLoss", "reduction='mean'", _multilabel_margin),
    op("SoftMarginLoss", "reduction='mean'", lambda self, x, y: F.soft_margin_loss(
        x, y, self.reduction)),
    same("SigmoidCrossEntropyWithLogits", _sigmoid_ce),
    op("TripletMarginLoss", "p=2, swap=False, eps=1e-6, reduction='mean'", _triplet),
    op("CTCLoss", "preprocess_collapse_repeated=False, ctc_merge_repeated=True, "
       "ignore_longer_outputs_than_inputs=False", _ctc_loss),
    op("CTCLossV2", "blank=0, reduction='none', zero_infinity=False", _ctc_loss_v2),
    op("CTCGreedyDecoder", "merge_repeated=True", _ctc_greedy, eager=True),
    op("RNNTLoss", "blank_label=0", lambda self, acts, labels, il, ll: _rnnt(
        acts, labels, il, ll, self.blank_label), eager=True),
    # image and boxes
    op("ResizeArea", "align_corners=False", _resize("area")),
    op("ResizeBicubic", "align_corners=False, half_pixel_centers=False", _resize("bicubic")),
    op("ResizeBilinearV2", "align_corners=False, half_pixel_centers=False",
       _resize("bilinear")),
    op("ResizeNearestNeighborV2", "align_corners=False, half_pixel_centers=False",
       _resize("nearest")),
    op("ResizeNearestNeighbor", "size, align_corners=False", _resize_nearest_v1),
    op("ResizeLinear1D", "coordinate_transformation_mode='align_corners'", _resize_linear1d),
    op("UpsampleNearest3D", "", _upsample3d("nearest")),
    op("UpsampleTrilinear3D", "align_corners=False", _upsample3d("trilinear")),
    op("CropAndResize", "method='bilinear', extrapolation_value=0.0", _crop_and_resize),
    op("GridSampler2D", "interpolation_mode='bilinear', padding_mode='zeros', "
       "align_corners=False", _grid_sampler),
    op("GridSampler3D", "interpolation_mode='bilinear', padding_mode='zeros', "
       "align_corners=False", _grid_sampler),
    same("RGBToHSV", _rgb_to_hsv), same("HSVToRGB", _hsv_to_rgb),
    same("AdjustHue", _adjust_hue), same("AdjustSaturation", _adjust_saturation),
    op("BoundingBoxDecode", "max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), "
       "wh_ratio_clip=0.016", _bbox_decode),
    op("BoundingBoxEncode", "means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)",
       lambda self, a, g: F.bounding_box_encode(a, g, tuple(self.means), tuple(self.stds))),
    same("CheckValid", F.check_valid),
    op("IOU", "mode='iou'", lambda self, a, g: F.iou(a, g, self.mode)),
    op("NMSWithMask", "iou_threshold=0.5", lambda self, b: _nms_with_mask(
        b, self.iou_threshold), eager=True),
    same("NonMaxSuppressionV3", _nms_v3),
    same("NonMaxSuppressionWithOverlaps", _nms_overlaps),
    op("CombinedNonMaxSuppression", "pad_per_class=False, clip_boxes=True",
       lambda self, *inputs: _combined_nms(*inputs, self.pad_per_class, self.clip_boxes),
       eager=True),
    op("ROIAlign", "pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1",
       _roi_align),
    op("ExtractGlimpse", "centered=True, normalized=True, uniform_noise=True, noise='uniform'",
       _extract_glimpse, eager=True),
    op("ScaleAndTranslate", "kernel_type='lanczos3', antialias=True", _scale_and_translate),
    op("SampleDistortedBoundingBoxV2", "seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), "
       "area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False",
       _sample_distorted, eager=True),
])
