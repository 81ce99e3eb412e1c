"""Pipeline operations the facade adds to sporeling.data's: ``sync_wait`` barriers,
``map`` callbacks (``DSCallback``), ``flat_map`` and a start step (``set_init_step``)."""
from __future__ import annotations

import threading

import numpy as np

from sporeling.data import DataError
from sporeling.data.ops.base import UnaryOp

__all__ = ["SyncWait", "CallbackOp", "FlatMap", "StartAt"]


class SyncWait(UnaryOp):
    """Let ``num_batch`` rows through, then block until ``sync_update(condition_name)``
    releases the next ``num_batch`` (MindSpore's ``sync_wait``); ``callback(data)`` runs on
    each update. ``disable()`` lifts the barrier for good."""

    def __init__(self, child, condition_name, num_batch=1, callback=None, timeout=None):
        super().__init__(child)
        if not isinstance(num_batch, int) or num_batch < 1:
            raise DataError("bad num_batch", op="sync_wait", expected="an int >= 1",
                            got=num_batch)
        self.condition_name, self.num_batch, self.callback = condition_name, num_batch, callback
        self.timeout = timeout
        self._cond = threading.Condition()
        self._allowed, self._disabled = num_batch, False

    def update(self, num_batch=None, data=None):
        with self._cond:
            self._allowed += self.num_batch if num_batch is None else int(num_batch)
            self._cond.notify_all()
        if self.callback is not None:
            self.callback(data)

    def disable(self):
        with self._cond:
            self._disabled = True
            self._cond.notify_all()

    def _rows(self, run, epoch):
        passed = 0
        for row in run.rows(self.child, epoch):
            with self._cond:
                ok = self._cond.wait_for(lambda: self._disabled or passed < self._allowed,
                                         self.timeout)
                if not ok:
                    raise DataError("sync_wait timed out", op="sync_wait",
                                    expected=f"sync_update({self.condition_name!r}) within "
                                    f"{self.timeout} s", got=f"{passed} rows through")
            passed += 1
            yield row


class CallbackOp(UnaryOp):
    """Calls ``DSCallback``s around the rows of its child: ``ds_begin`` once,
    ``ds_epoch_begin``/``ds_epoch_end`` per epoch, ``ds_step_begin``/``ds_step_end`` every
    ``step_size`` rows (steps count from 1 across epochs, as MindSpore's do)."""

    def __init__(self, child, callbacks):
        super().__init__(child)
        self.callbacks = list(callbacks)
        self._begun, self._step = False, 0

    def _call(self, name, epoch, step):
        from .callback import DSRunContext
        for cb in self.callbacks:
            every = getattr(cb, "step_size", 1) if "step" in name else 1
            if "step" in name and (step - 1) % every:
                continue
            getattr(cb, name)(DSRunContext(epoch + 1, step, step - 1))

    def _rows(self, run, epoch):
        if not self._begun:
            self._begun = True
            self._call("ds_begin", epoch, self._step)
        self._call("ds_epoch_begin", epoch, self._step)
        for row in run.rows(self.child, epoch):
            self._step += 1
            self._call("ds_step_begin", epoch, self._step)
            yield row
            self._call("ds_step_end", epoch, self._step)
        self._call("ds_epoch_end", epoch, self._step)

    def _size(self):
        return self.child._size()


class FlatMap(UnaryOp):
    """``func(column)`` returns a dataset per row; their rows, one after another."""

    def __init__(self, child, func):
        super().__init__(child)
        if len(child.column_names) != 1:
            raise DataError("flat_map needs one column", op="flat_map",
                            expected="a dataset of one column", got=child.column_names)
        self.func = func
        self.column_names = None  # known after the first row

    def _inner_of(self, row):
        out = self.func(row[0])
        inner = getattr(out, "_inner", out)
        from sporeling.data import Dataset
        if not isinstance(inner, Dataset):
            raise DataError("flat_map's func must return a dataset", op="flat_map",
                            expected="a Dataset", got=type(out).__name__)
        return inner

    def _rows(self, run, epoch):
        for row in run.rows(self.child, epoch):
            inner = self._inner_of(row)
            if self.column_names is None:
                self.column_names = inner.get_col_names()
            yield from inner._one_epoch(epoch)

    def _size(self):
        return None

    def get_col_names(self):
        if self.column_names is None:
            for row in self.child._one_epoch(0):
                self.column_names = self._inner_of(row).get_col_names()
                break
        return list(self.column_names or [])


class StartAt(UnaryOp):
    """The rows of its child from step ``step`` on (``set_init_step``): the first epoch
    starts part way in; later epochs are whole."""

    def __init__(self, child, step):
        super().__init__(child)
        self.step = int(step)

    def _rows(self, run, epoch):
        rows = run.rows(self.child, epoch)
        if epoch == 0:
            for _ in range(self.step):
                if next(rows, None) is None:
                    return
        yield from rows

    def _size(self):
        size = self.child._size()
        return None if size is None else max(size - self.step, 0)


def describe_value(value):
    """A JSON-able stand-in for an argument (numbers, strings, lists as themselves)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [describe_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): describe_value(v) for k, v in value.items()}
    return {"python_object": type(value).__name__}
