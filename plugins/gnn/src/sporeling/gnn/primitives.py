"""Segment reductions as compiler primitives, contributed by this plugin through
``sporeling_add_primitives`` (kernels in :mod:`.kernels`, batching rules in
:mod:`.batching`). They run in PyNative and Graph mode (``sx.jit``), differentiate to any
order, and export to SIR by name.

``segment_*(data, segment_ids, num_segments)``: ``data`` is ``(N, *F)``, ``segment_ids`` an
``(N,)`` integer array with values in ``[0, num_segments)`` (unsorted is fine); the result
is ``(num_segments, *F)``, row ``s`` reducing the rows of ``data`` whose id is ``s``.

==========================  ======================  ==================================
primitive                   an empty segment gives  backward (``ct``: the cotangent)
==========================  ======================  ==================================
``gnn_segment_sum``         0                       ``gather(ct, ids)``
``gnn_segment_mean``        0                       ``gather(ct / max(count, 1), ids)``
``gnn_segment_max``         0 (PyG's convention)    ``ct`` to the maximum; **ties split
                                                    it evenly** (each of k tied rows gets
                                                    ``ct / k``), as TensorFlow does
==========================  ======================  ==================================

Gathering rows needs no new primitive: the compiler's ``gather`` (``np.take``, backward
``add_at``, with a batching rule) is reused as :func:`gather`. ``scatter_add`` and
``segment_softmax`` are compositions.

    >>> import numpy as np
    >>> segment_sum(np.array([1.0, 2.0, 4.0]), np.array([2, 0, 2]), 4)
    array([2., 0., 5., 0.])
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import Primitive, bind, def_backward
from sporeling.compiler.core import Aval
from sporeling.compiler.core.batching import def_batching
from sporeling.compiler.ops import (add, cast, div, equal, exp, gather, maximum, mul,
                                    reshape, sub)
from sporeling.compiler.ops._util import as_operand
from sporeling.core import DTypeError, ShapeError

from ._checks import SegmentIdError, check_ids
from .batching import segment_rule

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_softmax", "scatter",
           "scatter_add", "gather", "segment_sum_p", "segment_mean_p", "segment_max_p",
           "PRIMITIVES", "SegmentIdError"]


segment_sum_p = Primitive("gnn_segment_sum", doc="rows of data summed per segment id")
segment_mean_p = Primitive("gnn_segment_mean", doc="rows of data averaged per segment id")
segment_max_p = Primitive("gnn_segment_max", doc="rows of data maximised per segment id")
PRIMITIVES = (segment_sum_p, segment_mean_p, segment_max_p)


_FLOAT_ONLY = {"segment_mean": True}


def check_operands(op: str, data, ids) -> None:
    """Shapes and dtypes of a segment op's operands (the ids' values: :func:`check_ids`)."""
    shape = tuple(data.shape)
    if not shape:
        raise ShapeError("data must have a row axis", op=op, expected="data of shape (N, ...)",
                         got="a 0-d value")
    if np.dtype(ids.dtype).kind not in "iu":
        raise DTypeError("segment ids must be integers", op=op, expected="an integer dtype",
                         got=str(np.dtype(ids.dtype)))
    if tuple(ids.shape) != shape[:1]:
        raise ShapeError("one segment id per row of data", op=op,
                         expected=f"ids of shape ({shape[0]},) for data {shape}",
                         got=tuple(ids.shape))
    float_only = _FLOAT_ONLY.get(op, False)
    if np.dtype(data.dtype).kind not in ("f" if float_only else "fiu"):
        raise DTypeError("unsupported data dtype", op=op,
                         expected="a float dtype" if float_only else "a numeric dtype",
                         got=str(np.dtype(data.dtype)))


def _aval(op: str):
    def rule(data, ids, *, num_segments):
        check_operands(op, data, ids)
        check_ids(op, ids, num_segments)
        return Aval((num_segments,) + tuple(data.shape[1:]), np.dtype(data.dtype))
    return rule


segment_sum_p.def_abstract_eval(_aval("segment_sum"))
segment_mean_p.def_abstract_eval(_aval("segment_mean"))
segment_max_p.def_abstract_eval(_aval("segment_max"))
for _prim in PRIMITIVES:
    def_batching(_prim)(segment_rule(_prim))


# ---- backward rules (written with ops: each is differentiable again) ------------------------

def _per_row(v, ndim: int):
    """A per-segment vector ``(S,)`` shaped ``(S, 1, ..., 1)`` to broadcast over rows."""
    return reshape(v, (v.shape[0],) + (1,) * (ndim - 1))


def _counts(ids, num_segments: int, dtype):
    ones = np.ones(ids.shape, dtype)
    return bind(segment_sum_p, ones, ids, num_segments=num_segments)


@def_backward(segment_sum_p, uses=(1,))
def _segment_sum_bwd(ct, data, ids, *, out, num_segments):
    return gather(ct, ids, axis=0), None


@def_backward(segment_mean_p, uses=(1,))
def _segment_mean_bwd(ct, data, ids, *, out, num_segments):
    count = maximum(_counts(ids, num_segments, ct.dtype), 1.0)
    return gather(div(ct, _per_row(count, len(ct.shape))), ids, axis=0), None


@def_backward(segment_max_p, uses=(0, 1, "out"))
def _segment_max_bwd(ct, data, ids, *, out, num_segments):
    hit = cast(equal(data, gather(out, ids, axis=0)), ct.dtype)  # 1 where a row is the max
    ties = maximum(bind(segment_sum_p, hit, ids, num_segments=num_segments), 1.0)
    return mul(hit, gather(div(ct, ties), ids, axis=0)), None


# ---- the functions ---------------------------------------------------------------------------

def _prepare(op: str, data, segment_ids, num_segments):
    data, ids = as_operand(data), as_operand(segment_ids)
    if num_segments is None:
        if not isinstance(ids, np.ndarray):
            raise ShapeError("num_segments is needed for traced segment ids", op=op,
                             expected="num_segments=<int>", got="None")
        num_segments = int(ids.max()) + 1 if ids.size else 0
    if isinstance(num_segments, bool) or not isinstance(num_segments, (int, np.integer)) \
            or num_segments < 0:
        raise ShapeError("bad num_segments", op=op, expected="an int >= 0",
                         got=repr(num_segments))
    check_operands(op, data, ids)  # the kernels check the ids' values
    return data, ids, int(num_segments)


def segment_sum(data, segment_ids, num_segments: int | None = None):
    """Rows of ``data`` summed per segment id (TensorFlow's ``unsorted_segment_sum``).
    ``num_segments`` defaults to ``max(id) + 1`` for concrete ids; give it in Graph mode."""
    data, ids, n = _prepare("segment_sum", data, segment_ids, num_segments)
    return bind(segment_sum_p, data, ids, num_segments=n)


def segment_mean(data, segment_ids, num_segments: int | None = None):
    """Rows of float ``data`` averaged per segment id; an empty segment gives 0."""
    data, ids, n = _prepare("segment_mean", data, segment_ids, num_segments)
    return bind(segment_mean_p, data, ids, num_segments=n)


def segment_max(data, segment_ids, num_segments: int | None = None):
    """Rows of ``data`` maximised per segment id; an empty segment gives 0. The gradient
    goes to the maximum; tied rows share it evenly."""
    data, ids, n = _prepare("segment_max", data, segment_ids, num_segments)
    return bind(segment_max_p, data, ids, num_segments=n)


_REDUCE = {"sum": segment_sum, "add": segment_sum, "mean": segment_mean, "max": segment_max}


def scatter(src, index, dim_size: int | None = None, reduce: str = "sum"):
    """PyG's ``scatter(src, index, dim=0, dim_size, reduce)``: a segment reduction by name
    (``sum``/``add``, ``mean``, ``max``)."""
    fn = _REDUCE.get(reduce)
    if fn is None:
        raise ShapeError("unknown reduction", op="scatter",
                         expected=f"one of {', '.join(_REDUCE)}", got=repr(reduce))
    return fn(src, index, dim_size)


def scatter_add(x, index, src):
    """A copy of ``x`` with row ``i`` of ``src`` added to row ``index[i]``; repeated indices
    accumulate (PyTorch's ``index_add(0, index, src)``)."""
    x = as_operand(x)
    return add(x, segment_sum(src, index, x.shape[0]))


def segment_softmax(scores, segment_ids, num_segments: int | None = None):
    """Softmax of ``scores`` over the rows sharing a segment id (the attention weights of
    the edges entering each node); stable: each segment's maximum is subtracted first."""
    scores, ids, n = _prepare("segment_softmax", scores, segment_ids, num_segments)
    shifted = sub(scores, gather(bind(segment_max_p, scores, ids, num_segments=n), ids,
                                 axis=0))
    e = exp(shifted)
    return div(e, gather(bind(segment_sum_p, e, ids, num_segments=n), ids, axis=0))
