"""What a column's value is: a NumPy array, or a dict of column values (MindSpore 2.10's
dict columns: a generator or a map function that gives ``{"number": i, "square": i * i}``
keeps a dict through ``map``, ``batch`` -- which batches each key -- and the iterators).

Dicts stay in the process: process workers carry NumPy arrays only (``workers/shm.py``),
so a dict column there is refused with the hint to use threads."""
from __future__ import annotations

import numpy as np

__all__ = ["as_column"]


def as_column(value):
    """``value`` as a column value: a dict's values converted in turn, an array as is,
    anything else through ``np.asarray``."""
    if isinstance(value, dict):
        return {key: as_column(v) for key, v in value.items()}
    return value if isinstance(value, np.ndarray) else np.asarray(value)
