"""Tracing: running a function on abstract values and recording the primitives it binds.

Each trace is an interpreter level of its own; its values are :class:`Tracer`\\ s. A value of
an outer level met inside (a closure over an outer tracer) becomes an extra input of the
graph -- the caller passes it (closure conversion, needed by control-flow sub-graphs).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> g = make_graph(lambda x: ops.sum(ops.exp(x)), np.ones((2, 3), np.float32))
    >>> [eq.prim.name for eq in g.equations]
    ['exp', 'sum']

**Fresh values.** A primitive without operands would bind eagerly (``bind`` picks the
interpreter from the operands), so inside a trace its value would be baked into the graph as
a constant. For the random seed (``rng_seed``, a primitive declared ``fresh_per_run``)
that is wrong: every run of the graph must draw anew. So a trace that :func:`make_graph` builds with ``fresh_seeds=True`` (the default)
is a layer of this thread's interpreter stack (:mod:`sporeling.compiler.core.stack`) that
receives them: ``bind`` gives it an equation executed on every run, or computes the value
eagerly when no trace is active. Control-flow sub-graphs are traced with
``fresh_seeds=False``: their draws happen in the enclosing scope and enter the body as a
captured operand, so the backward (which re-runs the body) sees the forward's seeds.

    >>> g = make_graph(lambda x: ops.dropout(x, 0.5), np.ones(4, np.float32))
    >>> [eq.prim.name for eq in g.equations]
    ['rng_seed', 'dropout']

**Reading a value while tracing (specialisation).** A tracer has no data; code that needs
one (``int(x)``, ``x.asnumpy()`` in the Graph-mode front end) calls :func:`read_value`.
When :func:`make_graph` was given the inputs' actual values (``values=``), a value computed
only from those inputs and constants is known: the equations leading to it are run eagerly
on them, the traced code goes on with the concrete value, and the inputs it depended on are
listed in ``graph.meta["value_reads"]`` -- the graph is specialised on their values, so
whoever caches it must check them on every call (the Graph-mode compile cache does). A
value that depends on anything else (a Parameter or another input whose value was not
given, a random draw, a value of an enclosing trace) raises :class:`TracedValueError`.

    >>> def f(x):
    ...     return ops.mul(x, float(read_value(ops.sum(x))))
    >>> g = make_graph(f, np.ones(3, np.float32), values=[np.ones(3, np.float32)])
    >>> g.meta["value_reads"], [eq.prim.name for eq in g.equations]
    ([0], ['sum', 'mul'])
"""
from __future__ import annotations

import sys
from typing import Callable

import numpy as np

from sporeling.core import SporelingError

from ..core import Aval, Interpreter, next_level
from ..core.stack import Layer, pushed, receiver
from ..core.location import locate, user_frame, user_location, user_source_of
from ..core.primitive import Primitive
from .graph import Const, Equation, Graph, Var
from .pytree import flatten

__all__ = ["Tracer", "TraceInterpreter", "TracedValueError", "make_graph", "read_value",
           "user_source", "innermost_trace"]


class TracedValueError(SporelingError):
    """The data of a traced value was needed while its graph is being built, and the trace
    does not know it (see the module doc: what a trace can know)."""


class Tracer:
    """A value inside a trace: it knows its Var (hence shape and dtype), never its data."""
    __slots__ = ("var", "_interpreter")

    def __init__(self, var: Var, interpreter: "TraceInterpreter"):
        self.var, self._interpreter = var, interpreter

    shape = property(lambda self: self.var.aval.shape)
    dtype = property(lambda self: self.var.aval.dtype)
    ndim = property(lambda self: len(self.var.aval.shape))
    size = property(lambda self: int(np.prod(self.var.aval.shape, dtype=np.int64)))

    def __array__(self, *args, **kwargs):
        raise TracedValueError("a traced value has no data while the graph is being built",
                             op="Graph mode", where=user_location(),
                             hint="use ops instead of NumPy on tensors inside construct/jit, "
                                  "or run this part in PyNative mode")

    def __bool__(self):
        raise SporelingError("the truth value of a traced tensor is unknown while tracing",
                             op="Graph mode", where=user_location(),
                             hint="tensor-valued `if`/`while` are rewritten by the AST pass; "
                                  "outside it use ops.where or cond")

    def __repr__(self) -> str:
        return f"Tracer({self.var.aval}, level={self._interpreter.level})"


def user_source() -> str | None:
    """``file:line`` of the innermost frame outside Sporeling's own modules (what the IR
    records per equation; errors add the function: :func:`~..core.location.locate`)."""
    frame = user_frame(sys._getframe(1))
    return None if frame is None else user_source_of(frame)


class TraceInterpreter(Interpreter, Layer):
    """Records every primitive bound on its tracers into equations (and, while
    :func:`make_graph` has it on the stack with ``fresh_seeds``, the fresh values)."""
    receives_fresh = True

    def __init__(self, record_source: bool = True, wrap_fresh: Callable | None = None):
        self.level = next_level()
        self.equations: list[Equation] = []
        self.captured: dict[int, tuple[object, Var]] = {}  # id(outer value) -> (value, Var)
        self.record_source = record_source
        self.closed = False  # its graph is built: a tracer of it met later has escaped
        # how a fresh value (see the module doc) is handed to the traced code: the Graph-mode
        # front end wraps it in a Tensor, like every other value its code sees
        self.wrap_fresh = wrap_fresh
        # values known while tracing (make_graph's ``values=``): Var -> array, the inputs'
        # and those read_value computed from them; None: nothing is known
        self.known: dict | None = None
        self.input_index: dict = {}  # input Var -> its position among the graph's inputs
        self.value_reads: set = set()  # input Vars whose value the traced code read
        self._producer: dict = {}  # Var -> the equation that made it (read_value's walk)
        self._scanned = 0
        # the last effect token (a debug print's result): effects run in the order bound
        self.effect_token = None

    def new_input(self, aval: Aval) -> Tracer:
        return Tracer(Var(Aval(tuple(aval.shape), np.dtype(aval.dtype))), self)

    def operand(self, value):
        """A Var or Const for ``value`` (capturing values of other interpreters)."""
        if isinstance(value, Tracer) and value._interpreter is self:
            return value.var
        inner = value if isinstance(value, Tracer) else getattr(value, "_data", None)
        if isinstance(inner, Tracer) and inner._interpreter is self:
            # a wrapper (a Tensor saved by a nested grad's tape) around one of our own
            # tracers: the value is ours, not an outside one to capture
            return inner.var
        if isinstance(inner, Tracer) and (inner._interpreter.closed or
                                          inner._interpreter.level > self.level):
            _escaped(inner)
        if getattr(value, "_interpreter", None) is not None or isinstance(value, Tracer):
            hit = self.captured.get(id(value))
            if hit is None:
                hit = self.captured[id(value)] = (value, Var(Aval(tuple(value.shape),
                                                                  np.dtype(value.dtype))))
            return hit[1]
        return Const(value)

    def apply(self, prim: Primitive, args: tuple, params: dict):
        if self.closed:
            _escaped(next((a for a in args if isinstance(a, Tracer) and a._interpreter is self),
                          None))
        invars = [self.operand(a) for a in args]
        try:
            out = prim.abstract(*(v.aval for v in invars), **params)
        except SporelingError as exc:  # the rule says what is wrong; the user's line: where
            locate(exc)
            raise
        outs = out if prim.multiple_results else (out,)
        outvars = [Var(Aval(tuple(a.shape), np.dtype(a.dtype))) for a in outs]
        source = user_source() if self.record_source else None
        self.equations.append(Equation(prim, invars, outvars, dict(params), source))
        tracers = [Tracer(v, self) for v in outvars]
        return tuple(tracers) if prim.multiple_results else tracers[0]

    def value_of(self, var: Var):
        """``(array, None)``: ``var``'s value, computed from the known inputs and constants
        (the inputs it depends on join ``value_reads``); or ``(None, why)``."""
        known = self.known
        if known is None:
            return None, None
        if var in known:
            if var in self.input_index:
                self.value_reads.add(var)
            return known[var], None
        producer = self._producer
        for eq in self.equations[self._scanned:]:
            for out in eq.outputs:
                producer[out] = eq
        self._scanned = len(self.equations)
        order, seen, inputs, todo = [], set(), set(), [(var, False)]
        while todo:  # the equations var depends on, in dependency order
            v, ready = todo.pop()
            if ready:
                order.append(producer[v])
                continue
            if v in seen:
                continue
            seen.add(v)
            if v in known:
                if v in self.input_index:
                    inputs.add(v)
                continue
            eq = producer.get(v)
            if eq is None:
                return None, ("an input whose value is not known while tracing (a "
                              "Parameter, or a value of an enclosing trace)")
            if eq.prim.nondeterministic or eq.prim.fresh_per_run:
                return None, f"a value drawn anew at every run ({eq.prim.name})"
            todo.append((v, True))
            todo.extend((x, False) for x in eq.inputs if isinstance(x, Var))
        from ..core import eager
        for eq in order:
            if eq.outputs[0] in known:  # an equation of several outputs, done already
                continue
            args = tuple(x.value if isinstance(x, Const) else known[x] for x in eq.inputs)
            out = eager.apply(eq.prim, args, dict(eq.params))
            known.update(zip(eq.outputs, out if eq.prim.multiple_results else (out,)))
        self.value_reads |= inputs
        return known[var], None


def read_value(tracer: Tracer) -> np.ndarray:
    """The value of ``tracer`` as a NumPy array (a copy), for code that reads a traced
    value (see the module doc); :class:`TracedValueError` when the trace cannot know it."""
    interp = tracer._interpreter
    value, why = interp.value_of(tracer.var) if not interp.closed else (None, None)
    if value is not None:
        return np.array(value, copy=True)
    if why is None:
        np.asarray(tracer)  # the tracer's own error: no data while the graph is built
    raise TracedValueError("the value of a traced tensor is read while the graph is being "
                           "built, and it is not known then", op="Graph mode",
                           got=f"a value that depends on {why}", where=user_location(),
                           hint="compute with ops instead of reading the value, or run this "
                                "part in PyNative mode")


def _escaped(tracer):
    """The error for a tracer of a finished trace: where it was computed, where it is used."""
    made = None
    if tracer is not None:
        made = next((eq.source for eq in tracer._interpreter.equations
                     if tracer.var in eq.outputs), None)
    raise SporelingError(
        "a traced value escaped the tensor-dependent branch or loop body that computed it",
        op="Graph mode", got=f"a value computed at {made}" if made else None,
        where=user_location(),
        hint="a body's values leave it only through its variables: assign the value to a "
             "variable instead of storing it in a list, dict or attribute (or make the "
             "condition a Python value)")


def innermost_trace() -> TraceInterpreter | None:
    """The innermost active trace of this thread that receives fresh values (None outside
    any)."""
    return receiver()


def _is_value(x) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype")  # arrays, Tensors, Avals (a tuple!)


def make_graph(fn: Callable, *example_args, name: str | None = None,
               record_source: bool = True, fresh_seeds: bool = True,
               wrap_fresh: Callable | None = None, values: list | None = None) -> Graph:
    """Trace ``fn`` on values shaped like ``example_args`` (arrays or Avals; nested
    tuples/lists/dicts allowed) into a :class:`Graph`.

    Values of outer traces that ``fn`` closes over become trailing graph inputs, listed in
    ``graph.meta["captured"]`` (in order) for the caller to pass. With ``fresh_seeds`` the
    trace receives the fresh values (random seeds) bound while ``fn`` runs, presented to
    ``fn`` through ``wrap_fresh`` when given (see the module doc).

    ``values``: the actual values of the (flattened) inputs, None where unknown; the traced
    code may then read values computed from them (:func:`read_value`), and
    ``graph.meta["value_reads"]`` lists the positions of the inputs it read.
    """
    interp = TraceInterpreter(record_source, wrap_fresh)
    leaves, in_tree = flatten(list(example_args), is_leaf=_is_value)
    tracers = [interp.new_input(leaf) for leaf in leaves]
    if values is not None:
        interp.known = {t.var: v for t, v in zip(tracers, values) if v is not None}
        interp.input_index = {t.var: i for i, t in enumerate(tracers)}
    from .pytree import unflatten
    if fresh_seeds:
        with pushed(interp):
            out = fn(*unflatten(in_tree, tracers))
    else:
        out = fn(*unflatten(in_tree, tracers))
    out_leaves, out_tree = flatten(out)
    try:
        outputs = [interp.operand(o) if hasattr(o, "shape") else Const(o)
                   for o in out_leaves]
    finally:
        interp.closed = True
    captured = list(interp.captured.values())
    graph = Graph([t.var for t in tracers] + [v for _, v in captured], interp.equations,
                  outputs, name or getattr(fn, "__name__", "graph"))
    graph.meta.update(in_tree=in_tree, out_tree=out_tree,
                      captured=[value for value, _ in captured],
                      value_reads=sorted(interp.input_index[v] for v in interp.value_reads))
    interp.known = None  # the trace is over: its values are not kept
    return graph
