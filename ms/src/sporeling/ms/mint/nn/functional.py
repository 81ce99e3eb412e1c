"""``ms.mint.nn.functional``: PyTorch-style functional layers over ``ms.ops`` (``dim`` for
``axis``, ``padding`` numbers for MindSpore's ``pad_mode``); ``inplace=True`` and the ``_``
forms write the result into the input tensor (``Tensor.copy_``) and return it."""
from __future__ import annotations

from sporeling.expression.ops import conv_transpose2d as _conv_transpose2d

from ... import ops as _ops
from .._adapt import same as _same, table as _table

_SAME = (
    "adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d binary_cross_entropy "
    "cross_entropy embedding fold grid_sample group_norm interpolate layer_norm logsigmoid "
    "mse_loss pixel_shuffle prelu sigmoid tanh unfold kl_div cosine_embedding_loss "
    "soft_margin_loss").split()

_RENAMED = {
    "glu": (_ops.glu, {"dim": "axis"}),
    "upsample": (_ops.interpolate, {}),
    "binary_cross_entropy_with_logits": (_ops.binary_cross_entropy_with_logits, {}),
    "nll_loss": (_ops.nll_loss, {"input": "inputs"}),
    "max_unpool2d": (_ops.max_unpool2d, {"input": "x"}),
}


def _result(input, out, inplace):  # noqa: A002
    """``out``, or, for ``inplace=True``, ``out`` written into ``input`` (``input`` returned,
    as PyTorch's in-place forms)."""
    return input.copy_(out) if inplace else out


def relu(input, inplace=False):  # noqa: A002
    return _result(input, _ops.relu(input), inplace)


def relu6(input, inplace=False):  # noqa: A002
    return _result(input, _ops.relu6(input), inplace)


def silu(input, inplace=False):  # noqa: A002
    return _result(input, _ops.silu(input), inplace)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    return _result(input, _ops.elu(input, alpha), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    return _result(input, _ops.hardtanh(input, min_val, max_val), inplace)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    """``value`` where ``input <= threshold``, else ``input``."""
    return _result(input, _ops.threshold(input, threshold, value), inplace)


def relu_(input):  # noqa: A002
    """``relu`` in place: ``input`` overwritten and returned."""
    return relu(input, True)


def sigmoid_(input):  # noqa: A002
    """``sigmoid`` in place: ``input`` overwritten and returned."""
    return _result(input, _ops.sigmoid(input), True)


def elu_(input, alpha=1.0):  # noqa: A002
    """``elu`` in place: ``input`` overwritten and returned."""
    return elu(input, alpha, True)


def hardtanh_(input, min_val=-1, max_val=1):  # noqa: A002
    """``hardtanh`` in place: ``input`` overwritten and returned."""
    return hardtanh(input, min_val, max_val, True)


def threshold_(input, threshold, value):  # noqa: A002
    """``threshold`` in place: ``input`` overwritten and returned."""
    return _result(input, _ops.threshold(input, threshold, value), True)


def gelu(input, approximate="none"):  # noqa: A002
    return _ops.gelu(input, approximate)


def _softmax_dim(input, dim):  # noqa: A002
    """``dim=None``: PyTorch's legacy choice, 0 for 0-, 1- and 3-d inputs, else 1."""
    if dim is not None:
        return dim
    return 0 if input.ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):  # noqa: A002
    return _ops.softmax(input, _softmax_dim(input, dim), dtype=dtype)


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    x = input if dtype is None else input.astype(dtype)
    return _ops.log_softmax(x, _softmax_dim(input, dim))


def leaky_relu(input, negative_slope=0.01):  # noqa: A002
    return _ops.leaky_relu(input, negative_slope)


def linear(input, weight, bias=None):  # noqa: A002
    """``input @ weight.T + bias``."""
    return _ops.dense(input, weight, bias)


def _conv(op, input, weight, bias, stride, padding, dilation, groups):  # noqa: A002
    if isinstance(padding, str):
        return op(input, weight, bias, stride, padding, 0, dilation, groups)
    return op(input, weight, bias, stride, "pad", padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """``padding``: a number, or 'same'/'valid'."""
    return _conv(_ops.conv1d, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """``padding``: a number, a pair (height, width), or 'same'/'valid'."""
    return _conv(_ops.conv2d, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv(_ops.conv3d, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    """Transposed 2-d convolution, ``weight`` (in_channels, out_channels / groups, kH, kW)."""
    return _conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                             dilation)


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    return _result(input, _ops.dropout(input, p, training), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if not training:
        return input
    return _result(input, _ops.dropout2d(input, p, training), inplace)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    return _ops.pad(input, pad, mode, value)


def one_hot(tensor, num_classes=-1):
    """int64 one-hot rows (``num_classes=-1``: ``max + 1``)."""
    from ... import mint
    if num_classes == -1:
        num_classes = int(mint.max(tensor)) + 1
    return _ops.one_hot(tensor, num_classes, 1, 0).astype("int64")


def normalize(input, p=2.0, dim=1, eps=1e-12):  # noqa: A002
    """``input / max(||input||_p over dim, eps)``."""
    n = _ops.norm(input, p, dim, True)
    return _ops.div(input, _ops.clamp(n, min=eps))


def batch_norm(input, running_mean, running_var, weight=None, bias=None,  # noqa: A002
               training=False, momentum=0.1, eps=1e-05):
    return _ops.batch_norm(input, running_mean, running_var, weight, bias, training,
                           momentum, eps)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True):
    return _ops.avg_pool1d(input, kernel_size, stride or kernel_size, padding, ceil_mode,
                           count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True, divisor_override=None):
    return _ops.avg_pool2d(input, kernel_size, stride or kernel_size, padding, ceil_mode,
                           count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True, divisor_override=None):
    return _ops.avg_pool3d(input, kernel_size, stride or kernel_size, padding, ceil_mode,
                           count_include_pad, divisor_override or 0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode=False, return_indices=False):
    return _ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices,
                           ceil_mode)


def adaptive_max_pool1d(input, output_size, return_indices=False):  # noqa: A002
    if return_indices:
        raise ValueError("mint.nn.functional.adaptive_max_pool1d: return_indices=True is "
                         "not supported")
    return _ops.adaptive_max_pool1d(input, output_size)


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    return _ops.adaptive_max_pool2d(input, output_size, return_indices)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):  # noqa: A002
    return _ops.smooth_l1_loss(input, target, beta, reduction)


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    return _ops.l1_loss(input, target, reduction)


_NAMES = [*_same(_SAME, _ops, globals(), __name__), *_table(_RENAMED, globals(), __name__)]

__all__ = sorted({*_NAMES, *(n for n, v in list(globals().items())
                             if callable(v) and not n.startswith("_")
                             and getattr(v, "__module__", "") == __name__)})
