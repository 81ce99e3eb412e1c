"""Reading the loss out of ``net_outputs`` (a Tensor, an array, a number or a tuple whose
first item is the loss)."""
from __future__ import annotations

import numpy as np

__all__ = ["loss_value"]


def loss_value(outputs) -> float:
    """The scalar loss (the mean, for a batch of losses)."""
    if isinstance(outputs, (tuple, list)):
        outputs = outputs[0]
    asnumpy = getattr(outputs, "asnumpy", None)
    value = asnumpy() if asnumpy is not None else np.asarray(outputs)
    if value.size == 1:  # the usual scalar loss: np.mean's machinery costs microseconds
        return float(value.item())
    return float(np.mean(value, dtype=np.float64))
