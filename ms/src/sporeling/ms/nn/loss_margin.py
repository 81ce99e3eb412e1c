"""Loss cells of ``ms.nn`` (part 2: margin, ranking, sequence and sampled losses)."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import LossBase

ops = sx.ops

__all__ = ["CTCLoss", "MarginRankingLoss", "MultilabelMarginLoss", "MultiLabelSoftMarginLoss",
           "MultiMarginLoss", "SampledSoftmaxLoss", "TripletMarginLoss"]

_NEG = -1e30  # "log 0" that keeps gradients finite (a true -inf makes 0 * inf = nan)


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = float(margin)

    def construct(self, input1, input2, target):
        diff = ops.sub(input1, input2)
        return self.get_loss(ops.maximum(ops.add(ops.neg(ops.mul(target, diff)), self.margin),
                                         0.0))


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss of x (N, C) and class indices (N,):
    ``sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C``."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        if p not in (1, 2):
            raise ValueError(f"MultiMarginLoss: p must be 1 or 2, got {p}")
        self.p, self.margin, self.weight = int(p), float(margin), weight

    def construct(self, x, target, weight=None):
        weight = weight if weight is not None else self.weight
        if len(x.shape) != 2:
            raise ShapeError("x must be 2-d", op="MultiMarginLoss", expected="(N, C)",
                             got=tuple(x.shape))
        classes = x.shape[1]
        target = ops.cast(target, "int64")
        x_y = ops.take_along_axis(x, ops.expand_dims(target, 1), 1)          # (N, 1)
        hinge = ops.maximum(ops.add(ops.sub(x, x_y), self.margin), 0.0)
        if self.p == 2:
            hinge = ops.square(hinge)
        not_y = ops.sub(1.0, ops.one_hot(target, classes, x.dtype))
        hinge = ops.mul(hinge, not_y)
        if weight is not None:
            hinge = ops.mul(hinge, ops.expand_dims(ops.gather(weight, target, 0), 1))
        return self.get_loss(ops.div(ops.sum(hinge, 1), float(classes)))


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss: ``target`` (N, C) lists each sample's classes, ended by -1;
    ``sum_{j in targets, i not in targets} max(0, 1 - (x[j] - x[i])) / C``."""

    def construct(self, x, target):
        _check_2d("MultilabelMarginLoss", x, target)
        classes = x.shape[1]
        target = ops.cast(target, "int64")
        negative = ops.cast(ops.less(target, 0), "int64")
        valid = ops.cast(ops.equal(ops.cumsum(negative, 1), 0), x.dtype)          # (N, J)
        safe = ops.maximum(target, 0)
        is_target = ops.sum(ops.mul(ops.one_hot(safe, classes, x.dtype),
                                    ops.expand_dims(valid, 2)), 1)               # (N, C)
        is_target = ops.minimum(is_target, 1.0)
        x_t = ops.take_along_axis(x, safe, 1)                                  # (N, J)
        hinge = ops.maximum(ops.add(ops.sub(ops.expand_dims(x, 1), ops.expand_dims(x_t, 2)),
                                    1.0), 0.0)                                 # (N, J, C)
        mask = ops.mul(ops.expand_dims(valid, 2), ops.expand_dims(ops.sub(1.0, is_target), 1))
        return self.get_loss(ops.div(ops.sum(ops.mul(hinge, mask), (1, 2)), float(classes)))


def _check_2d(owner, x, target):
    if len(x.shape) != 2 or tuple(x.shape) != tuple(target.shape):
        raise ShapeError("x and target must both be (N, C)", op=owner,
                         expected="(N, C) and (N, C)",
                         got=f"{tuple(x.shape)} and {tuple(target.shape)}")


class MultiLabelSoftMarginLoss(LossBase):
    """``-mean_c w_c (y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        _check_2d("MultiLabelSoftMarginLoss", x, target)
        log_sig = ops.neg(ops.softplus(ops.neg(x)))
        log_sig_neg = ops.neg(ops.softplus(x))
        loss = ops.neg(ops.add(ops.mul(target, log_sig),
                               ops.mul(ops.sub(1.0, target), log_sig_neg)))
        if self.weight is not None:
            loss = ops.mul(loss, self.weight)
        return self.get_loss(ops.mean(loss, 1))


class TripletMarginLoss(LossBase):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(u, v) = ||u - v + eps||_p`` over the
    last axis; ``swap`` uses ``min(d(a, n), d(p, n))``. ``construct(x, positive, negative,
    margin=1.0)``."""

    def __init__(self, p=2, swap=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction)
        self.p, self.swap, self.eps = p, bool(swap), float(eps)

    def _dist(self, a, b):
        d = ops.abs(ops.add(ops.sub(a, b), self.eps))
        return ops.pow(ops.sum(ops.pow(d, float(self.p)), -1), 1.0 / self.p)

    def construct(self, x, positive, negative, margin=1.0):
        d_pos = self._dist(x, positive)
        d_neg = self._dist(x, negative)
        if self.swap:
            d_neg = ops.minimum(d_neg, self._dist(positive, negative))
        return self.get_loss(ops.maximum(ops.add(ops.sub(d_pos, d_neg), float(margin)), 0.0))


def _logaddexp(*terms):
    m = terms[0]
    for t in terms[1:]:
        m = ops.maximum(m, t)
    m = sx.stop_gradient(m)
    total = ops.exp(ops.sub(terms[0], m))
    for t in terms[1:]:
        total = ops.add(total, ops.exp(ops.sub(t, m)))
    return ops.add(m, ops.log(total))


def _shift(a, k):
    """Shift (N, L) right by k along L, filling with log 0."""
    fill = ops.add(ops.mul(ops.getitem(a, (slice(None), slice(0, k))), 0.0), _NEG)
    return ops.concat([fill, ops.getitem(a, (slice(None), slice(0, a.shape[1] - k)))], 1)


class CTCLoss(LossBase):
    """Connectionist temporal classification. ``construct(log_probs, targets, input_lengths,
    target_lengths)``: log_probs (T, N, C) log-softmaxed, targets (N, S) padded class indices.
    ``"mean"`` divides each loss by its target length, then averages (PyTorch's rule);
    ``zero_infinity`` turns impossible alignments' infinite loss into 0."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        self.blank, self.zero_infinity = int(blank), bool(zero_infinity)

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        if len(log_probs.shape) != 3 or len(targets.shape) != 2:
            raise ShapeError("wrong input ranks", op="CTCLoss",
                             expected="log_probs (T, N, C) and targets (N, S)",
                             got=f"{tuple(log_probs.shape)} and {tuple(targets.shape)}")
        steps, n, _ = log_probs.shape
        s = targets.shape[1]
        if targets.shape[0] != n:
            raise ShapeError("batch sizes differ", op="CTCLoss",
                             expected=f"targets with N={n} rows (log_probs is (T, N, C))",
                             got=tuple(targets.shape))
        targets = ops.cast(targets, "int64")
        blanks = ops.add(ops.mul(targets, 0), self.blank)
        ext = ops.reshape(ops.stack([blanks, targets], 2), (n, 2 * s))
        ext = ops.concat([ext, ops.getitem(blanks, (slice(None), slice(0, 1)))], 1)  # (N, L)
        width = 2 * s + 1
        prev2 = ops.concat([ops.getitem(ext, (slice(None), slice(0, 2))),
                            ops.getitem(ext, (slice(None), slice(0, width - 2)))], 1)
        skip = ops.logical_and(ops.not_equal(ext, self.blank), ops.not_equal(ext, prev2))
        skip = ops.logical_and(skip, np.arange(width)[None, :] >= 2)
        in_len = ops.cast(input_lengths, "int64")
        start = np.full((1, width), _NEG, np.float32)
        start[0, :2] = 0.0
        alpha = ops.add(ops.take_along_axis(ops.getitem(log_probs, 0), ext, 1),
                        start.astype(np.dtype(log_probs.dtype)))
        for t in range(1, steps):
            lp = ops.take_along_axis(ops.getitem(log_probs, t), ext, 1)
            a2 = ops.where(skip, _shift(alpha, 2), ops.add(ops.mul(alpha, 0.0), _NEG))
            new = ops.add(_logaddexp(alpha, _shift(alpha, 1), a2), lp)
            alpha = ops.where(ops.expand_dims(ops.less(t, in_len), 1), new, alpha)
        tl = ops.cast(target_lengths, "int64")
        # last blank (2 * len) and last label (2 * len - 1; log 0 for an empty target)
        end_blank = ops.take_along_axis(alpha, ops.expand_dims(ops.mul(tl, 2), 1), 1)
        end_label = ops.take_along_axis(
            alpha, ops.expand_dims(ops.maximum(ops.sub(ops.mul(tl, 2), 1), 0), 1), 1)
        end_label = ops.where(ops.expand_dims(ops.greater(tl, 0), 1), end_label,
                              ops.add(ops.mul(end_label, 0.0), _NEG))
        loss = ops.neg(ops.reshape(_logaddexp(end_blank, end_label), (n,)))
        impossible = ops.greater(loss, 1e29)
        loss = ops.where(impossible, 0.0 if self.zero_infinity else float("inf"), loss)
        if self.reduction == "mean":
            return ops.mean(ops.div(loss, ops.cast(ops.maximum(tl, 1), loss.dtype)))
        return self.get_loss(loss)


class SampledSoftmaxLoss(LossBase):
    """Softmax cross entropy over the true classes and ``num_sampled`` sampled ones.
    ``construct(weights (C, dim), biases (C,), labels (N, num_true), logits (N, dim))``.
    Without ``sampled_values`` the classes are drawn uniformly without replacement (each
    class's expected count is ``num_sampled / num_classes``) from the "ops" random stream;
    ``sampled_values`` is ``(sampled, true_expected_count, sampled_expected_count)``."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None,
                 remove_accidental_hits=True, seed=0, reduction="none"):
        super().__init__(reduction)
        if not 0 < num_sampled <= num_classes:
            raise ValueError(f"SampledSoftmaxLoss: num_sampled must be in [1, num_classes], "
                             f"got {num_sampled}")
        self.num_sampled, self.num_classes = int(num_sampled), int(num_classes)
        self.num_true, self.sampled_values = int(num_true), sampled_values
        self.remove_accidental_hits, self.seed = bool(remove_accidental_hits), seed

    def _sample(self, n):
        if self.sampled_values is not None:
            return self.sampled_values
        from sporeling.core import generator
        rng = generator("ops") if not self.seed else np.random.default_rng(self.seed)
        sampled = rng.choice(self.num_classes, self.num_sampled, replace=False).astype(np.int64)
        p = self.num_sampled / self.num_classes
        return (sampled, np.full((n, self.num_true), p, np.float32),
                np.full((self.num_sampled,), p, np.float32))

    def construct(self, weights, biases, labels, logits):
        n = logits.shape[0]
        labels = ops.cast(ops.reshape(labels, (n, self.num_true)), "int64")
        sampled, true_expected, sampled_expected = self._sample(n)
        true_w = ops.gather(weights, labels, 0)                             # (N, T, dim)
        true_logits = ops.add(ops.sum(ops.mul(true_w, ops.expand_dims(logits, 1)), -1),
                              ops.gather(biases, labels, 0))
        true_logits = ops.sub(true_logits, ops.log(true_expected))
        sampled_w = ops.gather(weights, sampled, 0)                         # (S, dim)
        sampled_logits = ops.add(ops.matmul(logits, ops.transpose(sampled_w, (1, 0))),
                                 ops.gather(biases, sampled, 0))
        sampled_logits = ops.sub(sampled_logits, ops.log(sampled_expected))
        if self.remove_accidental_hits:
            hits = ops.equal(ops.expand_dims(labels, 2),
                             ops.reshape(ops.cast(sampled, "int64"), (1, 1, -1)))
            hit = ops.any(hits, 1)
            sampled_logits = ops.where(hit, ops.add(sampled_logits, -3.4e38 / 2),
                                       sampled_logits)
        out = ops.concat([true_logits, sampled_logits], 1)
        target = np.concatenate([np.full((n, self.num_true), 1.0 / self.num_true),
                                 np.zeros((n, self.num_sampled))], 1)
        loss = ops.neg(ops.sum(ops.mul(ops.log_softmax(out, 1),
                                       target.astype(np.dtype(out.dtype))), 1))
        return self.get_loss(loss)
