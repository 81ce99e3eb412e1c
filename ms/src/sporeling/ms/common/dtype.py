"""MindSpore's dtype objects (``ms.float32`` prints ``Float32``) and their NumPy dtypes."""
from __future__ import annotations

from typing import Any

import numpy as np

from sporeling.core.dtypes import dtype as _core_dtype

__all__ = ["to_numpy"]


def to_numpy(dtype: Any) -> np.dtype | None:
    """The NumPy dtype for a facade dtype object, a NumPy dtype or a name; None stays None."""
    if dtype is None:
        return None
    return _core_dtype(getattr(dtype, "np_dtype", dtype))
