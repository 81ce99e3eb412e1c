"""Neural-network functions of 2.10's ``mindspore.ops`` beyond ``nn``/``activation``/
``pooling``/``loss``: the fused blocks of large models (``swiglu``, ``rms_norm``,
``add_rms_norm``, ``add_layer_norm``, ``rotary_position_embedding``), ``softplus``,
``soft_shrink``, ``conv_transpose2d``, ``conv3d_transpose``, ``adaptive_max_pool3d``,
``fractional_max_pool2d`` and the ``*_ext`` names. MindSpore runs the fused ones as Ascend
kernels; here they are composed from sx ops, so they run anywhere, in Graph mode too, and
carry gradients."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, float_like, ops, tensor, tuple_of
from .activation import softshrink
from .loss import mse_loss, multi_label_margin_loss
from .pooling import _adaptive_max, adaptive_avg_pool2d, fractional_max_pool3d

__all__ = ["softplus", "soft_shrink", "swiglu", "rms_norm", "add_rms_norm", "add_layer_norm",
           "rotary_position_embedding", "mse_loss_ext", "adaptive_avg_pool2d_ext",
           "multilabel_margin_loss", "conv_transpose2d", "conv3d_transpose",
           "adaptive_max_pool3d", "fractional_max_pool2d"]


def softplus(input, beta=1, threshold=20):  # noqa: A002
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``
    (where the two agree to float precision)."""
    x = float_like(input)
    scaled = ops.mul(x, float(beta))
    smooth = ops.div(ops.softplus(scaled), float(beta))
    return ops.where(ops.greater(scaled, float(threshold)), x, smooth)


def soft_shrink(input, lambd=0.5):  # noqa: A002
    """Same as :func:`softshrink` (2.10's older name)."""
    return softshrink(input, lambd)


def swiglu(input, dim=-1):  # noqa: A002
    """``silu(a) * b`` for the two halves ``a``, ``b`` of ``input`` along ``dim``."""
    x = float_like(input)
    axis = int(dim) % x.ndim
    if x.shape[axis] % 2:
        raise SporelingError("the split axis must have an even size", op="ops.swiglu",
                             expected="an even size", got=f"size {x.shape[axis]} on dim {dim}")
    a, b = ops.split(x, 2, axis=axis)
    return ops.mul(ops.silu(a), b)


def _rms(x, gamma, epsilon):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = ops.rsqrt(ops.add(ops.mean(ops.square(x), axis=axes, keepdims=True),
                             float(epsilon)))
    return ops.mul(ops.mul(x, rstd), gamma), rstd


def rms_norm(x, gamma, epsilon=1e-6):
    """``(x / sqrt(mean(x^2) + epsilon) * gamma, rstd)``, the mean over the trailing axes
    ``gamma`` covers; ``rstd`` keeps them as size-1 axes."""
    return _rms(float_like(x), tensor(gamma), epsilon)


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """:func:`rms_norm` of ``x1 + x2``: ``(y, rstd, x1 + x2)``."""
    x = ops.add(float_like(x1), tensor(x2))
    y, rstd = _rms(x, tensor(gamma), epsilon)
    return y, rstd, x


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """Layer normalisation of ``x1 + x2`` over the trailing axes ``gamma`` covers:
    ``(y, mean, rstd, x1 + x2)``; ``mean``/``rstd`` keep those axes as size 1."""
    x = ops.add(float_like(x1), tensor(x2))
    g = tensor(gamma)
    axes = tuple(range(x.ndim - g.ndim, x.ndim))
    mean = ops.mean(x, axis=axes, keepdims=True)
    centered = ops.sub(x, mean)
    rstd = ops.rsqrt(ops.add(ops.mean(ops.square(centered), axis=axes, keepdims=True),
                             float(epsilon)))
    y = ops.add(ops.mul(ops.mul(centered, rstd), g), tensor(beta))
    return y, mean, rstd, x


def rotary_position_embedding(x, cos, sin, mode=0):
    """``x * cos + rotate(x) * sin``: ``mode`` 0 rotates halves (``[-x2, x1]``, GPT-NeoX),
    1 rotates interleaved pairs (``[-x1, x0, -x3, x2, ...]``, GPT-J)."""
    x, cos, sin = float_like(x), tensor(cos), tensor(sin)
    if mode == 0:
        a, b = ops.split(x, 2, axis=x.ndim - 1)
        rotated = ops.concat([ops.neg(b), a], axis=x.ndim - 1)
    elif mode == 1:
        pairs = ops.reshape(x, tuple(x.shape[:-1]) + (x.shape[-1] // 2, 2))
        even = ops.getitem(pairs, (Ellipsis, slice(0, 1)))
        odd = ops.getitem(pairs, (Ellipsis, slice(1, 2)))
        rotated = ops.reshape(ops.concat([ops.neg(odd), even], axis=pairs.ndim - 1),
                              tuple(x.shape))
    else:
        raise SporelingError("unknown mode", op="ops.rotary_position_embedding",
                             expected="0 (half) or 1 (interleave)", got=repr(mode))
    return ops.add(ops.mul(x, cos), ops.mul(rotated, sin))


def mse_loss_ext(input, target, reduction="mean"):  # noqa: A002
    """:func:`mse_loss`."""
    return mse_loss(input, target, reduction)


def adaptive_avg_pool2d_ext(input, output_size):  # noqa: A002
    """:func:`adaptive_avg_pool2d`."""
    return adaptive_avg_pool2d(input, output_size)


def multilabel_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """Same as ``multi_label_margin_loss``."""
    return multi_label_margin_loss(input, target, reduction)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,  # noqa: A002
                     groups=1, dilation=1):
    """The 2-D transposed convolution (PyTorch's arguments): ``weight`` is ``(C_in,
    C_out / groups, kH, kW)``; the output side is ``(H - 1) * stride - 2 * padding +
    dilation * (k - 1) + output_padding + 1``."""
    from sporeling.ms.nn._windows import conv_transpose_nd
    op = "ops.conv_transpose2d"
    x, w = float_like(input), tensor(weight)
    s, p = tuple_of(stride, 2, "stride", op), tuple_of(padding, 2, "padding", op)
    e, d = tuple_of(output_padding, 2, "output_padding", op), tuple_of(dilation, 2,
                                                                        "dilation", op)
    if x.shape[-3] != w.shape[0]:
        raise SporelingError("input channels differ from the weight's", op=op,
                             expected=f"{w.shape[0]} input channels",
                             got=f"input shape {list(x.shape)}")
    y = conv_transpose_nd(x, w, None, s, d, [(a, a) for a in p], int(groups), e)
    if bias is not None:
        y = ops.add(y, ops.reshape(tensor(bias), (-1, 1, 1)))
    return y


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1,
                     group=1, output_padding=0):
    """The 3-D transposed convolution (``ops.Conv3DTranspose``): ``weight`` ``(C_in,
    C_out / group, kD, kH, kW)``; ``pad_mode`` ``"valid"``, ``"same"`` or ``"pad"`` (then
    ``padding``: one int or six)."""
    from .. import primitives
    w = tensor(weight)
    prim = primitives.Conv3DTranspose(
        in_channel=w.shape[0], out_channel=w.shape[1] * int(group),
        kernel_size=tuple(w.shape[2:]), pad_mode=pad_mode, pad=padding, stride=stride,
        dilation=dilation, group=group, output_padding=output_padding)
    return prim(inputs, w)


def adaptive_max_pool3d(input, output_size, return_indices=False):  # noqa: A002
    """Maximum over near-equal windows of the last three axes; ``return_indices`` adds
    flat (D, H, W) positions."""
    return _adaptive_max("ops.adaptive_max_pool3d", input, 3, output_size, return_indices)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices=False, _random_samples=None):
    """Max pooling over pseudo-random ``kernel_size`` windows whose starts shrink the
    (H, W) input to ``output_size`` (or ``output_ratio`` of it); ``return_indices`` adds
    flat (H, W) positions; ``_random_samples`` (two numbers in [0, 1), the first two of a
    (N, C, 2) tensor) places the windows."""
    op = "ops.fractional_max_pool2d"
    x = tensor(input)
    k = (1,) + tuple_of(kernel_size, 2, "kernel_size", op)
    size = None if output_size is None else (1,) + tuple_of(output_size, 2, "output_size", op)
    ratio = None
    if output_ratio is not None:
        pair = output_ratio if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * 2
        ratio = (1.0,) + tuple(float(r) for r in pair)
    samples = None
    if _random_samples is not None:
        values = np.asarray(_random_samples.asnumpy() if hasattr(_random_samples, "asnumpy")
                            else _random_samples, np.float64).reshape(-1)[:2]
        samples = np.concatenate([[0.0], values])
    out = fractional_max_pool3d(ops.expand_dims(x, x.ndim - 2), k, size, ratio,
                                return_indices, samples)
    if return_indices:
        return ops.squeeze(out[0], axis=x.ndim - 2), ops.squeeze(out[1], axis=x.ndim - 2)
    return ops.squeeze(out, axis=x.ndim - 2)
