"""Feeding a dataset to a network by hand: ``DatasetHelper``,
``connect_network_with_dataset`` and ``data_sink``.

Sporeling has one host device, so "sinking" data to a device is plain iteration on the
host: a ``DatasetHelper`` yields each step's inputs (a tuple of Tensors), the network needs
no data-queue wrapper, and ``data_sink``'s function runs ``sink_size`` steps per call
over a dataset that restarts when exhausted (as MindSpore's sink loop does).
"""
from __future__ import annotations

import itertools

from sporeling.expression.train.batches import (TrainError, as_inputs, check_dataset,
                                                dataset_size, epoch_batches)

__all__ = ["DatasetHelper", "connect_network_with_dataset", "data_sink"]


def _positive_int(name: str, value, where: str, allow_all: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or \
            not (value > 0 or (allow_all and value == -1)):
        extra = " or -1" if allow_all else ""
        raise ValueError(f"For '{where}', '{name}' must be a positive int{extra}, but got "
                         f"{value!r}.")
    return value


class DatasetHelper:
    """``for inputs in DatasetHelper(dataset): net(*inputs)``: one pass yields one epoch
    of steps (``sink_size`` of them when given, else the whole dataset)."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        check_dataset(dataset, 1, "DatasetHelper")
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', 'dataset_sink_mode' must be bool, but got "
                            f"{type(dataset_sink_mode).__name__}.")
        self.dataset, self.dataset_sink_mode = dataset, dataset_sink_mode
        self._sink_size = _positive_int("sink_size", sink_size, "DatasetHelper", True)
        self.epoch_num = _positive_int("epoch_num", epoch_num, "DatasetHelper")
        self._batches = None

    def sink_size(self) -> int:
        """Steps per pass: ``sink_size``, or the dataset's size when it is -1."""
        if self._sink_size != -1:
            return self._sink_size
        size = dataset_size(self.dataset)
        if size is None:
            raise TrainError("the dataset does not know its size", op="DatasetHelper",
                             hint="give sink_size, or a dataset with get_dataset_size()")
        return size

    def __len__(self) -> int:
        return self.sink_size()

    def _next_batch(self):
        if self._batches is None:
            self._batches = iter(epoch_batches(self.dataset, 1, "DatasetHelper"))
        batch = next(self._batches, None)
        if batch is None:  # the dataset restarts, as a repeated one does
            self._batches = iter(epoch_batches(self.dataset, 1, "DatasetHelper"))
            batch = next(self._batches)
        return batch

    def __iter__(self):
        if self._sink_size == -1:
            self._batches = None
            for batch in epoch_batches(self.dataset, 1, "DatasetHelper"):
                yield as_inputs(batch)
            return
        for _ in range(self._sink_size):
            yield as_inputs(self._next_batch())

    # MindSpore's controls of the device data queue: there is no queue here
    def stop_send(self):
        """Nothing to stop: batches are read on demand."""

    def continue_send(self):
        """Nothing to resume: batches are read on demand."""

    def release(self):
        """Forget the current position (the next pass starts the dataset again)."""
        self._batches = None

    def get_data_info(self):
        """The dtypes and shapes of the next step's inputs (read from one batch)."""
        inputs = as_inputs(next(iter(epoch_batches(self.dataset, 1, "DatasetHelper"))))
        return [x.dtype for x in inputs], [tuple(x.shape) for x in inputs]


def connect_network_with_dataset(network, dataset_helper):
    """The network that reads ``dataset_helper``'s data: ``network`` itself, since each step
    takes its inputs as arguments here (no device queue to read them from)."""
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', 'dataset_helper' must be a "
                        f"DatasetHelper, but got {type(dataset_helper).__name__}.")
    return network


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """A function that, each call, runs ``fn(*inputs)`` on the next ``sink_size`` batches of
    ``dataset`` (restarting it when exhausted) and returns the last result. ``jit_config``
    compiles ``fn`` with ``jit`` at its ``jit_level``; ``input_signature`` is checked against
    each batch."""
    if not callable(fn):
        raise TypeError(f"For 'data_sink', 'fn' must be callable, but got "
                        f"{type(fn).__name__}.")
    _positive_int("sink_size", sink_size, "data_sink")
    helper = DatasetHelper(dataset, True, sink_size)
    if jit_config is not None:
        from sporeling.expression import jit
        fn = jit(fn, jit_level=getattr(jit_config, "level", None))
    signature = None
    if input_signature is not None:
        signature = input_signature if isinstance(input_signature, (list, tuple)) \
            else (input_signature,)

    def sink_fun():
        out = None
        for inputs in itertools.islice(helper, sink_size):
            if signature is not None:
                _check_signature(inputs, signature)
            out = fn(*inputs)
        return out
    return sink_fun


def _check_signature(inputs, signature) -> None:
    got = [(tuple(x.shape), x.dtype) for x in inputs]
    want = [(tuple(s.shape), s.dtype) for s in signature]
    if len(got) != len(want) or any(
            g[1] != w[1] or len(g[0]) != len(w[0]) or
            any(ws not in (-1, None) and ws != gs for gs, ws in zip(g[0], w[0]))
            for g, w in zip(got, want)):
        raise TypeError(f"For 'data_sink', the batch {got} does not match input_signature "
                        f"{want}.")
