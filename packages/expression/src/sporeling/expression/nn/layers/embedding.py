"""``Embedding``: a lookup table of vectors indexed by integer ids."""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import DTypeError, SporelingError, dtypes
from sporeling.core.arguments import check_int

from ..cell import Cell
from ._params import make_param

__all__ = ["Embedding"]


class Embedding(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) for integer ids of any shape;
    the output has shape ``ids.shape + (embedding_size,)``.

    MindSpore's defaults: the table is initialised ``Normal(0.01)`` (``"normal"``; PyTorch
    uses ``N(0, 1)``); row ``padding_idx`` starts at zero and gets no gradient;
    ``use_one_hot`` computes ``one_hot(ids) @ table`` instead of a gather.

        >>> import numpy as np
        >>> from sporeling.expression import nn
        >>> emb = nn.Embedding(10, 4, padding_idx=0)
        >>> emb(np.array([[0, 3]])).shape, float(abs(emb(np.array([0]))).sum())
        ((1, 2, 4), 0.0)
    """

    def __init__(self, vocab_size, embedding_size, use_one_hot=False,
                 embedding_table="normal", dtype="int32", padding_idx=None):
        super().__init__()
        self.vocab_size = check_int(vocab_size, "vocab_size", op="Embedding", min=1)
        self.embedding_size = check_int(embedding_size, "embedding_size", op="Embedding", min=1)
        self.use_one_hot, self.dtype = bool(use_one_hot), dtypes.dtype(dtype)
        if padding_idx is not None:
            padding_idx = check_int(padding_idx, "padding_idx", op="Embedding")
            if not -self.vocab_size <= padding_idx < self.vocab_size:
                raise SporelingError("padding_idx out of range", op="Embedding",
                                     expected=f"in [-{vocab_size}, {vocab_size})",
                                     got=padding_idx)
            padding_idx %= self.vocab_size
        self.padding_idx = padding_idx
        table = make_param(embedding_table, (self.vocab_size, self.embedding_size),
                           "embedding_table")
        if padding_idx is not None:
            data = table.asnumpy().copy()
            data[padding_idx] = 0
            table.set_data(data)
        self.embedding_table = table

    def construct(self, ids):
        if not dtypes.is_integer(ids.dtype):
            raise DTypeError("ids must be integers", op="Embedding",
                             expected="an integer tensor", got=str(ids.dtype))
        if self.use_one_hot:
            hot = ops.one_hot(ids, self.vocab_size, self.embedding_table.dtype)
            return ops.matmul(hot, self.embedding_table)
        return ops.embedding(ids, self.embedding_table, self.padding_idx)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, padding_idx={self.padding_idx}")
