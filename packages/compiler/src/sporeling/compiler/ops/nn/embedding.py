"""embedding: rows of a table picked by integer indices.

``embedding(indices, table)`` gathers; its table gradient is ``embedding_grad`` (a
scatter-add of the cotangent rows into a zero table, skipping ``padding_idx``), whose own
backward gathers again -- the pair closes under differentiation.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError

from ...core import Aval, Primitive, bind, def_backward
from ...core.sharding import OpDims, labels, shape_of
from .._batching import at_front, batch_size, reshape, to_front
from .._util import as_operand

__all__ = ["embedding"]

embedding_p = Primitive("embedding")
embedding_grad_p = Primitive("embedding_grad")


def _check_indices(op, indices):
    if np.dtype(indices.dtype).kind not in "iu":
        raise DTypeError("indices must be integers", op=op, expected="an integer dtype",
                         got=np.dtype(indices.dtype))


@embedding_p.def_abstract_eval
def _embedding_aval(indices, table, *, padding_idx):
    _check_indices("embedding", indices)
    if len(table.shape) != 2:
        raise ShapeError("table must be 2-d", op="embedding",
                         expected="(num_embeddings, embedding_dim)", got=tuple(table.shape))
    return Aval(tuple(indices.shape) + (table.shape[1],), table.dtype)


@embedding_grad_p.def_abstract_eval
def _embedding_grad_aval(indices, g, *, num_embeddings, padding_idx):
    _check_indices("embedding_grad", indices)
    if tuple(g.shape[:-1]) != tuple(indices.shape):
        raise ShapeError("gradient rows do not match the indices", op="embedding_grad",
                         expected=f"shape {tuple(indices.shape)} + (dim,)", got=tuple(g.shape))
    return Aval((num_embeddings, g.shape[-1]), g.dtype)


@def_backward(embedding_p, uses=(0,))
def _embedding_bwd(ct, indices, table, *, out, padding_idx):
    return None, bind(embedding_grad_p, indices, ct, num_embeddings=table.shape[0],
                      padding_idx=padding_idx)


@def_backward(embedding_grad_p, uses=(0,))
def _embedding_grad_bwd(ct, indices, g, *, out, num_embeddings, padding_idx):
    gathered = bind(embedding_p, indices, ct, padding_idx=padding_idx)
    if padding_idx is not None:  # the padding row got nothing, so it gives nothing back
        from ..comparison import equal
        from ..dtype import cast
        from ..elementwise import mul, sub
        from ..shape import reshape
        keep = sub(1.0, cast(equal(indices, np.asarray(padding_idx, indices.dtype)),
                             gathered.dtype))
        gathered = mul(gathered, reshape(keep, tuple(indices.shape) + (1,)))
    return None, gathered


def embedding(input, weight, padding_idx=None):
    """Rows ``weight[input]``: ``input`` int indices of any shape, ``weight`` the
    (num_embeddings, dim) table. Row ``padding_idx`` gets no gradient.

        >>> import numpy as np
        >>> embedding(np.array([[2, 0]]), np.arange(6, dtype=np.float32).reshape(3, 2))
        array([[[4., 5.],
                [0., 1.]]], dtype=float32)
    """
    indices, table = as_operand(input), as_operand(weight)
    _embedding_aval(indices, table, padding_idx=None)
    if padding_idx is not None:
        rows = table.shape[0]
        if not -rows <= padding_idx < rows:
            raise ShapeError("padding_idx out of range", op="embedding",
                             expected=f"in [-{rows}, {rows})", got=padding_idx)
        padding_idx = int(padding_idx) % rows
    return bind(embedding_p, indices, table, padding_idx=padding_idx)


# ---- vmap and sharding rules ----------------------------------------------------------------

@embedding_p.def_batching
def _embedding_batching(args, dims, *, padding_idx):
    from ..indexing import OPERAND, getitem_p
    (idx, table), (di, dt) = args, dims
    if dt is None:  # rows of a shared table: the index axes, batch among them, stay put
        return bind(embedding_p, idx, table, padding_idx=padding_idx), di
    # a table per example (padding_idx only shapes gradients, which this form ignores)
    size = batch_size(args, dims)
    idx, table = at_front(idx, di, size), to_front(table, dt)
    rows = np.arange(size).reshape((size,) + (1,) * (len(idx.shape) - 1))
    return bind(getitem_p, table, rows, idx, key=(OPERAND, OPERAND)), 0


@embedding_grad_p.def_batching
def _embedding_grad_batching(args, dims, *, num_embeddings, padding_idx):
    # per example, a table gradient: offset example b's indices by b * num_embeddings and
    # scatter into one (B * num_embeddings, D) table
    from ..comparison import not_equal
    from ..dtype import cast
    from ..elementwise import add, mul
    size = batch_size(args, dims)
    idx, g = (at_front(a, d, size) for a, d in zip(args, dims))
    if padding_idx is not None:
        keep = cast(not_equal(idx, np.asarray(padding_idx, idx.dtype)), g.dtype)
        g = mul(g, reshape(keep, tuple(keep.shape) + (1,)))
    offsets = (np.arange(size) * num_embeddings).astype(idx.dtype)
    idx = add(idx, offsets.reshape((size,) + (1,) * (len(idx.shape) - 1)))
    flat = bind(embedding_grad_p, reshape(idx, (-1,)), reshape(g, (-1, g.shape[-1])),
                num_embeddings=size * num_embeddings, padding_idx=None)
    return reshape(flat, (size, num_embeddings, g.shape[-1])), 0


def _embedding_local(eq, info, indices, table):
    """This device's rows of the table answer the indices that fall in them; the others
    give zeros, and the sum over the row-splitting devices is the lookup."""
    from ..elementwise import mul
    rows = table.shape[0]
    start = info.block_start(1, 0) if info is not None else 0
    local = np.asarray(indices) - start  # indices are data, never differentiated
    inside = (local >= 0) & (local < rows)
    out = bind(embedding_p, np.where(inside, local, 0).astype(np.asarray(indices).dtype),
               table, padding_idx=None)
    return mul(out, inside[..., None].astype(eq.outputs[0].aval.dtype))


@embedding_p.def_sharding_rule
def _embedding_sharding(eq):
    """The index axes split; split table rows give partial lookups to be summed."""
    idx = labels(len(shape_of(eq.inputs[0])), "i")
    return OpDims([idx, ("v", "e")], [idx + ("e",)], set(), {"v": "sum"},
                  local=_embedding_local)
