"""Attention and mixture-of-experts functions of 2.10's ``mindspore.ops`` that MindSpore runs
as Ascend kernels, written out from their documented formulas with sx ops (any device,
Graph mode, gradients): ``flash_attention_score`` (the plain attention it computes
block-wise), ``ring_attention_update`` (merging two partial attentions by their softmax
statistics), ``moe_token_permute`` and ``moe_token_unpermute`` (grouping tokens by expert
and back)."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, float_like, ops, tensor

__all__ = ["flash_attention_score", "ring_attention_update", "moe_token_permute",
           "moe_token_unpermute"]

_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND")


def _to_bnsd(x, layout, heads):
    """A query/key/value tensor of ``layout`` as (B, N, S, D)."""
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return ops.transpose(x, (0, 2, 1, 3))
    if layout == "SBH":
        x = ops.transpose(x, (1, 0, 2))
    b, s, h = x.shape
    if h % heads:
        raise SporelingError("the hidden size is not a multiple of the heads",
                             op="ops.flash_attention_score", expected=f"H divisible by {heads}",
                             got=f"H = {h}")
    return ops.transpose(ops.reshape(x, (b, s, heads, h // heads)), (0, 2, 1, 3))


def _from_bnsd(x, layout):
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return ops.transpose(x, (0, 2, 1, 3))
    b, n, s, d = x.shape
    out = ops.reshape(ops.transpose(x, (0, 2, 1, 3)), (b, s, n * d))
    return ops.transpose(out, (1, 0, 2)) if layout == "SBH" else out


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
                          actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0,
                          pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """``softmax(mask(scalar_value * q k^T + real_shift, attn_mask)) v`` per head, in the
    layout ``input_layout`` (BSH, BNSD, SBH, BSND); key/value may have fewer heads (a
    divisor of ``head_num``, shared by groups of query heads). ``attn_mask`` is True (1)
    where a query must not attend; ``pre_tokens``/``next_tokens`` keep the band
    ``-pre_tokens <= j - i <= next_tokens``; ``drop_mask`` (1 keeps) with ``keep_prob``
    drops attention weights. ``sparse_mode`` 0 and the padded layouts only (TND's
    ``actual_seq_*`` and ``prefix`` are refused)."""
    op = "ops.flash_attention_score"
    if input_layout not in _LAYOUTS:
        raise SporelingError("unsupported layout", op=op, expected=" / ".join(_LAYOUTS),
                             got=repr(input_layout))
    if sparse_mode != 0 or prefix is not None or actual_seq_qlen is not None or \
            actual_seq_kvlen is not None or padding_mask is not None:
        raise SporelingError("only sparse_mode 0 without prefix/actual_seq/padding_mask",
                             op=op, expected="sparse_mode=0 and those None",
                             got=f"sparse_mode={sparse_mode}")
    q = _to_bnsd(float_like(query), input_layout, int(head_num))
    kv_heads = int(head_num) * tensor(key).shape[-1] // tensor(query).shape[-1] \
        if input_layout in ("BSH", "SBH") else None
    k = _to_bnsd(tensor(key), input_layout, kv_heads or 1)
    v = _to_bnsd(tensor(value), input_layout, kv_heads or 1)
    if k.shape[1] != q.shape[1]:
        if q.shape[1] % k.shape[1]:
            raise SporelingError("key/value heads must divide the query heads", op=op,
                                 expected=f"a divisor of {q.shape[1]}", got=k.shape[1])
        group = q.shape[1] // k.shape[1]
        k, v = ops.repeat(k, group, axis=1), ops.repeat(v, group, axis=1)
    scores = ops.mul(ops.matmul(q, ops.swap_last_axes(k)), float(scalar_value))
    if real_shift is not None:
        scores = ops.add(scores, tensor(real_shift))
    s1, s2 = scores.shape[-2:]
    i, j = np.ogrid[:s1, :s2]
    blocked = ((j - i) > next_tokens) | ((i - j) > pre_tokens)
    masked = tensor(blocked)
    if attn_mask is not None:
        masked = ops.logical_or(masked, ops.cast(tensor(attn_mask), np.bool_))
    lowest = np.asarray(np.finfo(np.dtype(scores.dtype)).min, np.dtype(scores.dtype))
    scores = ops.where(masked, lowest, scores)
    weights = ops.softmax(scores, axis=-1)
    weights = ops.where(masked, ops.mul(weights, 0.0), weights)  # a fully masked row: zeros
    if drop_mask is not None and keep_prob < 1.0:
        weights = ops.div(ops.mul(weights, ops.cast(tensor(drop_mask), weights.dtype)),
                          float(keep_prob))
    return _from_bnsd(ops.matmul(weights, ops.cast(v, weights.dtype)), input_layout)


def ring_attention_update(prev_attn_out, prev_softmax_max, prev_softmax_sum, cur_attn_out,
                          cur_softmax_max, cur_softmax_sum, actual_seq_qlen=None, layout="SBH"):
    """Two attention outputs over disjoint key blocks merged into the attention over both:
    with ``m = max(m1, m2)``, ``s = s1 exp(m1 - m) + s2 exp(m2 - m)`` and
    ``out = (out1 s1 exp(m1 - m) + out2 s2 exp(m2 - m)) / s``; ``(out, m, s)``. Layout
    ``"SBH"`` (outputs (S, B, H), statistics (B, N, S, 8)) or ``"TND"`` ((T, N, D) and
    (T, N, 8)); the 8 entries of a statistic are equal."""
    if layout not in ("SBH", "TND"):
        raise SporelingError("unsupported layout", op="ops.ring_attention_update",
                             expected="'SBH' or 'TND'", got=repr(layout))
    m1, s1, m2, s2 = (tensor(v) for v in (prev_softmax_max, prev_softmax_sum,
                                          cur_softmax_max, cur_softmax_sum))
    m = ops.maximum(m1, m2)
    w1, w2 = ops.mul(s1, ops.exp(ops.sub(m1, m))), ops.mul(s2, ops.exp(ops.sub(m2, m)))
    total = ops.add(w1, w2)
    out1, out2 = float_like(prev_attn_out), float_like(cur_attn_out)

    def per_row(w):  # the statistic as a factor of the outputs' rows, per head
        w = ops.getitem(ops.div(w, total), (Ellipsis, slice(0, 1)))
        return w if layout == "TND" else ops.transpose(w, (2, 0, 1, 3))

    shape = tuple(out1.shape)
    if layout == "SBH":
        heads = m1.shape[1]
        out1 = ops.reshape(out1, shape[:2] + (heads, shape[2] // heads))
        out2 = ops.reshape(out2, shape[:2] + (heads, shape[2] // heads))
    out = ops.add(ops.mul(out1, ops.cast(per_row(w1), out1.dtype)),
                  ops.mul(out2, ops.cast(per_row(w2), out1.dtype)))
    return ops.reshape(out, shape), m, total


def _ints(x):
    return ops.cast(tensor(x), np.int64)


def moe_token_permute(tokens, indices, num_out_tokens=None, padded_mode=False):
    """Tokens grouped by expert: the token of each (token, choice) pair ordered by its
    expert index (stably), so ``permuted[sorted_indices[i]] = tokens[i // topk]``;
    ``(permuted_tokens, sorted_indices int32)``; ``num_out_tokens`` keeps the first rows."""
    op = "ops.moe_token_permute"
    if padded_mode:
        raise SporelingError("padded_mode is not supported", op=op, expected="False",
                             got="True")
    x, idx = tensor(tokens), _ints(indices)
    if x.ndim != 2 or idx.ndim not in (1, 2) or idx.shape[0] != x.shape[0]:
        raise SporelingError("needs tokens (n, hidden) and indices (n,) or (n, topk)", op=op,
                             expected="matching first axes",
                             got=f"tokens {list(x.shape)}, indices {list(idx.shape)}")
    topk = 1 if idx.ndim == 1 else idx.shape[1]
    flat = ops.reshape(idx, (-1,))
    n = flat.shape[0]
    order = ops.argsort(ops.add(ops.mul(flat, n), tensor(np.arange(n, dtype=np.int64))))
    sorted_indices = ops.argsort(order)
    permuted = ops.gather(x, ops.floordiv(order, topk), axis=0)
    if num_out_tokens is not None:
        permuted = ops.getitem(permuted, slice(0, int(num_out_tokens)))
    return permuted, ops.cast(sorted_indices, np.int32)


def moe_token_unpermute(permuted_tokens, sorted_indices, probs=None, padded_mode=False,
                        restore_shape=None):
    """The inverse of :func:`moe_token_permute`: each token's ``topk`` rows (dropped rows:
    zeros) weighted by ``probs`` (n, topk) and summed: ``(n, hidden)``."""
    op = "ops.moe_token_unpermute"
    if padded_mode:
        raise SporelingError("padded_mode is not supported", op=op, expected="False",
                             got="True")
    rows, idx = tensor(permuted_tokens), _ints(sorted_indices)
    topk = 1 if probs is None else tensor(probs).shape[-1]
    n, hidden = idx.shape[0] // topk, rows.shape[1]
    padded = ops.concat([rows, ops.mul(ops.getitem(rows, slice(0, 1)), 0.0)], axis=0)
    idx = ops.where(ops.less(idx, rows.shape[0]), idx, rows.shape[0])
    picked = ops.reshape(ops.gather(padded, idx, axis=0), (n, topk, hidden))
    if probs is not None:
        picked = ops.mul(picked, ops.expand_dims(ops.cast(tensor(probs), picked.dtype), 2))
    return ops.sum(picked, axis=1)

