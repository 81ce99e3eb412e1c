"""Containers of Cells: ``SequentialCell``, ``CellList``, ``CellDict`` (MindSpore's names for
PyTorch's ``Sequential``, ``ModuleList``, ``ModuleDict``).

    >>> from sporeling.expression import nn
    >>> seq = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU())
    >>> seq.append(nn.Dense(3, 1))
    SequentialCell<
      (0): Dense<input_channels=2, output_channels=3, has_bias=True>
      (1): ReLU<>
      (2): Dense<input_channels=3, output_channels=1, has_bias=True>
      >
    >>> len(seq), type(seq[1:]).__name__
    (3, 'SequentialCell')
"""
from __future__ import annotations

from collections import OrderedDict

from .cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(owner: str, cell) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"{owner}: expected a Cell, got {type(cell).__name__}")
    return cell


class _IndexedCells(Cell):
    """Cells stored under the attribute names ``"0"``, ``"1"``, ... (kept contiguous)."""

    def _index(self, index: int) -> int:
        n = len(self._cells)
        if not -n <= index < n:
            raise IndexError(f"{type(self).__name__}: index {index} out of range for "
                             f"{n} cells")
        return index % n

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):  # a view: the parameters keep their names
            names = [(p, p.name) for c in cells[index] for p in c.get_parameters()]
            view = type(self)(cells[index])
            for p, name in names:
                p.name = name
            return view
        return cells[self._index(index)]

    def __setitem__(self, index: int, cell) -> None:
        setattr(self, str(self._index(index)), _check_cell(type(self).__name__, cell))

    def __delitem__(self, index) -> None:
        cells = list(self._cells.values())
        if isinstance(index, slice):
            del cells[index]
        else:
            del cells[self._index(index)]
        self._reset(cells)

    def _reset(self, cells) -> None:
        for name in list(self._cells):
            delattr(self, name)
        for i, cell in enumerate(cells):
            setattr(self, str(i), _check_cell(type(self).__name__, cell))

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell) -> "_IndexedCells":
        """Add ``cell`` at the end."""
        setattr(self, str(len(self._cells)), _check_cell(type(self).__name__, cell))
        return self

    def extend(self, cells) -> "_IndexedCells":
        """Add each of ``cells`` at the end."""
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index: int, cell) -> None:
        """Put ``cell`` before position ``index``."""
        cells = list(self._cells.values())
        cells.insert(index, _check_cell(type(self).__name__, cell))
        self._reset(cells)


class SequentialCell(_IndexedCells):
    """Cells applied one after another: ``SequentialCell(a, b)``, ``SequentialCell([a, b])``
    or ``SequentialCell(OrderedDict(name=cell))`` (then the names are the attribute names)."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (dict, OrderedDict)):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell("SequentialCell", cell))
            return
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        for cell in args:
            self.append(cell)

    def append(self, cell) -> "SequentialCell":
        """Add ``cell`` at the end (named by its position)."""
        setattr(self, str(len(self._cells)), _check_cell("SequentialCell", cell))
        return self

    def construct(self, x):
        for cell in self._cells.values():
            x = cell(x)
        return x


class CellList(_IndexedCells):
    """A list of Cells registered as sub-cells (so their parameters are found); it has no
    ``construct`` of its own -- iterate over it."""

    def __init__(self, *args):
        super().__init__()
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        for cell in cells:
            self.append(cell)


class CellDict(Cell):
    """A dict of Cells registered as sub-cells, in insertion order."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(dict(*args, **kwargs))

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell) -> None:
        self.insert_child_to_cell(key, _check_cell("CellDict", cell))

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __contains__(self, key: str) -> bool:
        return key in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def keys(self):
        """The names, in insertion order."""
        return self._cells.keys()

    def values(self):
        """The cells, in insertion order."""
        return self._cells.values()

    def items(self):
        """``(name, cell)`` pairs, in insertion order."""
        return self._cells.items()

    def update(self, cells) -> None:
        """Add or replace cells from a mapping or ``(name, cell)`` pairs."""
        pairs = cells.items() if hasattr(cells, "items") else cells
        for key, cell in pairs:
            self[key] = cell

    def pop(self, key: str) -> Cell:
        """Remove ``key`` and return its cell."""
        cell = self._cells[key]
        del self[key]
        return cell

    def clear(self) -> None:
        """Remove every cell."""
        for key in list(self._cells):
            del self[key]
