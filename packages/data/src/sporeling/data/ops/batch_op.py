"""``batch``: stack rows into batches, with padding and a per-batch map."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import UnaryOp, check_count, column_indices

__all__ = ["Batch", "BatchInfo", "stack_column", "check_pad_info"]


class BatchInfo:
    """What ``per_batch_map`` learns about the batch: its number in the epoch and the epoch."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch, self._epoch = batch_num, epoch_num

    def get_batch_num(self) -> int:
        return self._batch

    def get_epoch_num(self) -> int:
        return self._epoch


def check_pad_info(pad_info, names: list[str], op: str) -> dict:
    if pad_info is None:
        return {}
    if not isinstance(pad_info, dict):
        raise DataError("bad pad_info", op=op, expected="{column: (shape or None, value)}",
                        got=type(pad_info).__name__)
    column_indices(names, list(pad_info), op)
    out = {}
    for name, spec in pad_info.items():
        shape, value = (None, 0) if spec is None else spec
        out[name] = (None if shape is None else tuple(shape), value)
    return out


def stack_column(values: list, name: str, pad=None, op: str = "batch") -> np.ndarray:
    """``values`` stacked along a new first axis; with ``pad=(shape, value)`` each is first
    padded at the end of every axis to ``shape`` (``None`` entries: the largest). Dicts
    (dict columns) stack key by key into a dict."""
    if isinstance(values[0], dict):
        return _stack_dicts(values, name, pad, op)
    arrays = [v if isinstance(v, np.ndarray) else np.asarray(v) for v in values]
    if pad is None:
        first = arrays[0].shape
        if any(a.shape != first for a in arrays):
            shapes = sorted({a.shape for a in arrays}, key=str)
            raise DataError(f"column {name!r} has elements of different shapes", op=op,
                            expected="one shape per column", got=shapes[:4],
                            hint=f"pad with pad_info={{{name!r}: (None, 0)}}")
        return np.stack(arrays)
    shape, value = pad
    ndim = arrays[0].ndim
    if any(a.ndim != ndim for a in arrays):
        raise DataError(f"column {name!r} mixes ranks", op=op, expected=f"rank {ndim}",
                        got=sorted({a.ndim for a in arrays}))
    largest = np.max([a.shape for a in arrays], axis=0) if ndim else ()
    target = tuple(int(m) if s is None else int(s)
                   for s, m in zip(shape or (None,) * ndim, largest))
    if len(target) != ndim:
        raise DataError(f"pad shape for {name!r} has the wrong rank", op=op,
                        expected=f"{ndim} entries", got=shape)
    out = np.full((len(arrays),) + target, value, dtype=arrays[0].dtype)
    for i, a in enumerate(arrays):
        if any(d > t for d, t in zip(a.shape, target)):
            raise DataError(f"an element of {name!r} is larger than its pad shape", op=op,
                            expected=f"at most {target}", got=a.shape)
        out[(i,) + tuple(slice(0, d) for d in a.shape)] = a
    return out


def _stack_dicts(values: list, name: str, pad, op: str) -> dict:
    keys = list(values[0])
    for v in values:
        if not isinstance(v, dict) or list(v) != keys:
            raise DataError(f"column {name!r} mixes dicts of different keys (or a dict and "
                            "another value)", op=op, expected=f"dicts with keys {keys}",
                            got=list(v) if isinstance(v, dict) else type(v).__name__)
    return {k: stack_column([v[k] for v in values], f"{name}[{k!r}]", pad, op) for k in keys}


class Batch(UnaryOp):
    def __init__(self, child, batch_size, drop_remainder, per_batch_map, input_columns,
                 output_columns, pad_info):
        super().__init__(child)
        self.batch_size = check_count(batch_size, "batch_size", "batch", 1)
        self.drop_remainder = bool(drop_remainder)
        names = child.column_names
        pads = check_pad_info(pad_info, names, "batch")
        self.pads = [pads.get(n) for n in names]
        self.per_batch_map = per_batch_map
        if per_batch_map is not None and not callable(per_batch_map):
            raise DataError("per_batch_map is not callable", op="batch",
                            expected="a function(*columns, batch_info)",
                            got=type(per_batch_map).__name__)
        self.inputs = column_indices(names, input_columns, "batch") if input_columns \
            else list(range(len(names)))
        outputs = output_columns or [names[i] for i in self.inputs]
        if per_batch_map is None and (input_columns or output_columns):
            raise DataError("input_columns/output_columns need per_batch_map", op="batch",
                            expected="per_batch_map=function")
        keep = [n for i, n in enumerate(names) if i not in self.inputs]
        at = min(self.inputs)
        before = [n for n in names[:at] if n in keep]
        self.column_names = before + list(outputs) + [n for n in keep if n not in before]
        self.n_out = len(outputs)

    def _make(self, rows: list, number: int, epoch: int) -> tuple:
        names = self.child.column_names
        return self._finish([stack_column([r[c] for r in rows], names[c], self.pads[c])
                             for c in range(len(names))], number, epoch)

    def _finish(self, cols: list, number: int, epoch: int) -> tuple:
        if self.per_batch_map is None:
            return tuple(cols)
        from .map_op import as_columns, call_user
        result = call_user(self.per_batch_map,
                           tuple(cols[i] for i in self.inputs) + (BatchInfo(number, epoch),),
                           number, epoch, "batch per_batch_map")
        result = as_columns(result, self.n_out, "batch per_batch_map")
        keep = [cols[i] for i in range(len(cols)) if i not in self.inputs]
        at = min(self.inputs)
        nbefore = sum(1 for i in range(at) if i not in self.inputs)
        return tuple(keep[:nbefore]) + result + tuple(keep[nbefore:])

    def _rows(self, run, epoch):
        size = self.batch_size
        gather = None if any(self.pads) else self.child._gatherer()
        if gather is not None:  # rows of an in-memory source: one indexing per column
            indices = np.asarray(run.indices(self.child, epoch), dtype=np.intp)
            stop = len(indices) - len(indices) % size if self.drop_remainder else len(indices)
            for number, start in enumerate(range(0, stop, size)):
                yield self._finish(list(gather(indices[start:start + size])), number, epoch)
            return
        rows, number = [], 0
        for row in run.rows(self.child, epoch):
            rows.append(row)
            if len(rows) == size:
                yield self._make(rows, number, epoch)
                rows, number = [], number + 1
        if rows and not self.drop_remainder:
            yield self._make(rows, number, epoch)

    def _size(self):
        size = self.child._size()
        if size is None:
            return None
        return size // self.batch_size if self.drop_remainder else -(-size // self.batch_size)
