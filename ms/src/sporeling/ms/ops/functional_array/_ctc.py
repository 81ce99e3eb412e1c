"""The CTC forward recursion (alpha, in log space) unrolled over time with sx ops."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from ._common import SporelingError, float_like, full_like, ops, reduce_loss, tensor, value_of

_NEG = -1e30  # log(0) kept finite: max/exp stay NaN-free and differentiable


def _lse(*terms):
    m = terms[0]
    for t in terms[1:]:
        m = ops.maximum(m, t)
    m = sx.stop_gradient(m)  # the shift only steadies exp; its gradient cancels
    total = ops.exp(terms[0] - m)
    for t in terms[1:]:
        total = total + ops.exp(t - m)
    return m + ops.log(total)


def ctc_forward(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                zero_infinity):
    lp = float_like(log_probs)
    if lp.ndim != 3:
        raise SporelingError("log_probs must be (T, N, C)", op="ops.ctc_loss",
                             expected="a 3-D tensor", got=f"shape {list(lp.shape)}")
    t_max, n, _ = lp.shape
    tgt = value_of(targets, "ops.ctc_loss", "targets").astype(np.int64).reshape(n, -1)
    in_len = value_of(input_lengths, "ops.ctc_loss", "input_lengths").astype(np.int64).reshape(-1)
    tg_len = value_of(target_lengths, "ops.ctc_loss", "target_lengths").astype(np.int64)
    tg_len = tg_len.reshape(-1)
    if in_len.shape != (n,) or tg_len.shape != (n,) or (in_len > t_max).any() \
            or (tg_len > tgt.shape[1]).any():
        raise SporelingError("bad lengths", op="ops.ctc_loss",
                             expected=f"{n} input lengths <= {t_max} and {n} target lengths "
                                      f"<= {tgt.shape[1]}",
                             got=f"input_lengths={in_len.tolist()}, "
                                 f"target_lengths={tg_len.tolist()}")
    width = 2 * tgt.shape[1] + 1
    ext = np.full((n, width), blank, np.int64)
    ext[:, 1::2] = tgt
    # the skip transition s-2 -> s: a label differing from the label two slots back
    skip = np.zeros((n, width), bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    valid = np.arange(width)[None, :] < (2 * tg_len + 1)[:, None]
    dtype = lp.dtype
    neg_col = tensor(np.full((n, 1), _NEG, dtype))
    neg_two = tensor(np.full((n, 2), _NEG, dtype))
    skip_t = tensor(skip)
    valid_t = tensor(valid)
    ext_t = tensor(ext)
    floor = tensor(np.full((n, width), _NEG, dtype))

    def emissions(t):
        return ops.take_along_axis(ops.getitem(lp, t), ext_t, 1)

    start = np.zeros((n, width), bool)
    start[:, :2] = True
    alpha = ops.where(tensor(start & valid), emissions(0), floor)
    alphas = [alpha]
    for t in range(1, t_max):
        prev1 = ops.concat([neg_col, ops.getitem(alpha, (slice(None), slice(0, width - 1)))], 1)
        prev2 = ops.concat([neg_two, ops.getitem(alpha, (slice(None), slice(0, width - 2)))], 1)
        prev2 = ops.where(skip_t, prev2, floor)
        new = _lse(alpha, prev1, prev2) + emissions(t)
        new = ops.where(valid_t, ops.maximum(new, _NEG), floor)
        alpha = ops.where(tensor((t < in_len)[:, None]), new, alpha)
        alphas.append(alpha)
    last = 2 * tg_len  # the final blank; the final label sits before it
    ends = tensor(np.stack([last, np.maximum(last - 1, 0)], 1))
    pair = ops.take_along_axis(alpha, ends, 1)
    pair = ops.where(tensor(np.stack([np.ones(n, bool), tg_len > 0], 1)), pair,
                     tensor(np.full((n, 2), _NEG, dtype)))
    loss = ops.neg(_lse(ops.getitem(pair, (slice(None), 0)), ops.getitem(pair, (slice(None), 1))))
    if zero_infinity:
        loss = ops.where(loss > 1e29, full_like(loss, 0.0), loss)
    log_alpha = ops.stack(alphas, 1)
    log_alpha = ops.where(log_alpha <= _NEG / 2, tensor(np.asarray(-np.inf, dtype)), log_alpha)
    if reduction == "mean":
        loss = ops.mean(loss / tensor(np.maximum(tg_len, 1).astype(dtype)))
    else:
        loss = reduce_loss(loss, reduction, "ops.ctc_loss")
    return loss, log_alpha
