"""What MindSpore's own metrics share: ``rearrange_inputs`` and the input checks."""
from __future__ import annotations

import functools

import numpy as np

from sporeling.expression.train.metrics.metric import Metric, MetricError, to_numpy

__all__ = ["Metric", "MetricError", "rearrange_inputs", "as_array", "check_count",
           "check_choice", "check_type", "not_updated"]


def rearrange_inputs(func):
    """MindSpore's decorator for ``Metric.update``: with ``set_indexes([i, j])`` the
    decorated ``update`` receives inputs ``i`` and ``j`` (in that order) of what it is
    given. ``Model.eval`` then passes all the network's outputs unchanged."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = getattr(self, "indexes", None)
        if indexes:
            inputs = tuple(inputs[i] for i in indexes)
        return func(self, *inputs)
    wrapper.rearranges_inputs = True
    return wrapper


def as_array(value, where: str) -> np.ndarray:
    """A Tensor, list or NumPy array as an array (MindSpore's ``_convert_data``)."""
    if isinstance(value, list):
        return np.array(value)
    if isinstance(value, np.ndarray) or hasattr(value, "asnumpy"):
        return to_numpy(value)
    raise TypeError(f"For '{where}', the input data type must be Tensor, list or "
                    f"numpy.ndarray, but got {type(value).__name__}.")


def check_count(inputs, count: int, where: str, what: str) -> None:
    if len(inputs) != count:
        raise MetricError(f"wrong number of inputs ({what})", op=where, expected=count,
                          got=len(inputs))


def check_choice(name: str, value, choices, where: str):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"For '{where}', '{name}' must be one of {list(choices)}, but got "
                         f"{value!r}.")
    return value


def check_type(name: str, value, types, where: str):
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        names = ", ".join(t.__name__ for t in types)
        raise TypeError(f"For '{where}', '{name}' must be {names}, but got "
                        f"{type(value).__name__}.")
    return value


def not_updated(where: str) -> RuntimeError:
    return RuntimeError(f"{where}: call the 'update' method before calling 'eval'.")
