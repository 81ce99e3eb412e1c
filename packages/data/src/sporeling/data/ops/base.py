"""Shared pieces of the operations: the one-input base and column-index lookup."""
from __future__ import annotations

from ..dataset import Dataset
from ..errors import DataError

__all__ = ["UnaryOp", "column_indices", "check_count"]


def column_indices(names: list[str], wanted: list[str], op: str) -> list[int]:
    missing = [w for w in wanted if w not in names]
    if missing:
        raise DataError(f"unknown column(s) {missing}", op=op,
                        expected=f"names among {names}", got=wanted)
    if len(set(wanted)) != len(wanted):
        raise DataError("a column is named twice", op=op, expected="distinct names",
                        got=wanted)
    return [names.index(w) for w in wanted]


def check_count(value, what: str, op: str, minimum: int = 0, allow_all: bool = False) -> int:
    ok = not isinstance(value, bool) and isinstance(value, int) and \
        (value >= minimum or (allow_all and value == -1))
    if not ok:
        extra = " or -1 (all)" if allow_all else ""
        raise DataError(f"bad {what}", op=op, expected=f"an int >= {minimum}{extra}",
                        got=repr(value))
    return value


class UnaryOp(Dataset):
    """An operation reading one dataset, ``child``."""

    def __init__(self, child: Dataset, column_names=None):
        if not isinstance(child, Dataset):
            raise DataError("not a dataset", op=type(self).__name__,
                            expected="a sporeling.data Dataset", got=type(child).__name__)
        self.child = child
        self._children = (child,)
        self.column_names = list(child.column_names if column_names is None else column_names)

    def _size(self):
        return self.child._size()
