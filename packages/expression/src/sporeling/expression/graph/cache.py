"""The compile cache: one compiled graph per call signature, recompiled when it goes stale.

A call's key is the structure of its arguments, the shape and dtype of every array argument
(Tensors and NumPy arrays), the value of every other argument (static: baked into the
graph) and an extra key from the caller (a Cell's ``training`` flag). An entry also keeps
**guards** checked on every hit: the Parameters it reads still have the traced shapes and
dtypes, and every Cell the trace went through still has the same ``training`` flag and the
same Parameters and sub-Cells. When no graph of a key passes its guards, the call compiles
a new one, kept beside the others (up to a few per key: training on and off);
``compile_count`` counts every compilation.

A function compiled with ``specialize_values`` may read its array arguments' values while
tracing (``int(x)``: see :mod:`.tracing`); its graph is then specialised on them, and the
entry keeps a copy of each argument it read -- a **value guard**, checked on every call (not
only when the structure epoch moves): a call whose values differ compiles another graph, so
a stale specialisation never runs.
"""
from __future__ import annotations

import time
import weakref

import numpy as np

from sporeling.compiler.core import locate
from sporeling.compiler.core.stack import STACK
from sporeling.compiler.ir import flatten
from sporeling.compiler.jit_levels import check_level, compile_at
from sporeling.core import context_version, get_context

from ..structure_epoch import EPOCH
from ..tensor.tensor import Tensor, wrap
from .effects import aliased_param_inputs
from .tracing import ARRAY_LEAF, is_array_leaf, rebuild, trace

__all__ = ["CompiledFunction", "cell_signature"]

_ndarray = np.ndarray
_VARIANTS = 8  # graphs kept per key whose guards differ (training on/off, values read...)


def cell_signature(cell) -> tuple:
    """What a graph depends on in one Cell: its flag and which Parameters/Cells it holds."""
    return (cell.training, tuple(map(id, cell._params.values())),
            tuple(map(id, cell._cells.values())))


class _Entry:
    __slots__ = ("executable", "traced", "param_avals", "cells", "compile_seconds",
                 "copied", "checked_at", "plain", "values", "flat_tuple", "bare")

    def __init__(self, executable, traced, cells, seconds, arrays=()):
        self.executable, self.traced, self.compile_seconds = executable, traced, seconds
        self.param_avals = [(p._data.shape, p._data.dtype) for p in traced.params]
        self.cells = [(weakref.ref(c), cell_signature(c)) for c in cells]
        self.checked_at = -1  # the structure epoch at which the guards last held
        # the arguments whose values the trace read: (position, dtype, shape, bytes)
        self.values = [(i, arrays[i].dtype, arrays[i].shape, arrays[i].tobytes())
                       for i in traced.value_reads]
        # Parameters written in place whose old buffer an output would return (effects.py)
        n_args, params = traced.n_args, traced.params
        written = {n_args + i for i, p in enumerate(params)
                   if any(p is q for q in traced.effect_params)}
        graph = executable.graph
        self.copied = aliased_param_inputs(
            graph, len(graph.outputs) - len(traced.effect_params) - traced.n_tokens,
            range(n_args, n_args + len(params)), written, executable.program.program.backend)
        # arrays in, one array out, nothing else to feed or store: run() takes a short cut
        self.plain = (not params and not self.copied and not traced.captured and
                      not traced.effect_params and traced.out_tree is None and
                      traced.out_static == [ARRAY_LEAF] and not traced.n_tokens)
        # a flat tuple of arrays (value_and_grad's (loss, grads...)): built without walking
        # the tree (rebuild's walk cost ~5 us a call)
        tree = traced.out_tree
        self.flat_tuple = (tree is not None and tree[0] is tuple and
                           all(child is None for child in tree[1]) and
                           all(s is ARRAY_LEAF for s in traced.out_static))
        # ... with nothing else to feed or store (a jit'd grad of a pure function)
        self.bare = (self.flat_tuple and not params and not self.copied and
                     not traced.captured and not traced.effect_params and not traced.n_tokens)

    def matches(self, arrays: list) -> bool:
        """Whether the arguments hold the values this graph was specialised on (its value
        guards; always True without any)."""
        for i, dtype, shape, data in self.values:
            a = arrays[i]
            if a.dtype != dtype or a.shape != shape or a.tobytes() != data:
                return False
        return True

    def valid(self) -> bool:
        if self.checked_at == EPOCH[0]:  # nothing the guards read has changed since
            return True
        if self._guards_hold():
            self.checked_at = EPOCH[0]
            return True
        return False

    def _guards_hold(self) -> bool:
        for p, (shape, dtype) in zip(self.traced.params, self.param_avals):
            data = p._data
            if data.shape != shape or data.dtype != dtype:
                return False
        for ref, signature in self.cells:
            cell = ref()
            if cell is None or cell_signature(cell) != signature:
                return False
        return True

    def run(self, arrays: list):
        if self.plain:
            return wrap(self.executable(*arrays)[0])
        if self.bare:
            return tuple(map(wrap, self.executable(*arrays)))
        traced = self.traced
        inputs = arrays + [p._data for p in traced.params]
        copies = []
        for k in self.copied:  # read-only: assign returns the new value instead of writing
            copies.append(inputs[k].copy())
            inputs[k] = copies[-1]
            copies[-1].flags.writeable = False
        if traced.captured:
            inputs += [c._data if isinstance(c, Tensor) else c for c in traced.captured]
        outs = self.executable(*inputs)
        for c in copies:  # the outputs that share it are the caller's now
            c.flags.writeable = True
        n = len(outs) - len(traced.effect_params)
        if traced.effect_params:
            for p, value in zip(traced.effect_params, outs[n:]):
                if value is not p._data:  # assign wrote in place unless it could not
                    _store(p, value)
        if self.flat_tuple:
            return tuple(map(wrap, outs[:n - traced.n_tokens]))
        return rebuild(traced.out_tree, traced.out_static,
                       map(wrap, outs[:n - traced.n_tokens]))


def _store(param, value) -> None:
    """``value`` into ``param``: into its own buffer when it fits (a copied input, see
    :mod:`.effects`), else by ``set_data`` (another shape or dtype)."""
    target = param._data
    if isinstance(target, _ndarray) and target.flags.writeable and \
            target.shape == np.shape(value) and target.dtype == value.dtype:
        np.copyto(target, value)
    else:
        param.set_data(value)


_CONTEXT_KEY: list = [-1, None]
_FAST_ENTRIES = 64  # signatures remembered per function (see CompiledFunction.call)


def _layer_keys() -> tuple:
    return tuple(layer.compile_key() for layer in STACK.layers
                 if layer.compile_key is not None)


def _ambient_key() -> tuple:
    """What else a graph depends on: every context key's value (``graph_opt_level``,
    ``amp_level``...), re-read only when the context changes, and the state of whatever
    layers of this thread's interpreter stack (an AMP cast policy's ``compile_key()``)."""
    version = context_version()
    if _CONTEXT_KEY[0] != version:
        _CONTEXT_KEY[:] = [version, tuple(sorted((k, repr(v)) for k, v in get_context().items()))]
    return _CONTEXT_KEY[1], _layer_keys()


class CompiledFunction:
    """The compile cache of one function (or one Cell): see the module doc.

    ``compile_count`` counts compilations (first ones and recompilations);
    ``compile_seconds`` their total time (trace + passes + lowering).
    """

    def __init__(self, name: str, specialize_values: bool = False):
        self.name = name
        # tracing may read the arguments' values (a graph per value read: see the module doc)
        self.specialize_values = specialize_values
        self._entries: dict = {}
        self._fast: dict = {}  # call signature -> entry (see call)
        self.compile_count = 0
        self.compile_seconds = 0.0
        self.last_entry: _Entry | None = None
        self.jit_level: str | None = None  # this function's own (None: the context's)

    def set_jit_level(self, level: str | None) -> None:
        """Compile at ``level`` from now on (None: the context's ``jit_level``); graphs
        compiled at another level are dropped."""
        if level != self.jit_level:
            self.jit_level = None if level is None else check_level(level)
            self.clear()

    def key(self, args: tuple, kwargs: dict, extra) -> tuple | None:
        """``(key, arrays)``, or None when an argument is itself a traced value."""
        leaves, tree = flatten((args, kwargs), is_leaf=is_array_leaf)
        parts, arrays = [], []
        for x in leaves:
            if isinstance(x, Tensor):
                x = x._data
            if isinstance(x, _ndarray):
                if type(x) is not _ndarray:
                    x = np.asarray(x)
                arrays.append(x)
                parts.append((x.shape, x.dtype))
            elif is_array_leaf(x) or getattr(x, "_interpreter", None) is not None:
                return None  # traced data (inside some other transformation)
            else:
                try:
                    hash(x)
                    parts.append((type(x), x))
                except TypeError:
                    parts.append(("id", id(x)))
        return (tree, tuple(parts), extra, _ambient_key()), arrays

    def call(self, fn, args: tuple, kwargs: dict, extra=()):
        """``fn(*args, **kwargs)`` through the cache (compiling on a miss)."""
        if not kwargs:  # the common call, Tensors in and nothing else: a signature of
            # their shapes and dtypes finds the entry without walking the arguments' tree
            try:
                arrays = [a._data for a in args]
                signature = (extra, context_version(), _layer_keys() if STACK.layers else (),
                             *[(x.shape, x.dtype, type(x)) for x in arrays])
                entry = self._fast.get(signature)
            except (AttributeError, TypeError):  # not a Tensor; an unhashable extra
                signature = entry = None
            # value guards only where the trace read values (a call without: no method call)
            if entry is not None and entry.valid() and (not entry.values or
                                                        entry.matches(arrays)):
                self.last_entry = entry
                return entry.run(arrays)
        found = self.key(args, kwargs, extra)
        if found is None:
            return fn(*args, **kwargs)
        key, arrays = found
        entry = self._entry(fn, args, kwargs, key, arrays)
        if not kwargs and signature is not None and all(type(x) is _ndarray for x in arrays):
            if len(self._fast) >= _FAST_ENTRIES:  # stale context versions, many shapes
                self._fast.clear()
            self._fast[signature] = entry
        return entry.run(arrays)

    def prepare(self, fn, args: tuple, kwargs: dict, extra=()) -> bool:
        """Compile ``fn`` for these arguments without running it (a cached graph is kept);
        False when an argument is itself traced (nothing to compile)."""
        found = self.key(args, kwargs, extra)
        if found is None:
            return False
        self._entry(fn, args, kwargs, *found)
        return True

    def _entry(self, fn, args, kwargs, key, arrays) -> _Entry:
        """The valid compiled entry for ``key`` and the arguments' values (compiled now on
        a miss)."""
        variants = self._entries.get(key)
        if variants is None:
            variants = self._entries[key] = []
        for entry in variants:
            if entry.valid() and (not entry.values or entry.matches(arrays)):
                break
        else:
            entry = self._compile(fn, args, kwargs, arrays)
            variants.insert(0, entry)
            del variants[_VARIANTS:]
        self.last_entry = entry
        return entry

    def _compile(self, fn, args, kwargs, arrays) -> _Entry:
        start = time.perf_counter()
        try:
            traced, cells = trace(fn, args, kwargs, self.name, self.specialize_values)
            executable = compile_at(traced.graph, self.jit_level)
        except Exception as exc:
            locate(exc, traceback=True)  # the user's line the trace failed at, if none yet
            exc.add_note(f"(while compiling {self.name} for Graph mode; the same code runs "
                         "eagerly with set_context(mode=PYNATIVE_MODE))")
            raise
        seconds = time.perf_counter() - start
        self.compile_count += 1
        self.compile_seconds += seconds
        return _Entry(executable, traced, cells, seconds, arrays)

    def info(self) -> dict:
        """``{"compile_count", "entries", "compile_seconds"}``."""
        return {"compile_count": self.compile_count,
                "entries": sum(len(v) for v in self._entries.values()),
                "compile_seconds": self.compile_seconds}

    @property
    def last_graph(self):
        """The graph (as traced) of the most recent call, or None."""
        return None if self.last_entry is None else self.last_entry.traced.graph

    @property
    def last_executable(self):
        """The compiled executable of the most recent call, or None."""
        return None if self.last_entry is None else self.last_entry.executable

    def clear(self) -> None:
        """Forget every compiled graph (the next call compiles again)."""
        self._entries.clear()
        self._fast.clear()
        self.last_entry = None
