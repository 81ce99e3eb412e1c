"""embedding kernels: gather rows, and scatter-add rows back (sorted segment sums, much
faster than ``np.add.at``)."""
from __future__ import annotations

import numpy as np

from sporeling.core import ArgumentError

from ..table import define, output, writes_out


def check_rows(op: str, flat, rows: int) -> None:
    """Every index picks a row of a ``rows``-row table (negative ones count from the end, as
    in NumPy), or an ArgumentError naming the first one that does not."""
    if flat.size and (flat.min() < -rows or flat.max() >= rows):
        bad = flat[(flat < -rows) | (flat >= rows)][0]
        raise ArgumentError("index out of range", op=op,
                            expected=f"indices in [-{rows}, {rows}) for a table of {rows} rows",
                            got=f"index {int(bad)}")


@define("embedding", memory=writes_out())
def embedding(backend, indices, table, out=None, *, padding_idx):
    check_rows("embedding", np.asarray(indices).ravel(), table.shape[0])
    y = output(backend, out, tuple(indices.shape) + (table.shape[1],), table.dtype)
    return np.take(table, indices, axis=0, out=y)


@define("embedding_grad", memory=writes_out())
def embedding_grad(backend, indices, g, out=None, *, num_embeddings, padding_idx):
    """Rows of ``g`` summed into a zero (num_embeddings, dim) table at ``indices``."""
    flat = np.asarray(indices).ravel()
    rows = g.reshape(flat.size, g.shape[-1])
    dw = output(backend, out, (num_embeddings, g.shape[-1]), g.dtype)
    dw.fill(0)
    if flat.size:
        check_rows("embedding_grad", flat, num_embeddings)
        flat = flat % num_embeddings
        order = np.argsort(flat, kind="stable")
        ordered = flat[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        dw[ordered[starts]] = np.add.reduceat(rows[order], starts, axis=0)
    if padding_idx is not None:
        dw[padding_idx] = 0
    return dw
