"""THOR's layers: ``DenseThor``, ``Conv2dThor``, ``EmbeddingThor``, ``EmbeddingLookupThor``.

Each computes what its plain layer computes and, while ``thor`` is True and a gradient is
taken (PyNative), records the Kronecker factors ``nn.thor`` preconditions with, in
Parameters that do not train: ``matrix_a`` (the input covariance ``a^T a / n``; for the
embeddings the per-row counts of the ids) from the forward pass and ``matrix_g`` (``D^T D /
n`` of the loss gradients ``D`` at the output) from the backward pass. ``Conv2dThor`` takes
``a`` as the im2col patches (rows ``(C_in, kh, kw)``, the weight's order) and keeps the row
counts in ``a_normalizer``/``g_normalizer`` (MindSpore's Ascend kernels' statistics). The
factors are NumPy values (recorded eagerly): with ``thor`` True a Graph-mode trace raises
``EagerOnlyError``; ``thor = False`` makes a plain layer. (``construct`` names its base
class: the Graph-mode frontend compiles it without ``super()``'s cell.)
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression.autograd import call_with_bprop
from sporeling.expression.nn import Conv2d, Dense, Embedding

from ..common.eager import EagerOnlyError
from .cell import Cell
from .embedding import EmbeddingLookup

ops = sx.ops

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _values(x) -> np.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def _factor(name: str, shape, fill: str = "zeros") -> sx.Parameter:
    value = np.eye(shape[0], dtype=np.float32) if fill == "eye" else \
        np.zeros(shape, np.float32)
    return sx.Parameter(value, name=name, requires_grad=False)


def _covariance(rows: np.ndarray, normalizer: int) -> np.ndarray:
    rows = rows.astype(np.float32, copy=False)
    return rows.T @ rows / np.float32(normalizer)


class _ThorRecorder:
    """What the four layers share: the ``thor`` switch, the Graph-mode refusal, the
    output-gradient hook and ``kronecker_factors`` (what ``nn.thor`` reads)."""

    def _init_thor(self, a_shape, g_dim: int, a_fill: str = "zeros") -> None:
        self.thor = True
        self.matrix_a = _factor("matrix_a", a_shape, a_fill)
        self.matrix_g = _factor("matrix_g", (g_dim, g_dim), a_fill)
        self.a_normalizer = _factor("a_normalizer", (1,))
        self.g_normalizer = _factor("g_normalizer", (1,))
        self.a_normalizer.set_data(np.ones(1, np.float32))
        self.g_normalizer.set_data(np.ones(1, np.float32))

    def _recording(self) -> bool:
        if not self.thor:
            return False
        from sporeling.expression.graph import is_tracing
        if is_tracing():
            raise EagerOnlyError(f"{type(self).__name__} records THOR's factors on NumPy "
                                 "values", expected="PyNative mode, or thor = False",
                                 got="a Graph-mode trace with thor = True",
                                 hint="train with THOR in PyNative mode")
        return True

    def _record_g(self, y, rows_of):
        """``y``, whose gradient ``D`` (as ``rows_of(D)``: (rows, dim), normalizer) sets
        ``matrix_g`` in the backward pass."""
        def bprop(value, out, dout):
            rows, normalizer = rows_of(_values(dout))
            self.matrix_g.set_data(_covariance(rows, normalizer))
            return (dout,)
        return call_with_bprop(lambda v: v + 0, bprop, y)

    def kronecker_factors(self):
        """``(matrix_a, matrix_g, a_normalizer, g_normalizer)`` as NumPy arrays."""
        return tuple(_values(p) for p in (self.matrix_a, self.matrix_g, self.a_normalizer,
                                           self.g_normalizer))


class DenseThor(_ThorRecorder, Dense, Cell):
    """``DenseThor(in_channels, out_channels, weight_init='normal', bias_init='zeros',
    has_bias=True, activation=None)``: ``Dense`` recording ``A`` (in x in) and ``G``
    (out x out) over the rows of ``x`` (leading axes flattened)."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, activation=None):
        super().__init__(in_channels, out_channels, weight_init, bias_init, has_bias,
                         activation)
        self._init_thor((self.in_channels, self.in_channels), self.out_channels, "eye")

    def construct(self, x):
        if not self._recording():
            return Dense.construct(self, x)
        rows = _values(x).reshape(-1, self.in_channels)
        self.matrix_a.set_data(_covariance(rows, rows.shape[0]))
        y = ops.matmul(x, ops.swap_last_axes(self.weight))
        y = self._record_g(y, lambda d: (d.reshape(-1, self.out_channels),
                                         d.reshape(-1, self.out_channels).shape[0]))
        if self.bias is not None:
            y = ops.add(y, self.bias)
        return self.activation(y) if self.activation_flag else y


def _im2col(x: np.ndarray, kernel, stride, dilation, pads) -> np.ndarray:
    """(N, C, H, W) -> (N * H_out * W_out, C * kh * kw) patches, in the weight's order."""
    x = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    spans = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    windows = np.lib.stride_tricks.sliding_window_view(x, spans, axis=(2, 3))
    windows = windows[:, :, ::stride[0], ::stride[1], ::dilation[0], ::dilation[1]]
    n, c, ho, wo, kh, kw = windows.shape
    return windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, c * kh * kw)


class Conv2dThor(_ThorRecorder, Conv2d, Cell):
    """``Conv2dThor(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, dilation=1, group=1, has_bias=False, weight_init='normal',
    bias_init='zeros')``: ``Conv2d`` recording ``A`` ((C_in kh kw)^2, over the patches) and
    ``G`` (C_out x C_out, over the output positions)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros"):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init)
        self.matrix_a_dim = self.in_channels * self.kernel_size[0] * self.kernel_size[1]
        self.matrix_g_dim = self.out_channels
        self._init_thor((self.matrix_a_dim, self.matrix_a_dim), self.matrix_g_dim)

    def construct(self, x):
        if not self._recording():
            return Conv2d.construct(self, x)
        self._check(x)
        data = _values(x)
        rows = _im2col(data, self.kernel_size, self.stride, self.dilation,
                       self._padding(data.shape[2:]))
        self.matrix_a.set_data(_covariance(rows, rows.shape[0]))
        self.a_normalizer.set_data(np.array([rows.shape[0]], np.float32))

        def output_rows(d):
            rows = d.transpose(0, 2, 3, 1).reshape(-1, d.shape[1])
            self.g_normalizer.set_data(np.array([rows.shape[0]], np.float32))
            return rows, rows.shape[0]
        return self._record_g(Conv2d.construct(self, x), output_rows)


def _counts(ids, vocab_size: int) -> np.ndarray:
    """How often each row is looked up (MindSpore's ``reduce_sum(one_hot(ids), 0)``)."""
    flat = _values(ids).reshape(-1).astype(np.int64)
    flat = flat[(flat >= 0) & (flat < vocab_size)]  # one_hot of an id out of range is 0
    return np.bincount(flat, minlength=vocab_size).astype(np.float32)


class EmbeddingThor(_ThorRecorder, Embedding, Cell):
    """``EmbeddingThor(vocab_size, embedding_size, use_one_hot=False,
    embedding_table='normal', dtype=mstype.float32, padding_idx=None)``: ``Embedding``
    recording the id counts (``matrix_a``, (vocab_size,)) and ``G`` (embedding_size^2, over
    the looked-up rows); with ``use_one_hot`` it records nothing, as in MindSpore."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=None, padding_idx=None):
        super().__init__(vocab_size, embedding_size, use_one_hot, embedding_table,
                         padding_idx=padding_idx)
        self._init_thor((self.vocab_size,), self.embedding_size)

    def construct(self, ids):
        if self.use_one_hot or not self._recording():
            return Embedding.construct(self, ids)
        self.matrix_a.set_data(_counts(ids, self.vocab_size))
        size = self.embedding_size
        return self._record_g(Embedding.construct(self, ids),
                              lambda d: (d.reshape(-1, size), d.reshape(-1, size).shape[0]))


class EmbeddingLookupThor(_ThorRecorder, EmbeddingLookup):
    """``EmbeddingLookupThor(vocab_size, embedding_size, param_init='normal', target='CPU',
    slice_mode='batch_slice', manual_shapes=None, max_norm=None, sparse=True)``:
    ``EmbeddingLookup`` recording the id counts and ``G`` (normalised by the indices' first
    axis, as MindSpore's). MindSpore records on its ``'DEVICE'`` target only; here on both
    (one host device)."""

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 vocab_cache_size=0):
        if not sparse and target == "CPU":
            raise ValueError("EmbeddingLookupThor: embedding_lookup must be sparse when "
                             f"'target' is CPU, but got 'sparse': {sparse}")
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         manual_shapes, max_norm, sparse, vocab_cache_size)
        self._init_thor((self.vocab_size,), self.embedding_size)

    def construct(self, indices):
        if not self._recording():
            return EmbeddingLookup.construct(self, indices)
        self.matrix_a.set_data(_counts(indices, self.vocab_size))
        size = self.embedding_size
        rows = ops.gather(self.embedding_table, ops.cast(indices, "int64"), 0)
        rows = self._record_g(rows, lambda d: (d.reshape(-1, size), d.shape[0]))
        if self.max_norm is None:
            return rows
        from .embedding import _renorm
        return _renorm(rows, self.max_norm)
