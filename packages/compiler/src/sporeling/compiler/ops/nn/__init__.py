"""Neural-network ops: convolution, pooling, softmax, normalisation, dropout, embedding,
losses, recurrent networks (``lstm``, ``gru``). NCHW / NCL layouts and PyTorch/MindSpore-style
signatures.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> ops.conv2d(np.ones((1, 1, 3, 3), np.float32), np.ones((2, 1, 2, 2), np.float32)).shape
    (1, 2, 2, 2)
"""
from .conv import conv1d, conv2d, conv_transpose2d
from .dropout import dropout
from .embedding import embedding
from .loss import (binary_cross_entropy_with_logits, cross_entropy, l1_loss, mse_loss,
                   nll_loss, smooth_l1_loss)
from .normalization import batch_norm, group_norm, layer_norm
from .pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from .rnn import gru, lstm
from .softmax import log_softmax, softmax

__all__ = ["conv1d", "conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d",
           "adaptive_avg_pool2d", "softmax", "log_softmax", "layer_norm", "batch_norm",
           "group_norm", "dropout", "embedding", "cross_entropy", "nll_loss", "mse_loss",
           "l1_loss", "smooth_l1_loss", "binary_cross_entropy_with_logits", "lstm", "gru"]
