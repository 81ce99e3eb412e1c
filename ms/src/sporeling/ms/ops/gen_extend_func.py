"""``ops.gen_extend_func``: 2.10's generated "extended" functional ops -- the PyTorch-style
signatures (``argmax(input, dim=None, keepdim=False)``, ``add(input, other, alpha=1)``,
``sum(input, dim=None, keepdim=False, dtype=None)``...) that ``ops.auto_generate`` and
``mint`` are built from. Each is the facade's ``mint`` / ``mint.nn.functional`` function of
the same signature (so traced by ``ms.jit`` as they are). Left out: ``ffn`` (Ascend's fused
feed-forward kernel), ``adaptive_avg_pool2d_grad`` (a backward kernel), and the in-place
``inplace_add``/``inplace_adds``/``sub_tensor_`` (Tensor methods ``add_``/``sub_`` here)."""
from __future__ import annotations

from .. import mint as _mint
from ..mint.nn import functional as _F
from . import functional as _ops

__all__ = [
    "atan", "matmul", "frac", "argsort", "diag", "trace", "leaky_relu", "logsumexp", "topk",
    "asinh", "acosh", "argmin", "max_unpool2d", "matrix_inverse", "cumsum", "bmm", "argmax",
    "mse_loss", "sort", "atan2", "acos", "outer", "prod", "mish", "stack", "fold", "tril",
    "log_softmax", "index_select", "t", "logaddexp", "isneginf", "selu", "avg_pool1d",
    "softplus", "histc", "log10", "unfold", "sum", "add", "log2", "sub",
    "adaptive_avg_pool3d", "asin", "cummin", "mean", "gather_nd", "l1_loss", "bincount",
    "flatten", "mm", "elu",
]

# the same signature as 2.10's: the facade's function itself
atan, matmul, frac, diag, trace = _mint.atan, _mint.matmul, _mint.frac, _mint.diag, _mint.trace
argsort, topk, logsumexp, argmin, argmax = (_mint.argsort, _mint.topk, _mint.logsumexp,
                                             _mint.argmin, _mint.argmax)
asinh, acosh, asin, acos = _mint.asinh, _mint.acosh, _mint.asin, _mint.acos
bmm, mm, outer, t, tril = _mint.bmm, _mint.mm, _mint.outer, _mint.t, _mint.tril
atan2, logaddexp, isneginf, log2, log10 = (_mint.atan2, _mint.logaddexp, _mint.isneginf,
                                           _mint.log2, _mint.log10)
histc, bincount, flatten, cummin = _mint.histc, _mint.bincount, _mint.flatten, _mint.cummin
prod, mean, sum = _mint.prod, _mint.mean, _mint.sum  # noqa: A001 - MindSpore's name
leaky_relu, max_unpool2d, mse_loss, l1_loss = (_F.leaky_relu, _F.max_unpool2d, _F.mse_loss,
                                               _F.l1_loss)
fold, unfold, avg_pool1d, adaptive_avg_pool3d = (_F.fold, _F.unfold, _F.avg_pool1d,
                                                 _F.adaptive_avg_pool3d)


def matrix_inverse(input):  # noqa: A002
    """The inverse of each of the last two dimensions' square matrices."""
    return _mint.inverse(input)


def cumsum(input, dim, dtype=None):  # noqa: A002
    return _mint.cumsum(input, dim, dtype)


def sort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    return _mint.sort(input, dim=dim, descending=descending, stable=stable)


def mish(input):  # noqa: A002
    return _ops.mish(input)


def stack(tensors, dim=0):
    return _mint.stack(tensors, dim)


def log_softmax(input, dim=None, dtype=None):  # noqa: A002
    return _F.log_softmax(input, dim, dtype=dtype)


def index_select(input, dim, index):  # noqa: A002
    return _mint.index_select(input, dim, index)


def selu(input):  # noqa: A002
    return _ops.selu(input)


def softplus(input, beta=1, threshold=20):  # noqa: A002
    return _ops.softplus(input, beta, threshold)


def add(input, other, alpha=1):  # noqa: A002
    """``input + alpha * other``."""
    return _mint.add(input, other, alpha=alpha)


def sub(input, other, alpha=1):  # noqa: A002
    """``input - alpha * other``."""
    return _mint.sub(input, other, alpha=alpha)


def gather_nd(input, indices):  # noqa: A002
    return _ops.gather_nd(input, indices)


def elu(input, alpha=1.0):  # noqa: A002
    return _F.elu(input, alpha)
