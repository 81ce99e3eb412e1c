"""embedding kernels: gather rows, and scatter-add rows back (sorted segment sums, much
faster than ``np.add.at``)."""
from __future__ import annotations

import numpy as np

from ..table import define, output


@define("embedding")
def embedding(backend, indices, table, out=None, *, padding_idx):
    y = output(backend, out, tuple(indices.shape) + (table.shape[1],), table.dtype)
    return np.take(table, indices, axis=0, out=y)


@define("embedding_grad")
def embedding_grad(backend, indices, g, out=None, *, num_embeddings, padding_idx):
    """Rows of ``g`` summed into a zero (num_embeddings, dim) table at ``indices``."""
    flat = np.asarray(indices).ravel()
    rows = g.reshape(flat.size, g.shape[-1])
    dw = output(backend, out, (num_embeddings, g.shape[-1]), g.dtype)
    dw.fill(0)
    if flat.size:
        if flat.min() < -num_embeddings or flat.max() >= num_embeddings:
            raise IndexError(f"index out of range for {num_embeddings} rows")
        flat = flat % num_embeddings
        order = np.argsort(flat, kind="stable")
        ordered = flat[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        dw[ordered[starts]] = np.add.reduceat(rows[order], starts, axis=0)
    if padding_idx is not None:
        dw[padding_idx] = 0
    return dw
