"""Neural-network, loss and activation primitive classes (MindSpore r2.3): thin adapters over
the facade's functions (``ms.ops.functional_array``) and sx ops."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from ..functional_array import activation as act
from ..functional_array import loss as losses
from ..functional_array import nn as fnn
from ..functional_array._common import tensor
from ..functional_array.image import pad as _flat_pad
from ..functional_array.pooling import _avg_pool, _max_pool
from ._args import check, ops
from .base import primitive

__all__ = ["AvgPool", "MaxPool", "Conv2D", "BatchNorm", "BiasAdd", "Dropout", "Flatten",
           "LayerNorm", "Pad", "BCEWithLogitsLoss", "BinaryCrossEntropy", "NLLLoss",
           "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
           "SparseSoftmaxCrossEntropyWithLogits", "Elu", "GeLU", "LogSoftmax", "ReLU", "ReLU6",
           "Sigmoid", "Softmax", "Tanh"]


def _no_attrs():
    pass


def _pair(v, op):
    """MindSpore's kernel/stride: an int, (h, w) or (1, 1, h, w)."""
    if isinstance(v, int):
        return (v, v)
    v = tuple(int(i) for i in v)
    if len(v) == 4:
        return v[2:]
    check(len(v) == 2, op, "size", "an int, 2 or 4 ints", v)
    return v


def _pool_init(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    check(str(pad_mode).lower() in ("valid", "same"), "AvgPool", "pad_mode",
          "'valid' or 'same'", pad_mode)
    check(data_format == "NCHW", "AvgPool", "data_format", "'NCHW'", data_format)


def _same_padding(x, k, s):
    pads = []
    for n, kk, ss in zip(x.shape[2:], k, s):
        total = max((-(-n // ss) - 1) * ss + kk - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _pool_call(kind):
    def call(self, x):
        x = tensor(x)
        k, s = _pair(self.kernel_size, self.name), _pair(self.strides, self.name)
        if str(self.pad_mode).lower() == "valid":
            if kind == "max":
                return _max_pool("ops.MaxPool", x, 2, k, s, 0, 1, False, False)
            return _avg_pool("ops.AvgPool", x, 2, k, s, 0, False, True)
        pads = _same_padding(x, k, s)
        flat = [v for pair in reversed(pads) for v in pair]
        if kind == "max":
            low = float(np.finfo(x.dtype).min) if x.dtype.kind == "f" else \
                int(np.iinfo(x.dtype).min)
            return _max_pool("ops.MaxPool", _flat_pad(x, flat, value=low), 2, k, s, 0, 1,
                             False, False)
        # 'same' averages only the real inputs (padding does not count)
        total = _avg_pool("ops.AvgPool", _flat_pad(x, flat), 2, k, s, 0, False, True, 1)
        ones = sx.Tensor(np.ones((1, 1) + tuple(x.shape[2:]), x.dtype))
        count = _avg_pool("ops.AvgPool", _flat_pad(ones, flat), 2, k, s, 0, False, True, 1)
        return total / count
    return call


AvgPool = primitive("AvgPool", _pool_init, _pool_call("avg"),
                    "2-d average pooling: ``ops.AvgPool(kernel_size=1, strides=1, "
                    "pad_mode='valid')(x)``; 'same' pads like TensorFlow and averages only "
                    "the real inputs.")
MaxPool = primitive("MaxPool", _pool_init, _pool_call("max"),
                    "2-d max pooling: ``ops.MaxPool(kernel_size=1, strides=1, "
                    "pad_mode='valid')(x)``.")


def _conv_init(out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
               dilation=1, group=1, data_format="NCHW"):
    check(isinstance(out_channel, int) and out_channel > 0, "Conv2D", "out_channel",
          "a positive int", out_channel)
    check(data_format == "NCHW", "Conv2D", "data_format", "'NCHW'", data_format)


def _conv_call(self, x, weight):
    return fnn.conv2d(x, weight, None, _pair(self.stride, "Conv2D"), self.pad_mode, self.pad,
                      _pair(self.dilation, "Conv2D"), self.group)


Conv2D = primitive("Conv2D", _conv_init, _conv_call,
                   "2-d convolution: ``ops.Conv2D(out_channel, kernel_size, pad_mode='valid', "
                   "pad=0, stride=1, dilation=1, group=1)(x, weight)``.")


def _bn_init(is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
    check(0 <= momentum <= 1, "BatchNorm", "momentum", "0 <= momentum <= 1", momentum)


def _bn_call(self, input_x, scale, bias, mean, variance):
    x = tensor(input_x)
    if not self.is_training:
        y = ops.batch_norm(x, tensor(mean), tensor(variance), tensor(scale), tensor(bias),
                           training=False, eps=self.epsilon)
        return y, mean, variance, mean, variance
    axes = (0,) + tuple(range(2, x.ndim))
    batch_mean = ops.mean(x, axis=axes)
    batch_var = ops.var(x, axis=axes)
    y = fnn.batch_norm(x, mean, variance, scale, bias, True, self.momentum, self.epsilon)
    return y, batch_mean, batch_var, batch_mean, ops.rsqrt(batch_var + self.epsilon)


BatchNorm = primitive("BatchNorm", _bn_init, _bn_call,
                      "Batch normalisation: ``ops.BatchNorm(is_training=False, epsilon=1e-5, "
                      "momentum=0.1)(x, scale, bias, mean, variance)`` returns ``(y, "
                      "batch_mean, batch_variance, reserve_1, reserve_2)``; training updates "
                      "the ``mean``/``variance`` Parameters in place.")


def _bias_add_init(data_format="NCHW"):
    check(data_format in ("NCHW", "NHWC", "NCDHW"), "BiasAdd", "data_format",
          "'NCHW', 'NHWC' or 'NCDHW'", data_format)


BiasAdd = primitive("BiasAdd", _bias_add_init,
                    lambda self, x, b: fnn.bias_add(x, b, self.data_format),
                    "x + bias along the channel axis: ``ops.BiasAdd()(x, bias)``.")


def _dropout_init(keep_prob=0.5, Seed0=0, Seed1=0):  # noqa: N803  (MindSpore's names)
    check(0 < keep_prob <= 1, "Dropout", "keep_prob", "0 < keep_prob <= 1", keep_prob)


def _dropout_call(self, x):
    x = tensor(x)
    mask = ops.bernoulli(float(self.keep_prob), shape=tuple(x.shape), dtype=x.dtype)
    return x * mask / float(self.keep_prob), mask


Dropout = primitive("Dropout", _dropout_init, _dropout_call,
                    "``(output, mask)``: elements kept with probability ``keep_prob`` (scaled "
                    "by 1 / keep_prob): ``ops.Dropout(keep_prob=0.5)(x)``. Note: the argument "
                    "is the KEEP probability.")
Flatten = primitive("Flatten", _no_attrs, lambda self, x: fnn.flatten(x),
                    "(N, ...) -> (N, -1): ``ops.Flatten()(x)``.")


def _ln_init(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    check(isinstance(begin_norm_axis, int), "LayerNorm", "begin_norm_axis", "an int",
          begin_norm_axis)


def _ln_call(self, input_x, gamma, beta):
    x = tensor(input_x)
    start = self.begin_norm_axis % x.ndim
    axes = tuple(range(start, x.ndim))
    mean = ops.mean(x, axis=axes, keepdims=True)
    var = ops.mean(ops.square(x - mean), axis=axes, keepdims=True)
    y = (x - mean) * ops.rsqrt(var + float(self.epsilon))
    return y * tensor(gamma) + tensor(beta), mean, var


LayerNorm = primitive("LayerNorm", _ln_init, _ln_call,
                      "``(y, mean, variance)`` normalising from ``begin_norm_axis``: "
                      "``ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, "
                      "epsilon=1e-7)(x, gamma, beta)``.")


def _pad_init(paddings):
    check(all(len(p) == 2 for p in paddings), "Pad", "paddings",
          "a (before, after) pair per axis", paddings)


Pad = primitive("Pad", _pad_init,
                lambda self, x: ops.pad(tensor(x), [tuple(int(v) for v in p)
                                                    for p in self.paddings]),
                "Zero padding with one (before, after) pair per axis, first axis first: "
                "``ops.Pad(((0, 0), (1, 2)))(x)``. Note: the functional ``ops.pad`` takes "
                "flat widths from the last axis instead.")


def _reduction_init(reduction="mean"):
    check(reduction in ("mean", "sum", "none"), "loss", "reduction",
          "'none', 'mean' or 'sum'", reduction)


BCEWithLogitsLoss = primitive(
    "BCEWithLogitsLoss", _reduction_init,
    lambda self, logits, label, weight=None, pos_weight=None:
        losses.binary_cross_entropy_with_logits(logits, label, weight, pos_weight,
                                                self.reduction),
    "``ops.BCEWithLogitsLoss(reduction='mean')(logits, label, weight, pos_weight)``.")
BinaryCrossEntropy = primitive(
    "BinaryCrossEntropy", _reduction_init,
    lambda self, logits, labels, weight=None:
        losses.binary_cross_entropy(logits, labels, weight, self.reduction),
    "``ops.BinaryCrossEntropy(reduction='mean')(probabilities, labels, weight)``.")


def _nll_init(reduction="mean", ignore_index=-100):
    _reduction_init(reduction)


def _nll_call(self, logits, labels, weight=None):
    x = tensor(logits)
    t = ops.cast(tensor(labels), np.int64)
    w = tensor(weight) if weight is not None else sx.Tensor(np.ones(x.shape[1], x.dtype))
    loss = losses.nll_loss(x, t, w, self.ignore_index, self.reduction)
    keep = ops.cast(ops.not_equal(t, self.ignore_index), x.dtype)
    safe = ops.where(ops.equal(t, self.ignore_index), ops.mul(t, 0), t)
    total_weight = ops.sum(ops.gather(w, safe, 0) * keep)
    return loss, total_weight


NLLLoss = primitive("NLLLoss", _nll_init, _nll_call,
                    "``(loss, total_weight)``: ``ops.NLLLoss(reduction='mean', "
                    "ignore_index=-100)(log_probs, labels, weight)``.")


def _smooth_init(beta=1.0, reduction="none"):
    check(beta > 0, "SmoothL1Loss", "beta", "beta > 0", beta)
    _reduction_init(reduction)


SmoothL1Loss = primitive("SmoothL1Loss", _smooth_init,
                         lambda self, logits, labels: losses.smooth_l1_loss(
                             logits, labels, self.beta, self.reduction),
                         "``ops.SmoothL1Loss(beta=1.0, reduction='none')(logits, labels)``.")


def _softmax_ce(self, logits, labels):
    x, y = tensor(logits), tensor(labels)
    logp = ops.log_softmax(x, axis=-1)
    loss = ops.neg(ops.sum(logp * y, axis=-1))
    return loss, ops.exp(logp) - y


SoftmaxCrossEntropyWithLogits = primitive(
    "SoftmaxCrossEntropyWithLogits", _no_attrs, _softmax_ce,
    "``(loss, dlogits)`` per row for one-hot (or probability) ``labels``: "
    "``ops.SoftmaxCrossEntropyWithLogits()(logits, labels)``.")


def _sparse_ce_init(is_grad=False):
    check(isinstance(is_grad, bool), "SparseSoftmaxCrossEntropyWithLogits", "is_grad", "a bool",
          is_grad)


def _sparse_ce(self, logits, labels):
    x = tensor(logits)
    t = ops.cast(tensor(labels), np.int64)
    if not self.is_grad:
        return ops.cross_entropy(x, t)
    hot = ops.one_hot(t, x.shape[-1], dtype=x.dtype)
    return (ops.softmax(x, axis=-1) - hot) / float(x.shape[0])


SparseSoftmaxCrossEntropyWithLogits = primitive(
    "SparseSoftmaxCrossEntropyWithLogits", _sparse_ce_init, _sparse_ce,
    "The mean cross-entropy of logits and class indices (``is_grad=True``: its gradient "
    "w.r.t. the logits): ``ops.SparseSoftmaxCrossEntropyWithLogits()(logits, labels)``.")


def _axis_init(axis=-1):
    check(isinstance(axis, (int, tuple, list)), "Softmax", "axis", "an int", axis)


def _one_axis(axis):
    return axis[0] if isinstance(axis, (tuple, list)) else axis


Softmax = primitive("Softmax", _axis_init,
                    lambda self, x: act.softmax(x, _one_axis(self.axis)),
                    "``ops.Softmax(axis=-1)(x)``.")
LogSoftmax = primitive("LogSoftmax", _axis_init,
                       lambda self, x: act.log_softmax(x, _one_axis(self.axis)),
                       "``ops.LogSoftmax(axis=-1)(x)``.")


def _elu_init(alpha=1.0):
    check(alpha == 1.0, "Elu", "alpha", "1.0 (MindSpore's Elu primitive only supports 1.0)",
          alpha)


Elu = primitive("Elu", _elu_init, lambda self, x: act.elu(x, self.alpha),
                "``ops.Elu(alpha=1.0)(x)``.")
GeLU = primitive("GeLU", _no_attrs, lambda self, x: act.gelu(x),
                 "Gaussian error linear unit: ``ops.GeLU()(x)``.")
ReLU = primitive("ReLU", _no_attrs, lambda self, x: act.relu(x), "``ops.ReLU()(x)``.")
ReLU6 = primitive("ReLU6", _no_attrs, lambda self, x: act.relu6(x), "``ops.ReLU6()(x)``.")
Sigmoid = primitive("Sigmoid", _no_attrs, lambda self, x: act.sigmoid(x),
                    "``ops.Sigmoid()(x)``.")
Tanh = primitive("Tanh", _no_attrs, lambda self, x: act.tanh(x), "``ops.Tanh()(x)``.")
