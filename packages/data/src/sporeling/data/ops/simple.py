"""Row-level operations without workers: repeat, take, skip, filter, project, rename."""
from __future__ import annotations

from ..errors import DataError
from .base import UnaryOp, check_count, column_indices

__all__ = ["Repeat", "Take", "Skip", "Filter", "Project", "Rename"]


class Repeat(UnaryOp):
    """``count`` passes over the child per epoch; pass ``r`` of epoch ``e`` is the child's
    epoch ``e * count + r`` (so shuffles and augmentations differ between passes)."""

    def __init__(self, child, count):
        super().__init__(child)
        count = -1 if count is None else count
        self.count = check_count(count, "count", "repeat", 1, allow_all=True)

    def _rows(self, run, epoch):
        r = 0
        while self.count == -1 or r < self.count:
            inner = epoch * self.count + r if self.count > 0 else (epoch << 20) + r
            produced = False
            for row in run.rows(self.child, inner):
                produced = True
                yield row
            if not produced:
                return  # an empty child would repeat forever
            r += 1

    def _size(self):
        size = self.child._size()
        if self.count == -1:
            return None if size else 0
        return None if size is None else size * self.count

    def get_dataset_size(self):
        if self.count == -1:
            raise DataError("an endless repeat has no size", op="get_dataset_size",
                            expected="a finite repeat count")
        return super().get_dataset_size()


class Take(UnaryOp):
    def __init__(self, child, count):
        super().__init__(child)
        self.count = check_count(count, "count", "take", 0, allow_all=True)

    def _rows(self, run, epoch):
        if self.count == -1:
            yield from run.rows(self.child, epoch)
            return
        if self.count == 0:
            return
        for n, row in enumerate(run.rows(self.child, epoch), 1):
            yield row
            if n >= self.count:
                return

    def _size(self):
        size = self.child._size()
        return size if self.count == -1 or size is None else min(size, self.count)


class Skip(UnaryOp):
    def __init__(self, child, count):
        super().__init__(child)
        self.count = check_count(count, "count", "skip", 0)

    def _rows(self, run, epoch):
        for n, row in enumerate(run.rows(self.child, epoch)):
            if n >= self.count:
                yield row

    def _size(self):
        size = self.child._size()
        return None if size is None else max(size - self.count, 0)


class Filter(UnaryOp):
    def __init__(self, child, predicate, input_columns):
        super().__init__(child)
        if not callable(predicate):
            raise DataError("predicate is not callable", op="filter",
                            expected="a function of the input columns returning a bool",
                            got=type(predicate).__name__)
        self.predicate = predicate
        self.pick = column_indices(self.column_names, input_columns, "filter") \
            if input_columns else list(range(len(self.column_names)))

    def _rows(self, run, epoch):
        from .map_op import call_user
        pick, pred = self.pick, self.predicate
        for n, row in enumerate(run.rows(self.child, epoch)):
            if bool(call_user(pred, tuple(row[i] for i in pick), n, epoch, "filter")):
                yield row

    def _size(self):
        return None


class Project(UnaryOp):
    def __init__(self, child, columns):
        super().__init__(child)
        self.pick = column_indices(child.column_names, columns, "project")
        self.column_names = list(columns)

    def _rows(self, run, epoch):
        pick = self.pick
        for row in run.rows(self.child, epoch):
            yield tuple(row[i] for i in pick)


class Rename(UnaryOp):
    def __init__(self, child, input_columns, output_columns):
        super().__init__(child)
        if len(input_columns) != len(output_columns):
            raise DataError("rename needs one new name per column", op="rename",
                            expected=f"{len(input_columns)} output names",
                            got=len(output_columns))
        idx = column_indices(child.column_names, input_columns, "rename")
        names = list(child.column_names)
        for i, new in zip(idx, output_columns):
            names[i] = new
        if len(set(names)) != len(names):
            raise DataError("renaming makes two columns share a name", op="rename",
                            expected="distinct names", got=names)
        self.column_names = names

    def _rows(self, run, epoch):
        return run.rows(self.child, epoch)
