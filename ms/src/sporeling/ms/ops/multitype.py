"""MindSpore's composite function builders: ``MultitypeFuncGraph`` (a function overloaded
on its arguments' types), ``HyperMap`` (apply a function leaf by leaf over nested
tuples/lists) and ``Map`` (element by element, one level).

They run as Python: eagerly, and at trace time inside ``jit``/Graph mode (the dispatch is
on Python types, which a trace knows), so they compile into the graph as MindSpore's do."""
from __future__ import annotations

import numpy as np

from sporeling.expression import Tensor

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map"]


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, np.ndarray)) or hasattr(x, "_interpreter")


# MindSpore's type names for ``register``, as predicates on Python values
_TYPE_TESTS = {
    "Tensor": _is_tensor,
    "Number": lambda x: isinstance(x, (int, float, np.number)) and not _is_tensor(x),
    "Bool": lambda x: isinstance(x, (bool, np.bool_)),
    "Int": lambda x: isinstance(x, (int, np.integer)) and not isinstance(x, bool),
    "Float": lambda x: isinstance(x, (float, np.floating)),
    "String": lambda x: isinstance(x, str),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dictionary": lambda x: isinstance(x, dict),
    "Dict": lambda x: isinstance(x, dict),
    "None": lambda x: x is None,
    "Function": callable,
}


def _type_test(name: str):
    test = _TYPE_TESTS.get(name)
    if test is None:
        raise ValueError(f"MultitypeFuncGraph.register: unknown type name {name!r}; expected "
                         f"one of {sorted(_TYPE_TESTS)}")
    return test


class MultitypeFuncGraph:
    """``f = MultitypeFuncGraph("add")``; ``@f.register("Number", "Number")`` /
    ``@f.register("Tensor", "Tensor")`` add overloads; ``f(x, y)`` calls the first one
    registered whose types match the arguments."""

    def __init__(self, name, read_value=False, doc_url=""):
        if not isinstance(name, str):
            raise TypeError(f"MultitypeFuncGraph: name must be a str, got "
                            f"{type(name).__name__}")
        self.name, self.read_value, self.doc_url = name, read_value, doc_url
        self.entries = []

    def register(self, *type_names):
        """Decorator: ``fn`` serves calls whose arguments have these types."""
        tests = tuple(_type_test(n) for n in type_names)

        def add(fn):
            self.entries.append((type_names, tests, fn))
            return fn
        return add

    def __call__(self, *args):
        for _, tests, fn in self.entries:
            if len(tests) == len(args) and all(t(a) for t, a in zip(tests, args)):
                return fn(*args)
        got = ", ".join(type(a).__name__ for a in args)
        known = "; ".join(", ".join(names) for names, _, _ in self.entries) or "none"
        raise TypeError(f"The '{self.name}' operation does not support the argument types "
                        f"({got}); registered: {known}.")


def _check_lengths(seqs, where: str) -> None:
    kinds = {type(s) for s in seqs}
    lengths = {len(s) for s in seqs}
    if len(kinds) > 1 or len(lengths) > 1:
        raise ValueError(f"{where}: the sequences must be of one type and length, got "
                         f"{[(type(s).__name__, len(s)) for s in seqs]}")


class HyperMap:
    """``HyperMap(ops=None, reverse=False)``: ``hyper_map(fn, *args)`` (or
    ``hyper_map(*args)`` with ``ops`` given) calls ``fn`` on corresponding leaves of the
    nested tuples/lists ``args`` and returns the results in the same structure;
    ``reverse`` calls it on the elements last to first (same results)."""

    def __init__(self, ops=None, reverse=False):
        self.ops, self.reverse = ops, bool(reverse)

    def _apply(self, fn, args):
        first = args[0]
        if isinstance(first, (tuple, list)):
            _check_lengths(args, "HyperMap")
            order = range(len(first) - 1, -1, -1) if self.reverse else range(len(first))
            out = {i: self._apply(fn, [a[i] for a in args]) for i in order}
            return type(first)(out[i] for i in range(len(first)))
        return fn(*args)

    def __call__(self, *args):
        fn, args = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not callable(fn):
            raise TypeError(f"HyperMap: the function must be callable, got "
                            f"{type(fn).__name__}")
        if not args:
            raise TypeError("HyperMap: no sequences to map over")
        return self._apply(fn, list(args))


class Map(HyperMap):
    """``Map(ops=None, reverse=False)``: like ``HyperMap`` but one level deep:
    ``fn`` gets the elements of the sequences themselves."""

    def _apply(self, fn, args):
        if not all(isinstance(a, (tuple, list)) for a in args):
            raise TypeError("Map: every argument must be a tuple or list")
        _check_lengths(args, "Map")
        order = range(len(args[0]) - 1, -1, -1) if self.reverse else range(len(args[0]))
        out = {i: fn(*[a[i] for a in args]) for i in order}
        return type(args[0])(out[i] for i in range(len(args[0])))
