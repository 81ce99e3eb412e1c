"""The data package's errors: a bad dataset or file, and a failure inside a worker."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["DataError", "WorkerError", "CorruptSampleError", "RecordError"]


class DataError(SporelingError, ValueError):
    """A dataset, file, column or argument that the pipeline cannot use as given."""


class CorruptSampleError(DataError):
    """One sample (a file, a CSV row, an image) cannot be read; ``where`` names it.

    Sources raise it so that an ``on_error="skip"`` policy can drop and count the sample
    instead of stopping the pipeline.
    """


class RecordError(DataError):
    """A record file that cannot be read as it was written: damaged, truncated, or not a
    record file. ``path`` names the file, ``row_group`` the Parquet row group when the damage
    is inside one (else None); both are in the message."""

    def __init__(self, message: str, *, path, row_group: int | None = None, **kw):
        self.path, self.row_group = str(path), row_group
        where = self.path if row_group is None else f"{self.path}, row group {row_group}"
        kw.setdefault("op", "RecordReader")
        super().__init__(message, where=where, **kw)


class WorkerError(SporelingError, RuntimeError):
    """A user function raised inside a pipeline operation (in a worker or inline).

    ``index`` is the sample's row in the source when the operation reads a source directly
    (``source_index``, the sampler's index: the row to look at, whatever the shuffling),
    else its position in the operation's input; ``position`` is always that position in the
    epoch's stream. ``sample`` says where the source keeps the row (an image's path, a CSV
    ``file:line``, a record shard and row group) when it knows. ``epoch`` is the epoch,
    ``exc_type`` the original exception's class name and ``worker_traceback`` the original
    traceback as text (it crossed a process boundary as text, never as a pickle).
    """

    def __init__(self, message: str, *, index: int, epoch: int, exc_type: str,
                 worker_traceback: str, op: str | None = None, hint: str | None = None,
                 source_index: int | None = None, sample: str | None = None):
        self.position, self.source_index, self.sample = index, source_index, sample
        self.index = index if source_index is None else source_index
        self.epoch, self.exc_type = epoch, exc_type
        self.worker_traceback = worker_traceback
        if source_index is None:
            where = f"sample {index}, epoch {epoch}"
        else:
            row = f"source row {source_index}" + (f" ({sample})" if sample else "")
            where = f"{row}, stream position {index}, epoch {epoch}"
        super().__init__(message, op=op, where=where, hint=hint)

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}\n--- original traceback ---\n{self.worker_traceback.rstrip()}"
