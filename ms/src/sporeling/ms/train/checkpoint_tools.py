"""Checkpoint helpers of ``mindspore.train``: ``load_checkpoint_async``,
``async_ckpt_thread_status`` and ``merge_sliced_parameter``."""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from sporeling.core import SporelingError
from sporeling.expression import Parameter

from .serialization import load_checkpoint

__all__ = ["load_checkpoint_async", "async_ckpt_thread_status", "merge_sliced_parameter"]

_LOADER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ms-ckpt-load")


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                          dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                          choice_func=None) -> Future:
    """Read a checkpoint in a background thread: a Future whose ``result()`` is the
    parameter dict ``load_checkpoint`` returns (``load_param_into_net`` takes it)."""
    return _LOADER.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix,
                          dec_key, dec_mode, specify_prefix, choice_func)


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save is still running: never here, since
    ``save_checkpoint(async_save=True)`` finishes writing before it returns."""
    return False


def merge_sliced_parameter(sliced_parameters, strategy=None) -> Parameter:
    """One Parameter from its slices (in rank order), joined along axis 0; it keeps the
    first slice's name and ``requires_grad``. ``strategy`` (auto-parallel layouts) is not
    taken: without a parallel strategy file the slices are joined along axis 0."""
    where = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list) or not sliced_parameters:
        raise TypeError(f"For '{where}', 'sliced_parameters' must be a non-empty list of "
                        f"Parameters, but got {sliced_parameters!r}.")
    for i, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError(f"For '{where}', item {i} of 'sliced_parameters' must be a "
                            f"Parameter, but got {type(p).__name__}.")
    if strategy is not None:
        raise SporelingError("merging by a parallel strategy needs auto-parallel layouts",
                             op=where, expected="strategy=None (slices joined along axis 0)",
                             got=f"a strategy for {sorted(strategy)}")
    first = sliced_parameters[0]
    names = {p.name for p in sliced_parameters}
    if len(names) != 1:
        raise ValueError(f"For '{where}', the slices must be of one parameter, but got the "
                         f"names {sorted(names)}.")
    dtypes = {p.dtype for p in sliced_parameters}
    if len(dtypes) != 1:
        raise ValueError(f"For '{where}', the slices must share a dtype, but got "
                         f"{sorted(map(str, dtypes))}.")
    data = np.concatenate([p.asnumpy() for p in sliced_parameters], axis=0)
    return Parameter(data, name=first.name, requires_grad=first.requires_grad)
