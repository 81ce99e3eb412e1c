"""How ``Model`` reads a dataset: any iterable of batches, re-iterated each epoch.

A batch is a tuple/list of columns (``(data, label)``), a dict (columns in key order) or a
single array. NumPy columns become Tensors. A dataset may also be a callable returning a
fresh iterator each epoch; a one-shot iterator (a generator) serves one epoch only.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from sporeling.core import SporelingError

__all__ = ["TrainError", "check_dataset", "epoch_batches", "skip_batches", "dataset_size",
           "as_inputs"]


class TrainError(SporelingError, ValueError):
    """A dataset, a model or a callback that cannot be used as given."""


def _is_one_shot(dataset) -> bool:
    return hasattr(dataset, "__next__")


def check_dataset(dataset, epochs: int, where: str) -> None:
    """Reject a dataset that cannot serve ``epochs`` passes, before training starts."""
    if dataset is None:
        raise TrainError("no dataset given", op=where,
                         expected="an iterable of batches")
    if not (hasattr(dataset, "__iter__") or callable(dataset)):
        raise TrainError("the dataset is not iterable", op=where,
                         expected="an iterable of batches or a callable returning an "
                         "iterator", got=type(dataset).__name__)
    if _is_one_shot(dataset) and epochs > 1:
        raise TrainError(f"a one-shot iterator ({type(dataset).__name__}) cannot serve "
                         f"{epochs} epochs", op=where,
                         expected="a re-iterable dataset (a list, a Dataset, an object "
                         "with __iter__) or a callable returning a fresh iterator",
                         got=type(dataset).__name__,
                         hint="wrap the generator function: dataset=lambda: gen()")


def dataset_size(dataset) -> int | None:
    """Batches per epoch when the dataset knows (``get_dataset_size()`` or ``len``)."""
    getter = getattr(dataset, "get_dataset_size", None)
    if callable(getter):
        return int(getter())
    if hasattr(dataset, "__len__") and not _is_one_shot(dataset):
        return len(dataset)
    return None


def epoch_batches(dataset, epoch: int, where: str) -> Iterator:
    """An iterator over one epoch's batches; an error if the epoch yields none."""
    source = dataset() if callable(dataset) and not hasattr(dataset, "__iter__") \
        else dataset
    count = 0
    for batch in source:
        count += 1
        yield batch
    if count == 0:
        raise TrainError(f"the dataset yielded no batches in epoch {epoch}", op=where,
                         expected="at least one batch per epoch",
                         hint="an exhausted iterator or generator serves one epoch "
                         "only; pass a list or a callable returning a fresh iterator")


def skip_batches(batches: Iterator, count: int, epoch: int, where: str) -> None:
    """Read past the first ``count`` batches of an epoch (trained on before a resume)."""
    for done in range(count):
        if next(batches, None) is None:
            raise TrainError(f"cannot resume after step {count} of epoch {epoch}: the "
                             f"dataset yields only {done} batches in it", op=where,
                             hint="resume with the dataset the backup was made with")


def _column(value):
    if isinstance(value, (np.ndarray, np.generic)):
        from ..tensor import Tensor
        return Tensor(value)
    return value


def as_inputs(batch) -> tuple:
    """A batch as the tuple of network inputs."""
    if isinstance(batch, dict):
        return tuple(_column(v) for v in batch.values())
    if isinstance(batch, (tuple, list)):
        return tuple(_column(v) for v in batch)
    return (_column(batch),)
