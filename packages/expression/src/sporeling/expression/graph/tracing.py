"""Tracing Tensor code into a graph: the Graph-mode front end's half of ``make_graph``.

The traced function runs on ordinary Tensors whose ``_data`` is a compiler ``Tracer``. Their
ops reach the PyNative interpreter as usual, which unwraps ``_data`` and -- while a
:class:`GraphTrace` layer is on this thread's interpreter stack -- dispatches through
``bind`` instead of straight to the eager kernels, so the tracer's interpreter records the
equation. ``grad``/``value_and_grad`` inside work unchanged: the
PyNative tape records over tracer-valued Tensors and the backward rules bind ops on tracers,
so forward and backward land in one graph.

Parameters are **lifted**: for the duration of the trace every live Parameter reads as a
tracer *in the tracing thread* (a layer of its interpreter stack, see
:func:`~sporeling.expression.tensor.parameter.lifted`; other threads keep seeing the data,
so one thread can train eagerly while another compiles); those the function reads become
graph inputs, fed with the Parameters' current values at each run, so a compiled graph stays
valid while the weights change. A Parameter whose ``_data`` is something else when the
function returns was written (``set_data``, ``ops.assign``: an optimiser's update,
BatchNorm's moving statistics): an ``assign`` equation at the end of the graph writes the
new value into the Parameter's own buffer when the graph runs, after every read of the old
value; reads traced after the write see the new value.

Random ops draw their seed from an ``rng_seed`` equation of the graph (see
:mod:`sporeling.compiler.ops.random`), wrapped as a Tensor for the traced code: every run
of the compiled graph draws new masks, and after ``set_seed`` the same sequence as PyNative.

**Value reads.** Traced with ``specialize=True``, the code may read a tensor's value
(``int(x)``, ``x.asnumpy()``, ``len(x.asnumpy())``) when it is computed only from the array
arguments and constants: the trace is given the arguments' values and goes on with the
concrete one (:func:`sporeling.compiler.ir.trace.read_value`); ``Traced.value_reads`` lists
the arguments read, on whose values the compile cache then guards the graph. Otherwise (and
for values depending on Parameters or random draws) a read raises ``TracedValueError``.

**Prints.** ``print(x)`` of a traced tensor (rewritten by the AST front end) is a ``print``
equation run by the compiled graph (:mod:`sporeling.compiler.ops.debug`): it prints each
call's values, ``str(tensor)``. Its effect token is a graph output (``Traced.n_tokens``),
after the array outputs, so the prints are kept.
"""
from __future__ import annotations

import contextlib
import inspect
import threading
from dataclasses import dataclass, field

import numpy as np

from sporeling.compiler.ir import Graph, Var, flatten, make_graph, unflatten

from sporeling.compiler.core.stack import Layer, innermost, pushed
from sporeling.compiler.ir.trace import innermost_trace

from ..tensor.parameter import Lift, lifted, live_parameters
from ..tensor.tensor import Tensor, wrap

__all__ = ["ARRAY_LEAF", "rebuild", "Traced", "Retrace", "GraphTrace", "trace", "is_tracing", "is_array_leaf",
           "note_cell", "only_if", "full_precision"]


class _TraceState(threading.local):
    def __init__(self):
        self.depth = 0
        self.cells: list = []  # Cells the current trace went through (cache guards)
        self.kept: list = []  # Vars of equations the AMP passes leave in their dtype


_STATE = _TraceState()


def is_tracing() -> bool:
    """True while a Graph-mode trace runs in this thread (nested Cells and jit functions
    are then inlined into the graph being built)."""
    return _STATE.depth > 0


def note_cell(cell) -> None:
    """Record that the current trace runs ``cell`` (its flag and contents guard the graph)."""
    if all(c is not cell for c in _STATE.cells):
        _STATE.cells.append(cell)


def is_array_leaf(x) -> bool:
    """Arguments that become graph inputs: Tensors and NumPy arrays."""
    return isinstance(x, (Tensor, np.ndarray))


@contextlib.contextmanager
def only_if(condition):
    """Inside a trace: the Parameter writes (``set_data``) made in the block take effect
    only when ``condition`` (a bool scalar Tensor) holds -- each written value becomes
    ``where(condition, new, old)`` (AMP's update skipped on overflow, in the graph)."""
    from sporeling.compiler import ops as cops
    lift = innermost(Lift)
    before = dict(lift.values)
    yield
    cond = condition._data if isinstance(condition, Tensor) else condition
    for key, value in lift.values.items():
        old = before.get(key)
        if old is not None and value is not old:
            lift.values[key] = cops.where(cond, value, old)


@contextlib.contextmanager
def full_precision():
    """Inside a trace: the equations recorded in the block keep their dtypes under the AMP
    graph passes (``graph.meta["amp_keep"]``, their output Vars): an optimiser's update
    stays in its master weights' float32 at ``amp_level`` O2/O3."""
    from sporeling.compiler.ir.trace import innermost_trace
    equations = innermost_trace().equations
    start = len(equations)
    try:
        yield
    finally:
        _STATE.kept.extend(v for eq in equations[start:] for v in eq.outputs)


class GraphTrace(Layer):
    """A Graph-mode trace on this thread's interpreter stack: Tensor ops dispatch through
    ``bind`` (their Tensors hold tracers)."""
    rebind = True


@contextlib.contextmanager
def _tracing():
    _STATE.depth += 1
    try:
        with pushed(GraphTrace()):
            yield
    finally:
        _STATE.depth -= 1


class _ArrayLeaf:
    def __repr__(self) -> str:
        return "ARRAY_LEAF"


ARRAY_LEAF = _ArrayLeaf()
"""Where an array output goes among a traced call's static outputs (``Traced.out_static``)."""


def rebuild(out_tree, out_static: list, arrays):
    """A traced call's result: ``arrays`` (its graph's array outputs, in order) put back
    among its static outputs, in its structure."""
    arrays = iter(arrays)
    return unflatten(out_tree, [next(arrays) if s is ARRAY_LEAF else s for s in out_static])


@dataclass
class Traced:
    """A traced call: the graph and how to feed it and read it.

    Graph inputs are ``[array arguments..., params...]``; outputs are ``[array outputs...,
    new values of effect_params...]``. ``out_static`` holds the non-array output leaves
    (:data:`ARRAY_LEAF` where an array leaf goes; a None is a None); ``out_tree`` their
    structure.
    """
    graph: Graph
    n_args: int
    params: list                 # Parameters lifted to inputs, in input order
    effect_params: list          # Parameters written by set_data, in output order
    out_tree: object
    out_static: list
    captured: list = field(default_factory=list)
    value_reads: list = field(default_factory=list)  # arguments (array positions) read
    n_tokens: int = 0            # effect tokens among the outputs, before the effect params


def _used_vars(graph: Graph) -> set:
    used = {v for v in graph.outputs if isinstance(v, Var)}
    for eq in graph.equations:
        used.update(v for v in eq.inputs if isinstance(v, Var))
    return used


class Retrace(Exception):
    """Raised inside a trace by code that has just made Parameters the graph must read and
    write (an optimiser's state, made on its first call): the trace starts again, with them
    lifted like every live Parameter."""


_RETRACES = 2  # state is made once; more would be a loop


def trace(fn, args: tuple, kwargs: dict, name: str,
          specialize: bool = False) -> tuple[Traced, list]:
    """Trace ``fn(*args, **kwargs)``: array leaves of the arguments become graph inputs,
    other leaves are static (baked in); live Parameters are lifted (see the module doc).
    ``specialize``: the code may read values computed from the arguments (see the module
    doc). Returns the :class:`Traced` call and the Cells it went through."""
    for _ in range(_RETRACES):
        try:
            return _trace(fn, args, kwargs, name, specialize)
        except Retrace:
            continue
    return _trace(fn, args, kwargs, name, specialize)


def _trace(fn, args: tuple, kwargs: dict, name: str,
           specialize: bool = False) -> tuple[Traced, list]:
    leaves, in_tree = flatten((args, kwargs), is_leaf=is_array_leaf)
    slots = [i for i, x in enumerate(leaves) if is_array_leaf(x)]
    params = live_parameters()
    examples = [_example(leaves[i]) for i in slots] + [_example(p._data) for p in params]
    result: dict = {}

    def flat_fn(*tracers):
        arg_tracers, param_tracers = tracers[:len(slots)], tracers[len(slots):]
        full = list(leaves)
        for i, t in zip(slots, arg_tracers):
            full[i] = wrap(t)
        call_args, call_kwargs = unflatten(in_tree, full)
        with lifted({id(p): t for p, t in zip(params, param_tracers)}) as lift:
            out = fn(*call_args, **call_kwargs)
            if inspect.isgenerator(out):
                # a generator's values, drawn while tracing (MindSpore 2.10 returns them):
                # its body would otherwise run after the graph is built, on traced values
                out = tuple(out)
            effects = [(p, lift.values[id(p)]) for p, t in zip(params, param_tracers)
                       if lift.values[id(p)] is not t]
            # read while lifted: a Parameter returned as it is must be its (traced)
            # value, not the array it held at compile time
            out_leaves, out_tree = flatten(out, is_leaf=is_array_leaf)
            arrays = [x._data if isinstance(x, Tensor) else x for x in out_leaves
                      if is_array_leaf(x)]
        token = innermost_trace().effect_token  # the prints' (see the module doc)
        tokens = [] if token is None else [token]
        result.update(out_tree=out_tree, effects=effects, n_tokens=len(tokens),
                      static=[ARRAY_LEAF if is_array_leaf(x) else x for x in out_leaves])
        with full_precision():  # an assign writes its Parameter's dtype
            assigned = _assignments(effects, params, param_tracers)
        return arrays + tokens + assigned

    outer, _STATE.cells, _STATE.kept = (_STATE.cells, _STATE.kept), [], []
    try:
        with _tracing():
            # random seeds drawn in the trace are Tensors, like every value fn sees
            values = None
            if specialize:  # the arguments' values, for reads (the Parameters' are not)
                values = [_value(leaves[i]) for i in slots] + [None] * len(params)
            graph = make_graph(flat_fn, *examples, name=name, wrap_fresh=wrap,
                               values=values)
    finally:
        cells, kept = _STATE.cells, _STATE.kept
        _STATE.cells, _STATE.kept = outer
    graph.meta["amp_keep"] = frozenset(kept)
    _check_assign_order(graph)
    # keep the argument inputs (the caller passes them) and the parameters actually read
    used = _used_vars(graph)
    n_args = len(slots)
    param_vars = graph.inputs[n_args:n_args + len(params)]
    keep = [i for i, v in enumerate(param_vars) if v in used]
    graph.inputs = (graph.inputs[:n_args] + [param_vars[i] for i in keep]
                    + graph.inputs[n_args + len(params):])
    effects = result["effects"]
    return Traced(graph, n_args, [params[i] for i in keep], [p for p, _ in effects],
                  result["out_tree"], result["static"],
                  list(graph.meta.get("captured", [])),
                  [i for i in graph.meta.get("value_reads", ()) if i < n_args],
                  result["n_tokens"]), cells


def _assignments(effects, params, param_tracers) -> list:
    """The graph outputs of the Parameters written during the trace: ``assign`` equations
    emitted here, after the traced function returned, so they are the graph's last
    equations -- after every read of the old values (MindSpore's order of side effects).
    A value of another shape or dtype (``set_data`` may change them) cannot go into the
    old buffer: it is a plain output, stored by ``set_data`` after the run."""
    from sporeling.compiler import bind
    from sporeling.compiler.ops.assign import assign_p
    tracer_of = {id(p): t for p, t in zip(params, param_tracers)}
    outs = []
    for p, data in effects:
        ref = tracer_of[id(p)]
        same = tuple(np.shape(data)) == tuple(ref.shape) and \
            np.dtype(data.dtype) == np.dtype(ref.dtype)
        outs.append(bind(assign_p, ref, data) if same else data)
    return outs


def _check_assign_order(graph: Graph) -> None:
    """Every ``assign`` is one of the graph's last equations (made by :func:`_assignments`).
    One bound directly (``sporeling.compiler.ops.assign`` on a traced value) would write in
    the middle of the step, before later reads of the old value: refused, with its line."""
    equations = graph.equations
    tail = len(equations)
    while tail and equations[tail - 1].prim.name == "assign":
        tail -= 1
    for eq in equations[:tail]:
        if eq.prim.name == "assign":
            from sporeling.core import SporelingError
            raise SporelingError("assign in the middle of a compiled function",
                                 op="assign (Graph mode)", where=eq.source,
                                 expected="Parameter.set_data(value) or ms.ops.assign",
                                 got="sporeling.compiler.ops.assign on a traced value",
                                 hint="those are written after every read of the old "
                                      "value; a direct assign is not")


def _value(value) -> np.ndarray:
    data = value._data if isinstance(value, Tensor) else value
    return np.asarray(data)


def _example(value):
    """A zero-stride stand-in with ``value``'s shape and dtype (no memory)."""
    data = value._data if isinstance(value, Tensor) else value
    return np.broadcast_to(np.zeros((), data.dtype), data.shape)


def _wrap_in_trace(inner):
    # Inside a Graph-mode trace the branches and loop bodies of control flow see Tensors,
    # like the code around them. Elsewhere (ops.cond called eagerly) they see the compiler's
    # tracers: PyNative dispatch reaches tracers only while a trace runs (see _tracing).
    return wrap(inner) if _STATE.depth else inner


def _register_control_flow_wrapper() -> None:
    try:
        from sporeling.compiler.ops._control_trace import register_wrapper
    except ImportError:  # a compiler without functional control flow
        return
    register_wrapper(Tensor, _wrap_in_trace, lambda t: t._data,
                     recorded=lambda t: t._node is not None)
    from sporeling.compiler.ops.debug import register_print_format
    register_print_format(Tensor, _tensor_text)


def _tensor_text(array) -> str:
    """How a traced Tensor's values print when the graph runs (``print(x)``): as a Tensor."""
    return str(wrap(array))


_register_control_flow_wrapper()
