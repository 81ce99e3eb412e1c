"""A fused elementwise chain (the ``expr`` of ``fused_elementwise``, see
``sporeling.runtime.kernels.fused``) as a TensorIR function: one loop nest over the output,
every node an expression of the output's indices, no temporaries.

Each operand is read at the output index projected onto its own shape (NumPy's
broadcasting, right-aligned), so a per-channel vector or a scalar costs one load. Every
node computes in its own dtype, as NumPy's kernels with ``out=`` do. The schedule fuses the
trailing axes every operand reads either whole or not at all into the inner loop, which
LLVM vectorises (TVM when it is one vector long); the loops run on the calling thread (see
:data:`PARALLEL_FROM`).

A node this module has no expression for raises :class:`Unsupported`; the kernel then
runs the chain on the provider below.
"""
from __future__ import annotations

import math

import numpy as np

from .entry import declare
from .target import tvm, vector_bytes

__all__ = ["Unsupported", "unsupported", "collapsed", "generic", "resolved", "with_shapes",
           "GENERIC", "prim_func", "arguments", "emit_nest", "schedule_nest", "NestValue",
           "EXPRESSIONS", "PARALLEL_FROM"]

PARALLEL_FROM: int | None = None
"""Outputs with at least this many elements run their outer loops on TVM's threads; None:
never. TVM's thread pool spins between loops as OpenMP's (oneDNN's) does, and on 2 cores
the two pools fight: a ResNet-20 Graph step took 235 ms with loops threaded from 65,536
elements, 87 ms with every loop on one thread (``bench/peers.py``, oneDNN's convolutions
on both cores in either case)."""


class Unsupported(Exception):
    """A chain with a node (or a shape) this module does not generate."""


def _ops():
    t = tvm()
    te, tir = t.te, t.tirx

    def nan_max(a, b):  # NumPy's maximum propagates NaN; LLVM's maxnum does not (and TVM's
        # simplifier folds a != a to False, hence isnan)
        if "float" not in _dtype(a):
            return te.max(a, b)
        if _number(b):  # relu, clip: NumPy's (a > b or a is NaN) ? a : b (b when equal:
            return tir.Select(a <= b, b, a)  # max(-0.0, 0.0) is 0.0), which TVM vectorises
        return tir.Select(te.isnan(a), a, tir.Select(te.isnan(b), b, te.max(a, b)))

    def nan_min(a, b):
        if "float" not in _dtype(a):
            return te.min(a, b)
        if _number(b):
            return tir.Select(a >= b, b, a)
        return tir.Select(te.isnan(a), a, tir.Select(te.isnan(b), b, te.min(a, b)))

    def c(v, dtype):
        return tir.const(v, dtype)

    def _number(b):  # a constant that is not NaN
        return isinstance(b, tir.FloatImm) and not math.isnan(b.value)

    return {
        "add": lambda d, p, a, b: a + b, "sub": lambda d, p, a, b: a - b,
        "mul": lambda d, p, a, b: a * b, "div": lambda d, p, a, b: a / b,
        "neg": lambda d, p, a: -a, "abs": lambda d, p, a: te.abs(a),
        "square": lambda d, p, a: a * a, "sqrt": lambda d, p, a: te.sqrt(a),
        "rsqrt": lambda d, p, a: c(1, d) / te.sqrt(a),
        "rsqrt_eps": lambda d, p, a: c(1, d) / te.sqrt(a + c(p["eps"], d)),
        "reciprocal": lambda d, p, a: c(1, d) / a,
        "exp": lambda d, p, a: te.exp(a), "log": lambda d, p, a: te.log(a),
        "sin": lambda d, p, a: te.sin(a), "cos": lambda d, p, a: te.cos(a),
        "tanh": lambda d, p, a: te.tanh(a),
        "sigmoid": lambda d, p, a: c(1, d) / (c(1, d) + te.exp(-a)),
        "maximum": lambda d, p, a, b: nan_max(a, b),
        "minimum": lambda d, p, a, b: nan_min(a, b),
        "pow": lambda d, p, a, b: te.power(a, b),
        "pow_scalar": lambda d, p, a: a * a if p["exponent"] == 2 else
        te.power(a, c(p["exponent"], d)),
        "relu": lambda d, p, a: nan_max(a, c(0, d)),
        "relu_grad": lambda d, p, y, g: tir.Cast(d, y > c(0, d)) * g,
        "tanh_grad": lambda d, p, y, g: (c(1, d) - y * y) * g,
        "sigmoid_grad": lambda d, p, y, g: ((c(1, d) - y) * y) * g,
        "silu": lambda d, p, a: a * (c(1, d) / (c(1, d) + te.exp(-a))),
        "leaky_relu": lambda d, p, a: tir.Select(a > c(0, d), a, a * c(p["alpha"], d)),
        "clip_scalar": lambda d, p, a: _clip(a, p, d, nan_max, nan_min),
        "where": lambda d, p, cond, a, b: tir.Select(
            cond if _dtype(cond) == "bool" else cond != tir.const(0, _dtype(cond)), a, b),
        "cast": lambda d, p, a: a,  # operands arrive cast to the node's dtype
        "broadcast_to": lambda d, p, a: a,  # reads are projected onto each shape
    }


def _clip(a, params, dtype, nan_max, nan_min):
    c = tvm().tirx.const
    if params.get("min") is not None:
        a = nan_max(a, c(params["min"], dtype))
    if params.get("max") is not None:
        a = nan_min(a, c(params["max"], dtype))
    return a


EXPRESSIONS = ("add", "sub", "mul", "div", "neg", "abs", "square", "sqrt", "rsqrt",
               "rsqrt_eps", "reciprocal", "exp", "log", "sin", "cos", "tanh", "sigmoid",
               "maximum", "minimum", "pow", "pow_scalar", "relu", "relu_grad", "tanh_grad",
               "sigmoid_grad", "silu", "leaky_relu", "clip_scalar", "where", "cast",
               "broadcast_to")
"""The primitives a chain may hold (the rest of the fusible ones -- erf, gelu, expm1,
log1p, softplus, plugins' own -- run on the provider below, matching NumPy's/SciPy's
special functions bit for bit)."""

_UNCAST = {"where": (0,)}  # operands not converted to the node's dtype (the condition)


def _dtype(value) -> str:
    """A TIR expression's dtype (0.27 keeps it on the expression's type)."""
    return str(value.expr_ty()) if hasattr(value, "expr_ty") else str(value.dtype)


def _project(shape, index):
    """``index`` (the output's) read by a value of ``shape`` (NumPy's broadcasting)."""
    offset = len(index) - len(shape)
    return tuple(0 if n == 1 else index[offset + j] for j, n in enumerate(shape))


def _fused_axes(out_shape, in_shapes) -> int:
    """How many trailing axes every input reads whole or not at all (fused and
    vectorised as one): never a :data:`GENERIC` one (its extent is not known)."""
    n, count = len(out_shape), 0
    for k in range(n - 1, -1, -1):
        if out_shape[k] == GENERIC:
            return count
        group = range(k, n)
        for shape in in_shapes:
            padded = (1,) * (n - len(shape)) + tuple(shape)
            whole = all(padded[j] == out_shape[j] for j in group)
            absent = all(padded[j] == 1 for j in group)
            if not (whole or absent):
                return count
        count += 1
    return count


def unsupported(expr: tuple, in_specs: tuple) -> str | None:
    """Why :func:`prim_func` would not generate ``expr`` (None: it would), without TVM."""
    if 0 in tuple(expr[-1][3]):
        return "an empty output"
    dtypes = [node[4] for node in expr] + [  # the nodes' first: specs keep only .str
        ref[2] for node in expr for ref in node[1] if ref[0] == "const"] + [
        d for _, d in in_specs]
    for dtype in dtypes:
        if np.dtype(dtype).kind not in "biuf":  # bfloat16, float8 (ml_dtypes): NumPy's kernels
            return f"dtype {np.dtype(dtype).name}"
    for name, *_ in expr:
        if name not in EXPRESSIONS:
            return f"no expression for {name!r}"
    return None


def collapsed(expr: tuple, in_specs: tuple) -> tuple[tuple, tuple]:
    """``(expr, in_specs)`` with the trailing axes every operand reads whole or not at all
    merged into one (the shapes of the nodes and inputs alike), or as they are when there
    is at most one such axis. A fused loop over (64, 32, 3, 3) indexed each operand with a
    division by 288 per element: 2.8 ns an element against 0.2 ns over (18432,)."""
    out_shape = tuple(expr[-1][3])
    n = len(out_shape)
    fused = _fused_axes(out_shape, [shape for shape, _ in in_specs])
    if fused < 2:
        return expr, in_specs

    def merge(shape):
        padded = (1,) * (n - len(shape)) + tuple(shape)
        return padded[:n - fused] + (math.prod(padded[n - fused:]),)

    return with_shapes(expr, merge), tuple((merge(shape), dtype) for shape, dtype in in_specs)


def with_shapes(expr: tuple, shape_of) -> tuple:
    """``expr`` with each node's shape mapped by ``shape_of``."""
    return tuple((name, operands, params, shape_of(shape), dtype)
                 for name, operands, params, shape, dtype in expr)


GENERIC = -1
"""The extent of a :func:`generic` chain's outermost axis: the function's argument
(a symbolic extent), not a number compiled in."""


def generic(expr: tuple, in_specs: tuple) -> tuple[tuple, tuple]:
    """``(expr, in_specs)`` with the outermost axis's extent :data:`GENERIC` where every
    operand and node of the output's rank has that axis whole or broadcast (extent 1): one
    function then serves every batch size -- a last partial batch, an evaluation's batches
    -- where the axes it vectorises and the choices made on their extents stay the same
    (:func:`collapsed` never fuses that axis). A chain of one axis or of an outermost
    extent 1 stays as it is."""
    out_shape = tuple(expr[-1][3])
    n = len(out_shape)
    if n < 2 or out_shape[0] < 2:
        return expr, in_specs
    shapes = [tuple(shape) for shape, _ in in_specs] + [tuple(node[3]) for node in expr]
    if any(len(shape) == n and shape[0] not in (1, out_shape[0]) for shape in shapes):
        return expr, in_specs

    def free(shape):
        shape = tuple(shape)
        return (GENERIC,) + shape[1:] if len(shape) == n and shape[0] == out_shape[0] else \
            shape

    return with_shapes(expr, free), tuple((free(shape), dtype) for shape, dtype in in_specs)


def resolved(shape, extent) -> tuple:
    """``shape`` with :data:`GENERIC` as ``extent``: a call's number, or the generated
    function's TIR variable."""
    return tuple(extent if d == GENERIC else d for d in shape)


def prim_func(expr: tuple, in_specs: tuple):
    """The scheduled TensorIR module computing ``expr`` from inputs ``in_specs`` (``(shape,
    dtype)`` each) into the last node's shape and dtype (an outermost extent
    :data:`GENERIC`: the function's, read from its arrays)."""
    why = unsupported(expr, in_specs)
    if why is not None:
        raise Unsupported(why)
    t = tvm()
    # a 0-d result (a loss and its scaling...) is a loop of one over shape (1,)
    out_shape, out_dtype = tuple(expr[-1][3]) or (1,), str(np.dtype(expr[-1][4]))
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T

    with IRBuilder() as builder:
        with T.prim_func(s_tir=True):
            extent = T.int64() if GENERIC in out_shape else None
            *inputs, out = arguments(T, in_specs, out_shape, out_dtype, extent)
            emit_nest(T, [(expr, in_specs, inputs, out)], out_shape, "out", extent)
    sch = t.s_tir.Schedule(builder.get())
    schedule_nest(sch, "out", out_shape, out_dtype, [s for s, _ in in_specs])
    return sch.mod


class NestValue:
    """An operand of a chain in a loop nest that is the value an earlier chain of the same
    nest computes at the same index (see :func:`emit_nest`): read, it is that chain's
    result at the index, just stored."""

    def __init__(self, member: int):
        self.member = member
        self.values: dict = {}  # emit_nest's, while it emits the nest

    def __getitem__(self, index):
        return self.values[self.member]


def emit_nest(T, members, out_shape, block: str, extent=None) -> None:
    """Inside ``T.prim_func()``: one loop nest over ``out_shape`` (sblock ``block``) that
    stores, at each index, every member chain's value into its output -- ``members`` are
    ``(expr, in_specs, inputs, out)``, computed in order; an input may be a
    :class:`NestValue` of an earlier member (its result at the index, as just stored).
    ``extent``: the TIR variable a :data:`GENERIC` extent stands for."""
    tir = tvm().tirx
    ops = _ops()
    # nodes with one value for the whole output (an optimizer's bias corrections from the
    # step count...) are computed once, before the loops (LLVM did not hoist a
    # per-element pow: 83 us for 30k elements)
    known = [{k: T.bind(v) for k, v in _values(expr, in_specs, inputs, [], ops, tir, {},
                                              _invariant(expr, in_specs)).items()}
             for expr, in_specs, inputs, _ in members]
    values: dict = {}
    for member in members:  # a NestValue's reads resolve through this table
        for x in member[2]:
            if isinstance(x, NestValue):
                x.values = values
    extents = resolved(out_shape, extent)
    with T.grid(*extents) as loops:
        loops = list(loops) if len(out_shape) > 1 or not isinstance(
            loops, tvm().tirx.Var) else [loops]
        with T.sblock(block):
            index = [T.axis.spatial(n, i) for n, i in zip(extents, loops)]
            for m, ((expr, in_specs, inputs, out), given) in enumerate(zip(members, known)):
                last = len(expr) - 1
                T.buffer_store(out, _values(expr, in_specs, inputs, index, ops, tir, given,
                                            {last})[last], index)
                # a later member reading it reads it where it was just stored (LLVM
                # forwards the stored value: no load). Its expression written again (as
                # before) re-read its inputs after this store, which may have written over
                # one: a Parameter's update in place (Adam's moments, read again for the
                # weight's step, were then the new ones where LLVM reloaded them -- the
                # scalar remainder of a 6-wide loop). Bound to a variable instead, TVM's
                # vectoriser gave every lane of a short loop one lane's value.
                values[m] = out[tuple(index)]


def arguments(T, in_specs, out_shape, out_dtype, extent=None, extra=()) -> list:
    """Inside ``T.prim_func()``: the function ``main(in0, ..., out, *extra)`` over NumPy's
    arrays (:func:`~.entry.declare`), its input buffers, its output buffer and those of
    ``extra`` (``(name, shape, dtype)`` each); ``extent``: the TIR variable a
    :data:`GENERIC` extent stands for."""
    T.func_name("main")
    T.func_attr({"tirx.noalias": True})
    names = [f"in{i}" for i in range(len(in_specs))] + ["out"] + [n for n, _, _ in extra]
    specs = [(resolved(shape, extent) or (1,), dtype) for shape, dtype in in_specs] + \
        [(resolved(out_shape, extent), out_dtype)] + [(s, d) for _, s, d in extra]
    return declare([T.arg(name, T.handle()) for name in names], specs)


def _invariant(expr, in_specs) -> set:
    """The nodes (but the last) of one element whose operands are constants, one-element
    inputs or such nodes."""
    single = {i for i, (shape, _) in enumerate(in_specs) if math.prod(shape) == 1}
    found: set = set()
    for k, (_, operands, _, shape, _) in enumerate(expr[:-1]):
        if math.prod(shape) == 1 and all(
                ref[0] == "const" or ref[0] == "in" and ref[1] in single or
                ref[0] == "node" and ref[1] in found for ref in operands):
            found.add(k)
    return found


def _values(expr, in_specs, inputs, index, ops, tir, known: dict, wanted: set) -> dict:
    """Node -> its value at the output's ``index`` for the ``wanted`` nodes (and what
    they read), ``known`` ones taken as given."""
    values = dict(known)
    needed = set(wanted)
    for k in range(len(expr) - 1, -1, -1):  # what the wanted nodes read
        if k in needed and k not in values:
            needed.update(ref[1] for ref in expr[k][1] if ref[0] == "node")
    for k, (name, operands, params, shape, dtype) in enumerate(expr):
        if k not in needed or k in values:
            continue
        dtype = str(np.dtype(dtype))
        args = []
        for j, ref in enumerate(operands):
            if ref[0] == "in":
                shape_in = tuple(in_specs[ref[1]][0])
                value = inputs[ref[1]][_project(shape_in, index) if shape_in else (0,)]
            elif ref[0] == "node":
                value = values[ref[1]]
            else:
                value = tir.const(ref[1], str(np.dtype(ref[2])))
            have = _dtype(value)
            if j not in _UNCAST.get(name, ()) and have != dtype:
                # NumPy's casts: nonzero is True; floats to integers truncate
                value = value != tir.const(0, have) if dtype == "bool" else \
                    tir.Cast(dtype, value)
            args.append(value)
        values[k] = ops[name](dtype, dict(params), *args)
    return {k: values[k] for k in wanted}


def schedule_nest(sch, block: str, out_shape, out_dtype, in_shapes,
                  reads_back: bool = False) -> None:
    """The trailing axes every operand reads whole or not at all fused into one inner loop.
    LLVM's loop vectoriser takes a long one (with its remainder and its unrolling):
    splitting it at the vector width and vectorising in TVM ran 1.7-4.4x slower wherever
    the extent is not a multiple of the width (48 against 13 us for 100,003 elements). A
    short one under outer loops -- a blocked layout's 16 channels, read with a per-channel
    bias -- TVM vectorises whole: LLVM unrolled it and vectorised the loop around it with
    gathers and scatters (24 against 10 us for (64, 64, 16) + (64, 1, 16))."""
    loops = sch.get_loops(sch.get_sblock(block))
    fused = _fused_axes(out_shape, in_shapes)
    outer = list(loops[:len(loops) - fused])
    inner = sch.fuse(*loops[len(loops) - fused:]) if fused > 1 else loops[-1]
    extent = math.prod(out_shape[len(out_shape) - fused:]) if fused else out_shape[-1]
    # (not where a member reads back what another stored at the index: TVM's vectoriser
    # then ran the loop lane by lane -- Adam's update of a (16, 6) weight 6.5 -> 13 us)
    if outer and extent * np.dtype(out_dtype).itemsize <= vector_bytes() and not reads_back:
        sch.vectorize(inner)
    if PARALLEL_FROM is not None and math.prod(out_shape) >= PARALLEL_FROM and outer:
        sch.parallel(sch.fuse(*outer) if len(outer) > 1 else outer[0])
