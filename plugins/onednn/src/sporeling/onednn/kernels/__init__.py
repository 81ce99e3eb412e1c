"""oneDNN's kernels, by primitive name, with what each does with memory."""
from __future__ import annotations

from sporeling.runtime import KernelMemory

from . import blocked, conv, matmul, normalization, pooling, rnn, softmax

__all__ = ["ONEDNN_KERNELS"]

_OUT = KernelMemory.writes_out()  # writes its whole result into out=, never in place

ONEDNN_KERNELS = {
    "conv2d": (conv.conv2d, _OUT),
    "conv_transpose2d": (conv.conv_transpose2d, _OUT),
    "conv2d_weight_grad": (conv.conv2d_weight_grad, _OUT),
    "max_pool2d": (pooling.max_pool2d, KernelMemory.FRESH),
    "max_pool2d_scatter": (pooling.max_pool2d_scatter, _OUT),
    "avg_pool2d": (pooling.avg_pool2d, _OUT),
    "avg_pool2d_transpose": (pooling.avg_pool2d_transpose, _OUT),
    "normalize": (normalization.normalize, KernelMemory.FRESH),  # (y, mean, var), as NumPy's
    # oneDNN's softmax may run in place, but NumPy's declares none: neither does this
    "softmax": (softmax.softmax, _OUT),
    "matmul": (matmul.matmul, _OUT),
    # fused RNNs: several results each, always fresh buffers (as NumPy's)
    "lstm": (rnn.lstm, KernelMemory.FRESH),
    "gru": (rnn.gru, KernelMemory.FRESH),
    "lstm_grad": (rnn.lstm_grad, KernelMemory.FRESH),
    "gru_grad": (rnn.gru_grad, KernelMemory.FRESH),
    # Graph mode's layout pass (layouts/): channel-blocked activations
    "onednn_reorder": (blocked.onednn_reorder, _OUT),
    "onednn_blocked": (blocked.onednn_blocked, KernelMemory.FRESH),
}
