"""Neural-network kernels of the NumPy backend: convolution, pooling, softmax,
normalisation, dropout, embedding, recurrent layers (importing a module registers its kernels).

Convolutions are im2col in NCHW -- a strided window view copied into columns and one
batched matmul -- chosen by ``bench/conv_layouts.py`` over channel-last and batch-last
layouts: it needs no layout conversions and its per-sample matmuls stay small enough not to
fight over BLAS threads.
"""
from . import conv, dropout, embedding, normalization, pooling, rnn, softmax  # noqa: F401
