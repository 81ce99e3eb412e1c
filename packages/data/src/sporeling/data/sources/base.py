"""``SourceDataset``: a random-access source read through a sampler, with a skip policy.

Subclasses implement ``_len()`` and ``_read(i)`` (row ``i`` as a tuple of arrays, raising
:class:`~sporeling.data.CorruptSampleError` naming the file/row when it cannot). The
MindSpore-style arguments pick the sampler: ``sampler=`` explicitly, else ``num_shards``/
``shard_id`` (a :class:`DistributedSampler`), else ``shuffle`` (a :class:`RandomSampler`;
MindSpore's default when ``shuffle`` is None) or sequential order; ``num_samples`` caps it.
With none of ``sampler``/``num_shards``/``shard_id`` given, a plugin answering the
``sporeling_data_shard`` hook (``sporeling.parallel`` in ``data_parallel`` mode) picks this
rank's shard: data parallel training shards its data by rank on its own.
"""
from __future__ import annotations

import copy

from sporeling.core import get_plugin_host

from ..dataset import Dataset
from ..errors import CorruptSampleError, DataError
from ..samplers import (DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                        SubsetSampler)

__all__ = ["SourceDataset", "check_on_error"]


def check_on_error(on_error: str, op: str) -> str:
    if on_error not in ("raise", "skip"):
        raise DataError("bad on_error", op=op, expected="'raise' or 'skip'", got=repr(on_error))
    return on_error


def make_sampler(op: str, num_samples, shuffle, sampler, num_shards, shard_id) -> Sampler:
    if sampler is not None:
        if not isinstance(sampler, Sampler):
            try:  # MindSpore also takes an iterable of indices (a list, a __getitem__ class)
                sampler = SubsetSampler([int(i) for i in sampler])
            except (TypeError, ValueError):
                raise DataError("bad sampler", op=op, expected="a sporeling.data Sampler "
                                "or an iterable of indices",
                                got=type(sampler).__name__) from None
        if shuffle or num_shards is not None:
            raise DataError("sampler given with shuffle or num_shards", op=op,
                            expected="either a sampler or shuffle/num_shards/shard_id")
        return sampler
    if (num_shards is None) != (shard_id is None):
        raise DataError("num_shards and shard_id go together", op=op,
                        expected="both or neither", got=f"num_shards={num_shards!r}, "
                        f"shard_id={shard_id!r}")
    shuffle = True if shuffle is None else bool(shuffle)
    if num_shards is None:
        num_shards, shard_id = _plugin_shard()
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    if shuffle:
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)


def _plugin_shard() -> tuple:
    """``(num_shards, shard_id)`` from a plugin answering ``sporeling_data_shard`` (data
    parallelism: one shard per rank), or ``(None, None)``: read everything."""
    caller = getattr(get_plugin_host().hook, "sporeling_data_shard", None)
    found = None if caller is None else caller()
    if found is None or found[0] <= 1:
        return None, None
    return found


class SourceDataset(Dataset):
    """A dataset read by index; see the module docstring for the sampling arguments."""

    fork_safe = True   # process workers may read it themselves (see ops/map_op.py)

    def __init__(self, column_names, *, num_samples=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, on_error: str = "raise"):
        op = type(self).__name__
        self.column_names = list(column_names)
        self.sampler = make_sampler(op, num_samples, shuffle, sampler, num_shards, shard_id)
        self.on_error = check_on_error(on_error, op)
        self.skipped: dict[str, str] = {}

    def _len(self) -> int:
        raise NotImplementedError

    def _read(self, index: int) -> tuple:
        raise NotImplementedError

    def __len__(self) -> int:
        """Samples in the source (before sampling)."""
        return self._len()

    def __getitem__(self, index: int) -> tuple:
        """Row ``index`` of the source, whatever the sampler."""
        n = self._len()
        if not -n <= index < n:
            raise DataError("index out of range", op=type(self).__name__,
                            expected=f"-{n} <= index < {n}", got=index)
        return self._read(index % n)

    @property
    def num_skipped(self) -> int:
        """Samples dropped so far by ``on_error="skip"`` (``skipped`` names them)."""
        return len(self.skipped)

    def _indices(self, epoch: int):
        return self.sampler.indices(self._len(), epoch)

    def _read_or_skip(self, index: int):
        """Row ``index``, or ``None`` when it is corrupt and the policy is to skip."""
        try:
            return self._read(index)
        except CorruptSampleError as exc:
            if self.on_error != "skip":
                raise
            self.skipped[exc.where or f"sample {index}"] = exc.detail
            return None

    def _rows(self, run, epoch):
        read = self._read_or_skip
        for i in self._indices(epoch).tolist():
            row = read(i)
            if row is not None:
                yield row

    def _indexed_rows(self, run, epoch):
        """``(source index, row)`` pairs: what ``map`` reads, to name a failing sample by
        its row in the source rather than by its (shuffled) position."""
        read = self._read_or_skip
        for i in self._indices(epoch).tolist():
            row = read(i)
            if row is not None:
                yield i, row

    def describe(self, index: int) -> str | None:
        """Where row ``index`` lives (a file, ``file:line``), for error messages; None when
        the source has nothing to add to the index."""
        return None

    def _size(self) -> int:
        return self.sampler.num_samples(self._len())

    def _with_sampler(self, sampler: Sampler) -> "SourceDataset":
        clone = copy.copy(self)
        clone.sampler, clone._epoch = sampler, 0
        clone.skipped = self.skipped
        return clone
