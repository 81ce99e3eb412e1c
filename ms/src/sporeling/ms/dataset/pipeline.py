"""MindSpore's iteration contract over ``sporeling.data`` pipelines.

MindSpore's ``create_tuple_iterator()`` / ``create_dict_iterator()`` and plain iteration
yield ``Tensor`` columns unless ``output_numpy=True``; sporeling.data always yields NumPy
arrays. :class:`Dataset` wraps a sporeling.data pipeline: every operation (``map``,
``batch``, ``shuffle``, ``zip``, ...) is sporeling.data's and returns a wrapped pipeline, and
the iterators convert numeric columns to Tensors (string columns stay NumPy).
"""
from __future__ import annotations

import numpy as np

import sporeling.data as _data
from sporeling.expression import Tensor

__all__ = ["Dataset", "wrap"]


def _unwrap(value):
    if isinstance(value, Dataset):
        return value._inner
    if isinstance(value, (list, tuple)):
        return type(value)(_unwrap(v) for v in value)
    return value


def wrap(value):
    """A sporeling.data pipeline (or a list/tuple of them) as facade pipelines."""
    if isinstance(value, _data.Dataset):
        return Dataset._from(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, _data.Dataset)
                                                         for v in value):
        return type(value)(Dataset._from(v) for v in value)
    return value


def _to_tensor(column):
    array = np.asarray(column)
    return Tensor(array) if array.dtype.kind in "biuf" else array


class _Rows:
    """Rows of an inner iterator with numeric columns as Tensors."""

    def __init__(self, inner, as_dict: bool):
        self._inner, self._as_dict = inner, as_dict

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self._inner)
        if self._as_dict:
            return {k: _to_tensor(v) for k, v in row.items()}
        return [_to_tensor(v) for v in row]

    def __getattr__(self, name):  # stop(), ... of the inner iterator
        return getattr(self._inner, name)


class Dataset:
    """A facade pipeline around a ``sporeling.data`` one (see the module doc)."""

    _inner: _data.Dataset

    @classmethod
    def _from(cls, inner):
        obj = object.__new__(Dataset)
        obj._inner = inner
        return obj

    def __getattr__(self, name):
        if name.startswith("__") or name == "_inner":
            raise AttributeError(name)
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            return wrap(attr(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))
        call.__name__ = name
        call.__doc__ = getattr(attr, "__doc__", None)
        return call

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=True):
        """Rows as lists of Tensors (NumPy arrays with ``output_numpy=True``)."""
        inner = self._inner.create_tuple_iterator(columns, num_epochs)
        return inner if output_numpy else _Rows(iter(inner), as_dict=False)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """Rows as ``{column: Tensor}`` (NumPy arrays with ``output_numpy=True``)."""
        inner = self._inner.create_dict_iterator(num_epochs)
        return inner if output_numpy else _Rows(iter(inner), as_dict=True)

    def __iter__(self):
        return _Rows(iter(self._inner), as_dict=False)

    def __repr__(self):
        return f"ms.dataset({self._inner!r})"
