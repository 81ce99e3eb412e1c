"""Embedding cells of ``ms.nn``: ``Embedding`` is sporeling.expression's; ``EmbeddingLookup``
and ``MultiFieldEmbeddingLookup`` gather from one table (``target``/``slice_mode`` choose
devices and sharding in MindSpore; one process here, so they are recorded only)."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import Embedding
from sporeling.expression.nn.init import initializer

from .cell import Cell

ops = sx.ops

__all__ = ["Embedding", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]


def _renorm(rows, max_norm):
    """Rows with L2 norm above ``max_norm`` scaled down to it."""
    norm = ops.sqrt(ops.sum(ops.square(rows), -1, keepdims=True))
    scale = ops.minimum(ops.div(max_norm, ops.maximum(norm, 1e-12)), 1.0)
    return ops.mul(rows, scale)


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) for integer ``indices``;
    ``max_norm`` clips each looked-up row's L2 norm."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 vocab_cache_size=0, dtype=None):
        super().__init__()
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"EmbeddingLookup: target must be 'CPU' or 'DEVICE', got "
                             f"{target!r}")
        self.vocab_size, self.embedding_size = int(vocab_size), int(embedding_size)
        self.target, self.slice_mode, self.sparse = target, slice_mode, sparse
        self.max_norm = max_norm
        self.embedding_table = sx.Parameter(
            initializer(param_init, (self.vocab_size, self.embedding_size),
                        dtype or "float32"), name="embedding_table")

    def construct(self, indices):
        rows = ops.gather(self.embedding_table, ops.cast(indices, "int64"), 0)
        return _renorm(rows, self.max_norm) if self.max_norm is not None else rows


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Per-field pooled embeddings: ``construct(input_indices, input_values, field_ids)``,
    each (batch, seq); row ``input_indices[b, s]`` scaled by ``input_values[b, s]`` goes to
    field ``field_ids[b, s]``; ``operator`` "SUM", "MEAN" or "MAX" pools each field.
    Returns (batch, field_size, embedding_size)."""

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal",
                 target="CPU", slice_mode="batch_slice", feature_num_list=None, max_norm=None,
                 sparse=True, operator="SUM", dtype=None):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype=dtype)
        if operator not in ("SUM", "MEAN", "MAX"):
            raise ValueError(f"MultiFieldEmbeddingLookup: operator must be 'SUM', 'MEAN' or "
                             f"'MAX', got {operator!r}")
        self.field_size, self.operator = int(field_size), operator

    def construct(self, input_indices, input_values, field_ids):
        if tuple(input_indices.shape) != tuple(field_ids.shape) or \
                tuple(input_values.shape) != tuple(field_ids.shape):
            raise ShapeError("inputs differ in shape", op="MultiFieldEmbeddingLookup",
                             expected="input_indices, input_values, field_ids all (batch, seq)",
                             got=[tuple(t.shape) for t in (input_indices, input_values,
                                                           field_ids)])
        rows = super().construct(input_indices)                          # (B, S, E)
        rows = ops.mul(rows, ops.expand_dims(ops.cast(input_values, rows.dtype), 2))
        member = ops.one_hot(ops.cast(field_ids, "int64"), self.field_size, rows.dtype)
        if self.operator == "MAX":  # (B, F, S, E) masked max
            masked = ops.where(ops.expand_dims(ops.transpose(ops.greater(member, 0.0),
                                                             (0, 2, 1)), 3),
                               ops.expand_dims(rows, 1), -3.0e38)
            out = ops.max(masked, 2)
            return ops.where(ops.greater(out, -1.0e38), out, ops.mul(out, 0.0))
        out = ops.einsum("bsf,bse->bfe", member, rows)
        if self.operator == "MEAN":
            count = ops.maximum(ops.sum(member, 1), 1.0)                  # (B, F)
            out = ops.div(out, ops.expand_dims(count, 2))
        return out
