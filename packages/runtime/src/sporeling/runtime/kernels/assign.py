"""Kernel of ``assign``: the value written into the target's own buffer (the Parameter's
array), which is returned -- its output aliases its first input, so the memory planner
leaves it alone (it declares no memory: ``opaque``). A read-only target gets a fresh copy
instead; the caller then stores that (``Parameter.set_data``)."""
from __future__ import annotations

import numpy as np

from ..executor import capture
from ..executor.capture import RECORDING
from .table import define


@define("assign")
def assign(backend, ref, value, out=None):
    if value is ref:  # its producer wrote it there (Graph mode's in-place updates)
        if RECORDING:
            capture.pure()  # nothing to do: a native step has nothing to replay either
        return ref
    if isinstance(ref, np.ndarray) and ref.flags.writeable:
        np.copyto(ref, value)
        return ref
    return np.array(value, copy=True)
