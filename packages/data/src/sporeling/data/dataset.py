"""``Dataset``: the base of every source and operation, and the chainable API.

A pipeline is a tree of datasets: sources at the leaves, each operation wrapping the
dataset(s) it reads. Nothing runs until it is iterated. Every row is a tuple of NumPy arrays
(one per column). Iterating a dataset (``for row in ds``) runs one epoch of tuples; each new
iteration is the next epoch (new shuffle order, new augmentations), so the dataset itself
is what ``Model.train`` takes::

    >>> import numpy as np
    >>> from sporeling.data import NumpySlicesDataset
    >>> ds = NumpySlicesDataset((np.arange(6), np.arange(6) % 2), column_names=["x", "y"],
    ...                         shuffle=False)
    >>> ds = ds.filter(lambda y: y == 0, input_columns=["y"]).map(lambda x: x * 10, ["x"])
    >>> [(int(x), int(y)) for x, y in ds]
    [(0, 0), (20, 0), (40, 0)]
    >>> ds.get_dataset_size(), ds.get_col_names()
    (3, ['x', 'y'])
"""
from __future__ import annotations

from .errors import DataError

__all__ = ["Dataset"]


def _names(columns, what: str, op: str) -> list[str] | None:
    if columns is None:
        return None
    names = [columns] if isinstance(columns, str) else list(columns)
    if not names or not all(isinstance(n, str) for n in names):
        raise DataError(f"bad {what}", op=op, expected="a column name or a list of names",
                        got=repr(columns))
    return names


class Dataset:
    """Base class: subclasses set ``column_names`` and ``_children`` and implement
    ``_rows(run, epoch)`` (a generator of row tuples) and ``_size()`` (rows per epoch, or
    ``None`` when only iterating can tell)."""

    column_names: list[str]
    _children: tuple = ()

    def _rows(self, run, epoch: int):
        raise NotImplementedError(f"{type(self).__name__} does not define _rows")

    def _size(self) -> int | None:
        return None

    def _gatherer(self):
        """``gather(indices) -> columns`` (each column the rows at those source indices,
        stacked) when this node's rows are an in-memory source's rows picked by index,
        else None. A batch over such a node takes each batch with one indexing per column
        (from :meth:`_row_indices`) instead of stacking rows one by one."""
        return None

    def _row_indices(self, run, epoch: int) -> list:
        """The source indices of ``epoch``'s rows, in order (where :meth:`_gatherer` is
        not None)."""
        raise NotImplementedError(f"{type(self).__name__} does not pick rows by index")

    # -- epochs ----------------------------------------------------------------------------
    def _next_epoch(self) -> int:
        epoch = getattr(self, "_epoch", 0)
        self._epoch = epoch + 1
        return epoch

    def reset(self) -> None:
        """Start again from epoch 0: the next iteration repeats the first epoch's order and
        augmentations (with the same seeds)."""
        self._epoch = 0

    def state_dict(self) -> dict:
        """Where iteration stands -- the next epoch's number and every random operation's
        seed -- as JSON-able data, for :meth:`load_state_dict` (see
        :mod:`sporeling.data.iteration_state`)."""
        from .iteration_state import iteration_state
        return iteration_state(self)

    def load_state_dict(self, state: dict) -> None:
        """Continue from ``state`` (from :meth:`state_dict` of a pipeline built the same
        way): the next iteration runs the epoch it names, in the order it had."""
        from .iteration_state import load_iteration_state
        load_iteration_state(self, state)

    # -- inspection ------------------------------------------------------------------------
    def get_col_names(self) -> list[str]:
        """The columns' names, in row order."""
        return list(self.column_names)

    def get_dataset_size(self) -> int:
        """Rows (batches, after ``batch``) per epoch. Computed from the sources where the
        operations allow it; otherwise (``filter``, an iterable generator) by running one
        epoch once and remembering the count."""
        size = self._size()
        if size is None:
            size = getattr(self, "_counted_size", None)
            if size is None:
                size = self._counted_size = sum(1 for _ in self._one_epoch(0))
        return size

    def _one_epoch(self, epoch: int):
        """Rows of ``epoch`` without advancing the dataset's epoch counter."""
        from .engine import Run
        run = Run(self)
        try:
            yield from run.rows(self, epoch)
        finally:
            run.close()

    def _first_row(self):
        rows = self._one_epoch(0)
        try:
            return next(rows)
        except StopIteration:
            raise DataError("the dataset yields no rows", op="output_shapes",
                            expected="at least one row") from None
        finally:
            rows.close()

    def output_shapes(self) -> list[list[int]]:
        """Each column's shape, read from the first row of epoch 0."""
        return [list(getattr(c, "shape", ())) for c in self._first_row()]

    def output_types(self) -> list:
        """Each column's NumPy dtype, read from the first row of epoch 0."""
        import numpy as np
        return [np.asarray(c).dtype for c in self._first_row()]

    def profile_report(self):
        """Per-operation timing of the latest iteration of this dataset (see
        :mod:`sporeling.data.profiling`)."""
        from .engine import report_of
        profile = getattr(self, "_last_profile", None)
        if profile is None:
            raise DataError("no iteration to report on", op="profile_report",
                            expected="a dataset iterated at least once")
        return report_of(profile)

    # -- iteration -------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs: int = -1,
                              output_numpy: bool = True, do_copy: bool = True):
        """An iterator of row tuples for ``num_epochs`` epochs (``-1``: no limit).

        Rows are always NumPy arrays, which every Sporeling API accepts; ``output_numpy``
        and ``do_copy`` are accepted for MindSpore compatibility and change nothing.
        """
        from .iterators import TupleIterator
        return TupleIterator(self, columns, num_epochs)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = True,
                             do_copy: bool = True):
        """An iterator of ``{column: array}`` dicts for ``num_epochs`` epochs."""
        from .iterators import DictIterator
        return DictIterator(self, None, num_epochs)

    def __iter__(self):
        from .iterators import TupleIterator
        return TupleIterator(self, None, 1)

    # -- operations ------------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers: int | None = None, python_multiprocessing: bool = False,
            chunk_size: int | None = None, start_method: str | None = None):
        """Apply ``operations`` (a callable or a list applied in turn) to ``input_columns``
        (default: the first column); results replace them as ``output_columns``.

        ``num_parallel_workers`` threads (or processes with ``python_multiprocessing=True``;
        arrays travel through shared memory) work on chunks of ``chunk_size`` rows; the
        output order and every random draw are the same for any number of workers.
        """
        from .ops.map_op import Map
        return Map(self, operations, _names(input_columns, "input_columns", "map"),
                   _names(output_columns, "output_columns", "map"), num_parallel_workers,
                   python_multiprocessing, chunk_size, start_method)

    def batch(self, batch_size: int, drop_remainder: bool = False, per_batch_map=None,
              input_columns=None, output_columns=None, pad_info: dict | None = None):
        """Stack ``batch_size`` rows per column. ``pad_info={column: (shape, value)}`` pads
        elements to ``shape`` (``None`` entries: the batch's largest) first;
        ``per_batch_map(*columns, batch_info)`` then transforms whole batches."""
        from .ops.batch_op import Batch
        return Batch(self, batch_size, drop_remainder, per_batch_map,
                     _names(input_columns, "input_columns", "batch"),
                     _names(output_columns, "output_columns", "batch"), pad_info)

    def padded_batch(self, batch_size: int, drop_remainder: bool = False, pad_info=None):
        """``batch`` with padding (every column padded to the batch's largest shape when
        ``pad_info`` is None)."""
        if pad_info is None:
            pad_info = {name: (None, 0) for name in self.column_names}
        return self.batch(batch_size, drop_remainder, pad_info=pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary: bool = False,
                               drop_remainder: bool = False):
        """Group rows by length into buckets ``[0, b0), [b0, b1), ..., [bn, inf)`` and batch
        each bucket with its own size (MindSpore's semantics)."""
        from .ops.bucket import BucketBatch
        return BucketBatch(self, _names(column_names, "column_names", "bucket_batch_by_length"),
                           bucket_boundaries, bucket_batch_sizes, element_length_function,
                           pad_info, pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size: int, seed: int | None = None):
        """Shuffle through a buffer of ``buffer_size`` rows (a full shuffle when it holds the
        whole dataset); a different order every epoch, the same for the same seed."""
        from .ops.shuffle import Shuffle
        return Shuffle(self, buffer_size, seed)

    def repeat(self, count: int | None = None):
        """The rows ``count`` times per epoch (``None`` or ``-1``: forever); each repetition
        is its own epoch for the operations upstream."""
        from .ops.simple import Repeat
        return Repeat(self, count)

    def take(self, count: int = -1):
        """The first ``count`` rows (``-1``: all)."""
        from .ops.simple import Take
        return Take(self, count)

    def skip(self, count: int):
        """All rows but the first ``count``."""
        from .ops.simple import Skip
        return Skip(self, count)

    def filter(self, predicate, input_columns=None):
        """The rows for which ``predicate(*columns)`` is true."""
        from .ops.simple import Filter
        return Filter(self, predicate, _names(input_columns, "input_columns", "filter"))

    def project(self, columns):
        """Only ``columns``, in that order."""
        from .ops.simple import Project
        return Project(self, _names(columns, "columns", "project"))

    def rename(self, input_columns, output_columns):
        """Columns ``input_columns`` renamed to ``output_columns``."""
        from .ops.simple import Rename
        return Rename(self, _names(input_columns, "input_columns", "rename"),
                      _names(output_columns, "output_columns", "rename"))

    def zip(self, datasets):
        """Rows side by side (columns of ``self`` then of each of ``datasets``); stops at the
        shortest. Column names must be distinct."""
        from .ops.combine import Zip
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        return Zip([self] + others)

    def concat(self, datasets):
        """The rows of ``self`` then of each of ``datasets`` (same columns)."""
        from .ops.combine import Concat
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        return Concat([self] + others)

    def __add__(self, other):
        return self.concat(other)

    def split(self, sizes, randomize: bool = True):
        """Split into datasets of ``sizes`` (ints summing to the size, or fractions summing
        to 1). A source splits by sample (randomly with ``randomize``), so the parts never
        share a sample in any epoch; other pipelines split by position and need
        ``randomize=False``."""
        from .ops.split import split
        return split(self, sizes, randomize)
