"""Recurrent networks as single primitives: ``lstm`` and ``gru`` (multi-layer, bidirectional,
padded batches), with ``lstm_grad`` / ``gru_grad`` as their backward.

Operands (time-major; L layers, D = 2 if bidirectional else 1, H hidden units, G = 4 gates
``i, f, g, o`` for LSTM, 3 gates ``r, z, n`` for GRU -- PyTorch's and MindSpore's order):

* ``x`` (T, N, I);
* with ``has_state``: ``h0`` (L*D, N, H) and, for LSTM, ``c0`` (L*D, N, H); zeros without
  (an exported graph then needs no batch-sized constant);
* per layer, per direction (forward first): ``w_ih`` (G*H, I or D*H), ``w_hh`` (G*H, H),
  and with ``has_bias`` ``b_ih``, ``b_hh`` (G*H,);
* with ``has_lengths``: ``lengths`` (N,) integers: steps ``t >= lengths[n]`` keep sample
  ``n``'s state and output zeros (the reverse direction starts at each sample's last step).

Results: ``y`` (T, N, D*H), ``h_n`` (L*D, N, H) and, for LSTM, ``c_n``. GRU's candidate is
``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``.

**Backward.** ``lstm_grad`` / ``gru_grad`` take the forward's operands, its ``y`` and the
cotangents of the results flagged in ``cts`` (an unused result -- a cotangent that is an
all-zero constant -- is not passed), and return one gradient per floating operand. They
*recompute* the forward: the forward has no workspace result, so what it returns does not
depend on the backend that runs it (a oneDNN kernel serves the same primitives with its own
internal workspace; ``y`` is passed because such kernels read it). The gradient primitives
have no backward rule of their own: gradients of ``lstm`` and ``gru`` are first order
(grad of grad, and ``jvp``, raise an error naming ``lstm_grad``).

**vmap** folds the mapped axis into N when the weights are not mapped; mapped weights (and
the gradient primitives, whose weight gradients are per example) run one call per example.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ArgumentError, DTypeError, ShapeError, dtypes

from ...core import Aval, Primitive, bind, def_backward
from .._batching import move_axis, reshape, to_front
from .._util import as_operand, check_int, check_sequence, promote

__all__ = ["lstm", "gru"]

lstm_p = Primitive("lstm", multiple_results=True, amp="white")
gru_p = Primitive("gru", multiple_results=True, amp="white")
lstm_grad_p = Primitive("lstm_grad", multiple_results=True, amp="white")
gru_grad_p = Primitive("gru_grad", multiple_results=True, amp="white")

_GATES = {"lstm": 4, "gru": 3}
_STATES = {"lstm": 2, "gru": 1}


def _roles(kind, count, *, num_layers, bidirectional, has_bias, has_state, has_lengths,
           cts=None):
    """The role of each operand: ``"x"``, ``"state"``, ``("w", k, j)`` (layer/direction
    ``k``, ``j``: 0 w_ih, 1 w_hh, 2 b_ih, 3 b_hh), ``"lengths"``, ``"y"``, ``"ct_y"``,
    ``"ct_state"``; or a ShapeError when ``count`` does not fit the parameters."""
    dirs = 2 if bidirectional else 1
    per = 4 if has_bias else 2
    roles = ["x"] + ["state"] * (_STATES[kind] if has_state else 0)
    roles += [("w", k, j) for k in range(num_layers * dirs) for j in range(per)]
    roles += ["lengths"] if has_lengths else []
    if cts is not None:
        roles += ["y"] + [r for r, present in zip(["ct_y"] + ["ct_state"] * _STATES[kind], cts)
                          if present]
    if count != len(roles):
        raise ShapeError("wrong number of operands", op=kind + ("_grad" if cts else ""),
                         expected=f"{len(roles)} (num_layers={num_layers}, "
                                  f"bidirectional={bidirectional}, has_bias={has_bias}, "
                                  f"has_state={has_state}, has_lengths={has_lengths})",
                         got=count)
    return roles


def _check_forward(kind, avals, params, op=None):
    """Checks the forward operands; returns ``(dtype, (T, N, I), H, float avals)``."""
    op = op or kind
    roles = _roles(kind, len(avals), **params)
    if params["num_layers"] < 1:
        raise ShapeError("num_layers must be positive", op=op, expected=">= 1",
                         got=params["num_layers"])
    x = avals[0]
    if len(x.shape) != 3:
        raise ShapeError("input must be 3-d", op=op, expected="(T, N, input_size)",
                         got=tuple(x.shape))
    floats = [a for a, r in zip(avals, roles) if r not in ("lengths", "y", "ct_y", "ct_state")]
    dtype = np.dtype(x.dtype)
    for a in floats:
        if np.dtype(a.dtype) != dtype:
            raise DTypeError("operands have different dtypes", op=op,
                             expected="one floating dtype (the op functions promote first)",
                             got=", ".join(str(np.dtype(f.dtype)) for f in floats))
    if not dtypes.is_floating(dtype):
        raise DTypeError("operands must be floating", op=op, expected="a floating dtype",
                         got=str(dtype))
    steps, n, size = x.shape
    weights = {r[1:]: a for a, r in zip(avals, roles) if isinstance(r, tuple)}
    w_hh0 = weights[(0, 1)]  # (G * H, H): the hidden size
    if len(w_hh0.shape) != 2 or w_hh0.shape[0] != _GATES[kind] * w_hh0.shape[1]:
        raise ShapeError("w_hh of layer 0 has the wrong shape", op=op,
                         expected=f"({_GATES[kind]} * hidden_size, hidden_size)",
                         got=tuple(w_hh0.shape))
    hid = w_hh0.shape[1]
    dirs = 2 if params["bidirectional"] else 1
    g = _GATES[kind] * hid
    for (k, j), a in weights.items():
        layer, direction = divmod(k, dirs)
        names = ("w_ih", "w_hh", "b_ih", "b_hh")
        want = [(g, size if layer == 0 else dirs * hid), (g, hid), (g,), (g,)][j]
        if tuple(a.shape) != want:
            raise ShapeError(f"{names[j]} of layer {layer}"
                             + (" (reverse)" if direction else "") + " has the wrong shape",
                             op=op, expected=want, got=tuple(a.shape))
    state_shape = (params["num_layers"] * dirs, n, hid)
    for a, r in zip(avals, roles):
        if r == "state" and tuple(a.shape) != state_shape:
            raise ShapeError("initial state has the wrong shape", op=op,
                             expected=state_shape, got=tuple(a.shape))
        if r == "lengths":
            if tuple(a.shape) != (n,):
                raise ShapeError("lengths must hold one length per sample", op=op,
                                 expected=(n,), got=tuple(a.shape))
            if np.dtype(a.dtype).kind not in "iu":
                raise DTypeError("lengths must be integers", op=op, expected="an integer dtype",
                                 got=str(np.dtype(a.dtype)))
    return dtype, (steps, n, size), hid, floats


def _result_avals(kind, dtype, shape, hid, params):
    steps, n, _ = shape
    dirs = 2 if params["bidirectional"] else 1
    state = Aval((params["num_layers"] * dirs, n, hid), dtype)
    return (Aval((steps, n, dirs * hid), dtype),) + (state,) * _STATES[kind]


def _forward_aval(kind):
    def rule(*avals, **params):
        dtype, shape, hid, _ = _check_forward(kind, avals, params)
        return _result_avals(kind, dtype, shape, hid, params)
    return rule


def _grad_aval(kind):
    def rule(*avals, cts, **params):
        op = kind + "_grad"
        if len(cts) != 1 + _STATES[kind]:
            raise ShapeError("cts needs one flag per result", op=op,
                             expected=1 + _STATES[kind], got=len(cts))
        roles = _roles(kind, len(avals), cts=cts, **params)
        n_fwd = roles.index("y")
        dtype, shape, hid, floats = _check_forward(kind, avals[:n_fwd], params, op)
        results = _result_avals(kind, dtype, shape, hid, params)
        want = [results[0]] + [r for r, present in zip(results, cts) if present]
        for a, w, r in zip(avals[n_fwd:], want, roles[n_fwd:]):
            if tuple(a.shape) != w.shape or np.dtype(a.dtype) != dtype:
                raise ShapeError(f"{r} does not match the forward's result", op=op,
                                 expected=repr(w), got=repr(Aval(tuple(a.shape),
                                                                 np.dtype(a.dtype))))
        return tuple(Aval(tuple(a.shape), dtype) for a in floats)
    return rule


lstm_p.def_abstract_eval(_forward_aval("lstm"))
gru_p.def_abstract_eval(_forward_aval("gru"))
lstm_grad_p.def_abstract_eval(_grad_aval("lstm"))
gru_grad_p.def_abstract_eval(_grad_aval("gru"))


# ---- backward ------------------------------------------------------------------------------

def _live(g) -> bool:
    """False for a plain all-zero array (the cotangent of an unused result)."""
    return g is not None and not (type(g) is np.ndarray and not g.any())


def _rnn_backward(kind, grad_prim):
    def rule(ct, *inputs, out, needs, **params):
        present = tuple(_live(c) for c in ct)
        if not any(present):
            return (None,) * len(inputs)
        dtype = out[0].dtype
        cts = []
        for c, p in zip(ct, present):
            if p:
                if np.dtype(c.dtype) != np.dtype(dtype):
                    from ..dtype import cast
                    c = cast(c, dtype)
                cts.append(c)
        grads = list(bind(grad_prim, *inputs, out[0], *cts, cts=present, **params))
        if params["has_lengths"]:
            grads.append(None)
        return tuple(g if need else None for g, need in zip(grads, needs))
    return rule


def_backward(lstm_p, selective=True)(_rnn_backward("lstm", lstm_grad_p))
def_backward(gru_p, selective=True)(_rnn_backward("gru", gru_grad_p))


# ---- vmap: the mapped axis joins N (or one call per example) -------------------------------

# where N sits in a value of each role (per example); weights have none
_N_AXIS = {"x": 1, "y": 1, "ct_y": 1, "state": 1, "ct_state": 1, "lengths": 0}


def _fold(a, d, size, axis):
    """``a`` with its mapped axis (``d``; None: broadcast) merged into axis ``axis``."""
    from ..shape import broadcast_to, expand_dims
    if d is None:
        shape = tuple(a.shape)
        a = broadcast_to(expand_dims(a, axis), shape[:axis] + (size,) + shape[axis:])
    else:
        a = move_axis(a, d, axis)
    shape = tuple(a.shape)
    return reshape(a, shape[:axis] + (shape[axis] * shape[axis + 1],) + shape[axis + 2:])


def _unfold(y, size):
    """``(A, B*N, ...) -> (A, B, N, ...)``: the mapped axis at position 1."""
    shape = tuple(y.shape)
    return reshape(y, (shape[0], size, shape[1] // size) + shape[2:])


def _per_example(prim, args, dims, size, params):
    from ..indexing import getitem
    from ..shape import stack
    outs = [bind(prim, *[a if d is None else getitem(to_front(a, d), b)
                         for a, d in zip(args, dims)], **params) for b in range(size)]
    return tuple(stack([o[k] for o in outs], 0) for k in range(len(outs[0]))), \
        (0,) * len(outs[0])


def _batching(kind, prim, grad):
    def rule(args, dims, **params):
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        roles = _roles(kind, len(args), **params)
        weights_mapped = any(d is not None for r, d in zip(roles, dims) if isinstance(r, tuple))
        if grad or weights_mapped:
            return _per_example(prim, args, dims, size, params)
        folded = [a if isinstance(r, tuple) else _fold(a, d, size, _N_AXIS[r])
                  for a, d, r in zip(args, dims, roles)]
        outs = bind(prim, *folded, **params)
        return tuple(_unfold(o, size) for o in outs), (1,) * len(outs)
    return rule


lstm_p.def_batching(_batching("lstm", lstm_p, False))
gru_p.def_batching(_batching("gru", gru_p, False))
lstm_grad_p.def_batching(_batching("lstm", lstm_grad_p, True))
gru_grad_p.def_batching(_batching("gru", gru_grad_p, True))


# ---- the functional ops ----------------------------------------------------------------------

def _operands(kind, x, weights, states, num_layers, bidirectional, has_bias, seq_length):
    """Promoted operands and the primitive's parameters."""
    op = kind
    weights = list(check_sequence(op, "weights", weights))
    dirs = 2 if bidirectional else 1
    per = (4 if has_bias else 2) * dirs
    if num_layers is None:
        if not weights or len(weights) % per:
            raise ShapeError("wrong number of weights", op=op,
                             expected=f"a positive multiple of {per} (w_ih, w_hh"
                                      + (", b_ih, b_hh" if has_bias else "")
                                      + f" per layer and direction)", got=len(weights))
        num_layers = len(weights) // per
    num_layers = check_int(num_layers, "num_layers", op=op, min=1)
    if len(weights) != per * num_layers:  # before the roles list is built num_layers long
        raise ShapeError("wrong number of weights", op=op,
                         expected=f"{per} per layer for num_layers={num_layers}",
                         got=len(weights))
    floats = promote(op, as_operand(x), *states, *weights)
    if not dtypes.is_floating(floats[0].dtype):
        from ..dtype import cast
        floats = [cast(f, dtypes.default_float) for f in floats]
    x = floats[0]
    params = dict(num_layers=int(num_layers), bidirectional=bool(bidirectional),
                  has_bias=bool(has_bias), has_state=bool(states),
                  has_lengths=seq_length is not None)
    operands = list(floats)
    if seq_length is not None:
        operands.append(_lengths(op, seq_length, x.shape[1] if len(x.shape) == 3 else None))
    return operands, params


def _lengths(op, seq_length, n):
    """``seq_length`` as (N,) integers (one value, or any shape of N values, as the layers
    always took it)."""
    from ..dtype import cast
    from ..shape import broadcast_to
    lengths = as_operand(seq_length)
    if np.dtype(lengths.dtype).kind not in "iu":
        lengths = cast(lengths, np.int64)
    size = int(np.prod(lengths.shape, dtype=np.int64))
    if n is not None and tuple(lengths.shape) != (n,):
        if size == n:
            lengths = reshape(lengths, (n,))
        elif size == 1:
            lengths = broadcast_to(reshape(lengths, (1,)), (n,))
        else:
            raise ShapeError("seq_length must hold one length per sample", op=op,
                             expected=f"({n},)", got=tuple(lengths.shape))
    return lengths


def _time_major(x, batch_first):
    from ..shape import transpose
    x = as_operand(x)
    if batch_first and len(x.shape) == 3:
        return transpose(x, (1, 0, 2))
    return x


def _batch_major(y, batch_first):
    from ..shape import transpose
    return transpose(y, (1, 0, 2)) if batch_first else y


def lstm(x, weights, hx=None, *, num_layers=None, bidirectional=False, has_bias=True,
         seq_length=None, batch_first=False):
    """A multi-layer LSTM over ``x`` (T, N, I) (``batch_first``: (N, T, I)) in one
    primitive. ``weights``: per layer, per direction (forward, then reverse) ``w_ih``
    (4H, I or D*H), ``w_hh`` (4H, H) and, with ``has_bias``, ``b_ih``, ``b_hh`` (4H,), gates
    ``i, f, g, o``; ``num_layers`` defaults to what the weights hold. ``hx = (h0, c0)``,
    each (L*D, N, H), or None for zeros. ``seq_length`` (N,): sample ``n``'s steps from
    ``seq_length[n]`` on keep its state and output zeros. Returns ``(y, (h_n, c_n))``,
    ``y`` (T, N, D*H) (batch-first too with ``batch_first``).

        >>> import numpy as np
        >>> w = [np.full((8, 3), 0.1), np.full((8, 2), 0.1), np.zeros(8), np.zeros(8)]
        >>> y, (h, c) = lstm(np.ones((5, 1, 3)), w)
        >>> y.shape, h.shape, c.shape
        ((5, 1, 2), (1, 1, 2), (1, 1, 2))
        >>> np.round(h[0, 0], 4)
        array([0.2339, 0.2339])
    """
    x = _time_major(x, batch_first)
    if hx is None:
        states = ()
    else:
        if not isinstance(hx, (list, tuple)) or len(hx) != 2:
            raise ArgumentError("bad hx", op="lstm", expected="None or a pair (h0, c0)",
                                got=repr(hx)[:80])
        h0, c0 = hx
        if h0 is None and c0 is None:
            states = ()
        else:
            like = h0 if h0 is not None else c0
            zeros = np.zeros(tuple(like.shape), np.dtype(like.dtype))
            states = (zeros if h0 is None else h0, zeros if c0 is None else c0)
    operands, params = _operands("lstm", x, weights, states, num_layers, bidirectional,
                                 has_bias, seq_length)
    lstm_p.abstract(*operands, **params)  # the error names the op and the shapes
    y, h, c = bind(lstm_p, *operands, **params)
    return _batch_major(y, batch_first), (h, c)


def gru(x, weights, hx=None, *, num_layers=None, bidirectional=False, has_bias=True,
        seq_length=None, batch_first=False):
    """A multi-layer GRU in one primitive; arguments as :func:`lstm` with 3H-row weights
    (gates ``r, z, n``; ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``) and ``hx = h0``
    (L*D, N, H) or None. Returns ``(y, h_n)``.

        >>> import numpy as np
        >>> w = [np.full((6, 3), 0.1), np.full((6, 2), 0.1), np.zeros(6), np.zeros(6)] * 2
        >>> y, h = gru(np.ones((4, 2, 3)), w, bidirectional=True)
        >>> y.shape, h.shape
        ((4, 2, 4), (2, 2, 2))
    """
    x = _time_major(x, batch_first)
    states = () if hx is None else (hx,)
    operands, params = _operands("gru", x, weights, states, num_layers, bidirectional,
                                 has_bias, seq_length)
    gru_p.abstract(*operands, **params)
    y, h = bind(gru_p, *operands, **params)
    return _batch_major(y, batch_first), h
