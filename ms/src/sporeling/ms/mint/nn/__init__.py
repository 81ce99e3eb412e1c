"""``ms.mint.nn``: PyTorch-style layers (MindSpore 2.10's ``mint.nn``) over ``ms.nn``.

Layers whose constructor matches are ``ms.nn``'s classes; the others are ``ms.nn`` classes
with PyTorch's arguments translated (``bias`` for ``has_bias``, ``padding`` numbers for
``pad_mode``), or a few lines over ``mint.nn.functional`` with mint's parameter names
(BatchNorm's ``weight``/``bias``/``running_mean``/``running_var``/``num_batches_tracked``,
GroupNorm's, LayerNorm's, Embedding's and PReLU's ``weight``), so checkpoints match.
"""
from __future__ import annotations

import numpy as _np

from ... import nn as _nn
from ... import ops as _ops
from ...common import dtype as _mstype
from ...common.tensor import Tensor as _Tensor
from sporeling.expression import Parameter as _Parameter
from . import functional  # noqa: F401
from . import functional as F

Cell = _nn.Cell

# ms.nn classes whose constructors take mint's arguments in the same order
_SAME = ("AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool2d BCELoss "
         "CosineEmbeddingLoss Flatten Identity KLDivLoss L1Loss MSELoss MaxUnpool2d Mish "
         "LogSigmoid PixelShuffle ReLU Sigmoid SoftMarginLoss Tanh ConstantPad1d ConstantPad2d "
         "ConstantPad3d ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d "
         "ReplicationPad2d ReplicationPad3d ZeroPad2d Upsample CrossEntropyLoss NLLLoss").split()
for _name in _SAME:
    globals()[_name] = getattr(_nn, _name)

Hardshrink, Hardsigmoid, Hardswish, SELU = _nn.HShrink, _nn.HSigmoid, _nn.HSwish, _nn.SeLU


class _Fn(Cell):
    """A parameterless layer calling ``self._fn(x, *self._args)``."""
    _fn = None

    def __init__(self, *args):
        super().__init__()
        self._args = args

    def construct(self, input):  # noqa: A002
        return type(self)._fn(input, *self._args)


class GELU(_Fn):
    _fn = staticmethod(F.gelu)

    def __init__(self, approximate="none"):
        super().__init__(approximate)


class SiLU(_Fn):
    _fn = staticmethod(F.silu)

    def __init__(self, inplace=False):
        super().__init__(inplace)


class ReLU6(_Fn):
    _fn = staticmethod(F.relu6)

    def __init__(self, inplace=False):
        super().__init__(inplace)


class ELU(_Fn):
    _fn = staticmethod(F.elu)

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha, inplace)


class Hardtanh(_Fn):
    _fn = staticmethod(F.hardtanh)

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__(min_val, max_val, inplace)


class Threshold(_Fn):
    _fn = staticmethod(F.threshold)

    def __init__(self, threshold, value, inplace=False):
        super().__init__(threshold, value, inplace)


class LeakyReLU(_Fn):
    _fn = staticmethod(lambda x, slope, inplace: F._result(x, _ops.leaky_relu(x, slope),
                                                           inplace))

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__(negative_slope, inplace)


class Softmax(_Fn):
    _fn = staticmethod(F.softmax)

    def __init__(self, dim=None):
        super().__init__(dim)


class LogSoftmax(_Fn):
    _fn = staticmethod(F.log_softmax)

    def __init__(self, dim=None):
        super().__init__(dim)


class GLU(_Fn):
    _fn = staticmethod(F.glu)

    def __init__(self, dim=-1):
        super().__init__(dim)


class Softshrink(_Fn):
    _fn = staticmethod(_ops.softshrink)

    def __init__(self, lambd=0.5):
        super().__init__(lambd)


class Dropout2d(_Fn):
    """Zeroes whole channels with probability ``p`` in training (survivors scaled by
    ``1 / (1 - p)``); identity in inference."""
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p, self.inplace = p, inplace

    def construct(self, input):  # noqa: A002
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Fold(_Fn):
    _fn = staticmethod(_ops.fold)

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(output_size, kernel_size, dilation, padding, stride)


class Unfold(_Fn):
    _fn = staticmethod(_ops.unfold)

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)


class ZeroPad1d(_nn.ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad3d(_nn.ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class UpsamplingNearest2d(_nn.Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(_nn.Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", align_corners=True)


class AdaptiveMaxPool1d(_nn.AdaptiveMaxPool1d):
    def __init__(self, output_size, return_indices=False):
        if return_indices:
            raise ValueError("mint.nn.AdaptiveMaxPool1d: return_indices=True is not supported")
        super().__init__(output_size)


class SmoothL1Loss(_nn.SmoothL1Loss):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(beta, reduction)


class BCEWithLogitsLoss(_nn.BCEWithLogitsLoss):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction, weight, pos_weight)


class Dropout(_nn.Dropout):
    def __init__(self, p=0.5, inplace=False):
        super().__init__(p=p)
        self.inplace = bool(inplace)

    def construct(self, x):
        return F._result(x, super().construct(x), self.inplace)


class PReLU(Cell):
    """PyTorch's ``PReLU(num_parameters=1, init=0.25)``: parameter ``weight``."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        np_dtype = _mstype.dtype_to_nptype(dtype or _mstype.float32)
        self.weight = _param(_np.full(num_parameters, init, np_dtype), "weight")

    def construct(self, input):  # noqa: A002
        return F.prelu(input, self.weight)


class Linear(_nn.Dense):
    """``y = x @ weight.T + bias`` (weight (out_features, in_features))."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=dtype or _mstype.float32)


# --- convolutions: PyTorch's padding (numbers, 'same'/'valid', padding_mode) ----------------

_PAD_MODES = {"reflect": "reflect", "replicate": "replicate", "circular": "circular"}


def _conv_padding(padding, nd):
    """(pad_mode, MindSpore padding, PyTorch-order pad list for ops.pad)."""
    if isinstance(padding, str):
        return padding, 0, None
    sizes = (padding,) * nd if isinstance(padding, int) else tuple(padding)
    ms_pad = sizes[0] if nd == 1 else tuple(p for s in sizes for p in (s, s))
    torch_pad = tuple(p for s in reversed(sizes) for p in (s, s))
    return "pad", ms_pad, torch_pad


def _conv_class(base, nd):
    class Conv(base):
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                     dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None):
            pad_mode, ms_pad, torch_pad = _conv_padding(padding, nd)
            self._prepad = None
            if padding_mode != "zeros":
                if padding_mode not in _PAD_MODES:
                    raise ValueError(f"Conv{nd}d: padding_mode {padding_mode!r} is not one of "
                                     "'zeros', 'reflect', 'replicate', 'circular'")
                if torch_pad is not None:
                    self._prepad = (torch_pad, _PAD_MODES[padding_mode])
                    pad_mode, ms_pad = "valid", 0
            kwargs = {} if dtype is None else {"dtype": dtype}
            super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, ms_pad,
                             dilation, groups, bias, **kwargs)
            self._prepad_ = self._prepad

        def construct(self, x):
            if self._prepad_ is not None:
                x = _ops.pad(x, self._prepad_[0], self._prepad_[1])
            return super().construct(x)

    Conv.__name__ = Conv.__qualname__ = f"Conv{nd}d"
    Conv.__module__ = __name__
    Conv.__doc__ = (f"PyTorch's ``Conv{nd}d(in_channels, out_channels, kernel_size, stride=1, "
                    "padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros')`` over "
                    f"``ms.nn.Conv{nd}d``.")
    return Conv


Conv1d = _conv_class(_nn.Conv1d, 1)
Conv2d = _conv_class(_nn.Conv2d, 2)
Conv3d = _conv_class(_nn.Conv3d, 3)


class ConvTranspose2d(_nn.Conv2dTranspose):
    """PyTorch's ``ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0,
    output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros')``: weight
    (in_channels, out_channels / groups, kH, kW)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        if padding_mode != "zeros":
            raise ValueError("ConvTranspose2d: only padding_mode='zeros' (as PyTorch)")
        _, ms_pad, _ = _conv_padding(padding, 2)
        super().__init__(in_channels, out_channels, kernel_size, stride, "pad", ms_pad,
                         output_padding, dilation, groups, bias)


# --- normalization ------------------------------------------------------------------------

def _param(array, name, requires_grad=True):
    return _Parameter(_Tensor(array), name=name, requires_grad=requires_grad)


class _BatchNorm(Cell):
    """PyTorch's BatchNorm: parameters ``weight``/``bias`` and buffers ``running_mean``/
    ``running_var``/``num_batches_tracked`` (mint's names, so checkpoints match); in training
    the batch statistics normalize and ``running = (1 - momentum) * running + momentum *
    batch`` (the variance unbiased; ``momentum=None``: the cumulative average)."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        np_dtype = _mstype.dtype_to_nptype(dtype or _mstype.float32)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = _param(_np.ones(num_features, np_dtype), "weight") if affine else None
        self.bias = _param(_np.zeros(num_features, np_dtype), "bias") if affine else None
        if track_running_stats:
            self.running_mean = _param(_np.zeros(num_features, np_dtype), "running_mean", False)
            self.running_var = _param(_np.ones(num_features, np_dtype), "running_var", False)
            self.num_batches_tracked = _param(_np.zeros((), _np.int64), "num_batches_tracked",
                                              False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):  # noqa: A002
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(self.num_batches_tracked + 1)
            momentum = self.momentum if self.momentum is not None else \
                1.0 / float(self.num_batches_tracked.asnumpy())
            return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                                self.bias, True, momentum, self.eps)
        if not self.track_running_stats:  # batch statistics always; nothing kept
            c = input.shape[1]
            return F.batch_norm(input, _ops.zeros((c,), input.dtype),
                                _ops.ones((c,), input.dtype), self.weight, self.bias, True,
                                0.0, self.eps)
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                            self.bias, False, 0.0, self.eps)


class BatchNorm1d(_BatchNorm):
    """``BatchNorm1d(num_features, eps=1e-5, momentum=0.1, affine=True,
    track_running_stats=True)`` over (N, C) or (N, C, L)."""


class BatchNorm2d(_BatchNorm):
    """``BatchNorm2d(num_features, eps=1e-5, momentum=0.1, affine=True,
    track_running_stats=True)`` over (N, C, H, W)."""


class BatchNorm3d(_BatchNorm):
    """``BatchNorm3d(num_features, eps=1e-5, momentum=0.1, affine=True,
    track_running_stats=True)`` over (N, C, D, H, W)."""


class SyncBatchNorm(_BatchNorm):
    """PyTorch's ``SyncBatchNorm(num_features, eps=1e-5, momentum=0.1, affine=True,
    track_running_stats=True, process_group=None)``: BatchNorm whose batch statistics are
    those of this process (one device; no statistics are exchanged)."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        if process_group is not None:
            raise ValueError("SyncBatchNorm: only the default process group (None)")
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)


class GroupNorm(Cell):
    """PyTorch's ``GroupNorm(num_groups, num_channels, eps=1e-5, affine=True)``: parameters
    ``weight`` (ones) and ``bias`` (zeros)."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels}) is not divisible by "
                             f"num_groups ({num_groups})")
        np_dtype = _mstype.dtype_to_nptype(dtype or _mstype.float32)
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.weight = _param(_np.ones(num_channels, np_dtype), "weight") if affine else None
        self.bias = _param(_np.zeros(num_channels, np_dtype), "bias") if affine else None

    def construct(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class LayerNorm(Cell):
    """PyTorch's ``LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True, bias=True)``:
    parameters ``weight`` (ones) and ``bias`` (zeros)."""

    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
            tuple(normalized_shape)
        self.normalized_shape, self.eps = shape, eps
        np_dtype = _mstype.dtype_to_nptype(dtype or _mstype.float32)
        self.weight = _Parameter(_Tensor(_np.ones(shape, np_dtype)), name="weight") \
            if elementwise_affine else None
        self.bias = _Parameter(_Tensor(_np.zeros(shape, np_dtype)), name="bias") \
            if elementwise_affine and bias else None

    def construct(self, input):  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class Embedding(Cell):
    """PyTorch's ``Embedding(num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
    norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None)``: ``weight`` drawn
    from N(0, 1), the ``padding_idx`` row zero."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        if _weight is None:
            w = _np.asarray(_ops.randn(num_embeddings, embedding_dim).asnumpy())
            if padding_idx is not None:
                w[padding_idx] = 0
            _weight = _Tensor(w.astype(_mstype.dtype_to_nptype(dtype or _mstype.float32)))
        self.weight = _Parameter(_weight, name="weight", requires_grad=not _freeze)
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type

    def construct(self, input):  # noqa: A002
        return _ops.embedding(input, self.weight, self.padding_idx, self.max_norm,
                              self.norm_type)


# --- pooling: stride defaults to kernel_size, numeric padding -------------------------------

class AvgPool1d(_nn.AvgPool1d):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride or kernel_size, "pad", padding, ceil_mode,
                         count_include_pad)


class AvgPool2d(_nn.AvgPool2d):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride or kernel_size, "pad", padding, ceil_mode,
                         count_include_pad, divisor_override)


class AvgPool3d(_nn.AvgPool3d):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride or kernel_size, "pad", padding, ceil_mode,
                         count_include_pad, divisor_override)


class MaxPool2d(_nn.MaxPool2d):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride or kernel_size, "pad", padding, dilation,
                         return_indices, ceil_mode)


__all__ = sorted([*_SAME, "Hardshrink", "Hardsigmoid", "Hardswish", "SELU", *(
    n for n, v in list(globals().items())
    if isinstance(v, type) and issubclass(v, Cell) and not n.startswith("_")
    and v.__module__ == __name__)])
