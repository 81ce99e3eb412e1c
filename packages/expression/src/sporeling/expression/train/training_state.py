"""Everything a training run's future depends on, read out and put back: what
``BackupAndRestore`` saves so that a resumed run ends with the weights of an uninterrupted
one, bit for bit.

* the training network's Parameters (weights, BatchNorm statistics, loss scales);
* the optimizer's state Parameters (``Optimizer.state_parameters()``: the step counter,
  which the learning-rate schedules read, and each parameter's moments);
* the random streams of ``sporeling.core`` (dropout, initialisers, pipeline seeds), NumPy's
  global generator and Python's ``random`` (for the user's own code);
* the dataset's iteration state (``state_dict()`` of a ``sporeling.data`` pipeline: the
  epoch number and the seeds that fix every epoch's order) -- other datasets (lists,
  callables) replay the same batches by themselves.

:func:`capture` returns ``(arrays, info)``: NumPy arrays by name, and JSON-able data.
Values are put back into the Parameters' own buffers, which eager and compiled (Graph
mode) steps both read.
"""
from __future__ import annotations

import random

import numpy as np

from sporeling.core import get_rng_state, set_rng_state

from .batches import TrainError

__all__ = ["capture", "restore", "dataset_state"]

OPTIMIZER = "optimizer/"  # prefix of the optimizer's state among the arrays
_WHERE = "BackupAndRestore"


def dataset_state(dataset):
    """The iteration state of a dataset that keeps one (``state_dict()``), else None."""
    getter = getattr(dataset, "state_dict", None)
    return getter() if callable(getter) else None


def _named(network, optimizer, make_state: bool = False) -> dict:
    """``{name: Parameter}``: the network's, then the optimizer's state (prefixed)."""
    named = {p.name: p for _, p in network.parameters_and_names()}
    if optimizer is not None:
        if not callable(getattr(optimizer, "state_parameters", None)):
            raise TrainError(f"cannot back up the state of {type(optimizer).__name__}",
                             op=_WHERE, expected="an optimizer with state_parameters()",
                             got=type(optimizer).__name__)
        if make_state:  # as its first step would: zeros, in Parameters a step then updates
            from ..optim._state import prepare_state
            prepare_state(optimizer)
        named.update((OPTIMIZER + p.name, p) for p in optimizer.state_parameters())
    return named


def capture(network, optimizer, dataset_position, position: dict) -> tuple[dict, dict]:
    """The state of a run at ``position`` (epochs and steps done), with the dataset's
    iteration state ``dataset_position`` (None: the dataset keeps none)."""
    arrays = {name: p.asnumpy() for name, p in _named(network, optimizer).items()}
    info = {"position": position, "dataset": dataset_position,
            "rng": {"sporeling": get_rng_state(),
                    "numpy": _jsonable(np.random.get_state(legacy=False)),
                    "python": _jsonable(random.getstate())}}
    return arrays, info


def restore(network, optimizer, dataset, arrays: dict, info: dict, source: str) -> None:
    """Put back into ``network``, ``optimizer`` and ``dataset`` (built as the saved run
    built them) what :func:`capture` returned. Everything is checked before anything
    changes but the optimizer's fresh state (the zeros its first step would make)."""
    named = _named(network, optimizer, make_state=True)
    problems = []
    for name, p in named.items():
        value = arrays.get(name)
        if value is None:
            if not name.startswith(OPTIMIZER):  # state never made before the save: zeros
                problems.append(f"no value for {name!r}")
        elif not (_fits(value, p.shape) and value.dtype == p.dtype):
            problems.append(f"{name}: saved {value.dtype}{list(value.shape)}, this run's "
                            f"{p.dtype}{list(p.shape)}")
    extra = sorted(set(arrays) - set(named))
    if extra:
        problems.append(f"saved values this run does not have: {', '.join(extra[:5])}"
                        f"{', ...' if len(extra) > 5 else ''}")
    if problems:
        raise TrainError("the backup does not fit this training run: " + "; ".join(problems),
                         op=_WHERE, where=source,
                         hint="resume with the network, optimizer and dataset the backup was "
                              "made with (or remove the backup to start afresh)")
    if info["dataset"] is not None:
        if not callable(getattr(dataset, "load_state_dict", None)):
            raise TrainError("the backup holds a dataset position this dataset cannot take",
                             op=_WHERE, where=source,
                             expected="the sporeling.data pipeline the backup was made with",
                             got=type(dataset).__name__)
        dataset.load_state_dict(info["dataset"])
    for name, p in named.items():
        if name in arrays:
            _put(p, arrays[name])
    rng = info["rng"]
    set_rng_state(rng["sporeling"])
    np.random.set_state(rng["numpy"])
    random.setstate(_tuples(rng["python"]))


def _fits(value: np.ndarray, shape) -> bool:
    """The saved array has ``shape`` (a 0-d array comes back from the file as 1-d)."""
    shape = tuple(shape)
    return value.shape == shape or (value.size == 1 and int(np.prod(shape)) == 1)


def _put(param, value: np.ndarray) -> None:
    """``value`` into ``param``'s own buffer when it can be (the optimizer keeps views of
    its state's buffers), else by ``set_data``."""
    value = value.reshape(tuple(param.shape))
    target = param.asnumpy()
    if isinstance(target, np.ndarray) and target.flags.writeable:
        np.copyto(target, value)
    else:
        param.set_data(value.copy())


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _tuples(value):
    """Python's ``random`` state with its tuples back (JSON made them lists)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
