"""Operations over several datasets: zip (side by side) and concat (one after another)."""
from __future__ import annotations

from ..dataset import Dataset
from ..errors import DataError

__all__ = ["Zip", "Concat"]


def _datasets(children, op: str) -> tuple:
    children = tuple(children)
    bad = [type(c).__name__ for c in children if not isinstance(c, Dataset)]
    if bad or len(children) < 2:
        raise DataError("bad datasets", op=op, expected="two or more sporeling.data datasets",
                        got=bad or len(children))
    return children


class Zip(Dataset):
    def __init__(self, children):
        self._children = _datasets(children, "zip")
        names = [n for c in self._children for n in c.column_names]
        if len(set(names)) != len(names):
            raise DataError("zipped datasets share a column name", op="zip",
                            expected="distinct names", got=names,
                            hint="rename the columns of one dataset first")
        self.column_names = names

    def _rows(self, run, epoch):
        for rows in zip(*(run.rows(c, epoch) for c in self._children)):
            yield tuple(col for row in rows for col in row)

    def _size(self):
        sizes = [c._size() for c in self._children]
        return None if None in sizes else min(sizes)


class Concat(Dataset):
    def __init__(self, children):
        self._children = _datasets(children, "concat")
        names = self._children[0].column_names
        for c in self._children[1:]:
            if c.column_names != names:
                raise DataError("concatenated datasets have different columns", op="concat",
                                expected=names, got=c.column_names)
        self.column_names = list(names)

    def _rows(self, run, epoch):
        for c in self._children:
            yield from run.rows(c, epoch)

    def _size(self):
        sizes = [c._size() for c in self._children]
        return None if None in sizes else sum(sizes)
