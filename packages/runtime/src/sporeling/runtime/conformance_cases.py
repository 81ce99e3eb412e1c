"""Generated inputs for the backend conformance suite (:mod:`sporeling.runtime.testing`).

``CASES`` maps a primitive name to a hypothesis strategy of :class:`Case`: the kernel's
NumPy inputs and parameters. Shapes include 0-d and empty arrays and broadcasting; values
stay inside each primitive's domain (positive for ``log``, nonzero divisors, ...), so the
reference is finite and a backend is compared where the primitive is defined.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = ["Case", "CASES", "fused_expressions"]

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@dataclass
class Case:
    """``kernel(backend, *inputs, **params)``; ``exact``: compare without tolerance."""
    inputs: tuple
    params: dict = field(default_factory=dict)
    exact: bool = False


def _values(dtype, lo=-3.0, hi=3.0, nonzero=False):
    dtype = np.dtype(dtype)
    if dtype == bool:
        return st.booleans()
    if dtype.kind in "iu":
        return st.integers(int(lo), int(hi)).filter(lambda v: not nonzero or v != 0)
    width = 8 * dtype.itemsize
    lo, hi = (float(dtype.type(v)) for v in (lo, hi))  # bounds the dtype can hold exactly
    values = st.floats(lo, hi, width=width, allow_nan=False, allow_infinity=False)
    return values.filter(lambda v: abs(v) > 0.05) if nonzero else values


def _array(draw, shape, dtype, **domain):
    return draw(hnp.arrays(dtype, shape, elements=_values(dtype, **domain)))


_shape = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
_nonempty = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


# ---- elementwise ------------------------------------------------------------------------

_UNARY_DOMAIN = {
    "neg": {}, "abs": {}, "sign": {}, "square": {}, "sin": {}, "cos": {}, "exp": {},
    "expm1": {}, "floor": {}, "ceil": {}, "round": {}, "tanh": {}, "relu": {}, "sigmoid": {},
    "silu": {}, "erf": {}, "softplus": {}, "gelu": {}, "leaky_relu": {},
    "log": {"lo": 0.1}, "sqrt": {"lo": 0.0}, "rsqrt": {"lo": 0.1}, "log1p": {"lo": -0.9},
    "reciprocal": {"nonzero": True}, "isnan": {}, "isinf": {}, "isfinite": {},
}
_BINARY_DOMAIN = {
    "add": {}, "sub": {}, "mul": {}, "maximum": {}, "minimum": {}, "atan2": {},
    "div": {"nonzero": True}, "floordiv": {"nonzero": True}, "mod": {"nonzero": True},
    "pow": {"base_lo": 0.1},
    "equal": {}, "not_equal": {}, "greater": {}, "greater_equal": {}, "less": {},
    "less_equal": {},
}
_INT_OK = {"neg", "abs", "square", "add", "sub", "mul", "maximum", "minimum", "equal",
           "not_equal", "greater", "greater_equal", "less", "less_equal"}


def _unary(name, domain):
    dtypes = FLOATS + ((np.dtype(np.int32),) if name in _INT_OK else ())

    @st.composite
    def case(draw):
        dtype = draw(st.sampled_from(dtypes))
        x = _array(draw, draw(_shape), dtype, **domain)
        return Case((x,), exact=dtype.kind != "f")
    return case()


def _binary(name, domain):
    dtypes = FLOATS + ((np.dtype(np.int32),) if name in _INT_OK else ())

    @st.composite
    def case(draw):
        dtype = draw(st.sampled_from(dtypes))
        shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                        max_side=4)).input_shapes
        a = _array(draw, shapes[0], dtype, lo=domain.get("base_lo", -3.0))
        b = _array(draw, shapes[1], dtype, nonzero=domain.get("nonzero", False))
        return Case((a, b), exact=dtype.kind != "f")
    return case()


def _logical(name, arity):
    @st.composite
    def case(draw):
        shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=arity, min_dims=0,
                                                        max_dims=3, max_side=4)).input_shapes
        return Case(tuple(_array(draw, s, bool) for s in shapes), exact=True)
    return case()


@st.composite
def _same_shape_pair(draw):
    dtype = draw(st.sampled_from(FLOATS))
    shape = draw(_shape)
    return Case((_array(draw, shape, dtype), _array(draw, shape, dtype)))


@st.composite
def _where(draw):
    dtype = draw(st.sampled_from(FLOATS))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3,
                                                    max_side=4)).input_shapes
    return Case((_array(draw, shapes[0], bool), _array(draw, shapes[1], dtype),
                 _array(draw, shapes[2], dtype)))


@st.composite
def _clip_scalar(draw):
    dtype = draw(st.sampled_from(FLOATS))
    lo = draw(st.none() | st.floats(-2, 0))
    hi = draw(st.none() | st.floats(0, 2))
    return Case((_array(draw, draw(_shape), dtype),), {"min": lo, "max": hi})


@st.composite
def _pow_scalar(draw):
    dtype = draw(st.sampled_from(FLOATS))
    exponent = draw(st.sampled_from([2, 3, 0.5, -1.0]))
    lo = 0.1 if exponent in (0.5, -1.0) else -3.0
    return Case((_array(draw, draw(_shape), dtype, lo=lo),), {"exponent": exponent})


@st.composite
def _cast(draw):
    src = draw(st.sampled_from(FLOATS + (np.dtype(np.int32), np.dtype(bool))))
    dst = draw(st.sampled_from(FLOATS + (np.dtype(np.int32),)))
    return Case((_array(draw, draw(_shape), src),), {"dtype": dst},
                exact=src.kind != "f" or dst.kind != "f")


# ---- reductions --------------------------------------------------------------------------

def _reduction(dtypes=FLOATS, nonempty=False, single_axis=False, keepdims=True, exact=False):
    @st.composite
    def case(draw):
        dtype = draw(st.sampled_from(dtypes))
        shape = draw(_nonempty if nonempty or single_axis else _shape)
        x = _array(draw, shape, dtype)
        ndim = len(shape)
        if single_axis:
            axis = draw(st.integers(-ndim, ndim - 1))
        else:
            axis = draw(st.none() | st.integers(-ndim, ndim - 1) if ndim else st.none())
            if ndim > 1 and draw(st.booleans()):
                axis = tuple(sorted(draw(st.sets(st.integers(0, ndim - 1), min_size=1))))
        params = {"axis": axis}
        if keepdims:
            params["keepdims"] = draw(st.booleans())
        return Case((x,), params, exact=exact or dtype.kind != "f")
    return case()


@st.composite
def _cumsum(draw):
    dtype = draw(st.sampled_from(FLOATS))
    shape = draw(_nonempty)
    return Case((_array(draw, shape, dtype),),
                {"axis": draw(st.integers(0, len(shape) - 1)), "reverse": draw(st.booleans())})


# ---- linear algebra, nn ------------------------------------------------------------------

@st.composite
def _matmul(draw):
    dtype = draw(st.sampled_from(FLOATS))
    m, k, n = (draw(st.integers(1, 5)) for _ in range(3))
    batch = draw(st.sampled_from([(), (2,), (1, 3)]))
    return Case((_array(draw, batch + (m, k), dtype), _array(draw, batch + (k, n), dtype)))


@st.composite
def _softmax(draw):
    dtype = draw(st.sampled_from(FLOATS))
    shape = draw(_nonempty)
    return Case((_array(draw, shape, dtype, lo=-10, hi=10),),
                {"axis": draw(st.integers(-len(shape), len(shape) - 1))})


@st.composite
def _normalize(draw):
    """The axes the ops normalise over: every axis but 1 (batch_norm), the trailing ones
    (layer_norm, and group_norm's grouped view); eps large enough that a row of equal values
    (variance 0) does not magnify the mean's last rounding past the tolerance."""
    dtype = draw(st.sampled_from(FLOATS))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    if len(shape) >= 2 and draw(st.booleans()):
        axis = (0,) + tuple(range(2, len(shape)))
    else:
        axis = tuple(range(len(shape) - draw(st.integers(1, len(shape))), len(shape)))
    return Case((_array(draw, shape, dtype),),
                {"axis": axis, "eps": draw(st.sampled_from([1e-3, 0.1]))})


@st.composite
def _labels_and_logits(draw):
    dtype = draw(st.sampled_from(FLOATS))
    n, c = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    x = _array(draw, (n, c), dtype, lo=-10, hi=10)
    labels = draw(hnp.arrays(np.int64, (n,), elements=st.integers(0, c - 1)))
    ignore = -100
    if draw(st.booleans()):
        labels[draw(st.integers(0, n - 1))] = ignore
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return x, labels, {"reduction": reduction, "ignore_index": ignore}


@st.composite
def _softmax_cross_entropy(draw):
    x, labels, params = draw(_labels_and_logits())
    if params["reduction"] == "mean" and (labels == params["ignore_index"]).all():
        params["reduction"] = "sum"  # nothing counted: a mean of nothing is NaN
    return Case((x, labels), params)


@st.composite
def _softmax_cross_entropy_grad(draw):
    x, labels, params = draw(_labels_and_logits())
    if params["reduction"] == "mean" and (labels == params["ignore_index"]).all():
        params["reduction"] = "sum"
    ct_shape = labels.shape if params["reduction"] == "none" else ()
    return Case((x, labels, _array(draw, ct_shape, x.dtype)), params)


@st.composite
def _conv_geometry(draw):
    groups = draw(st.sampled_from([1, 1, 2]))
    n, cg, og = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), 1)
    padding = ((draw(st.integers(0, 1)),) * 2, (draw(st.integers(0, 1)),) * 2)
    h = draw(st.integers(dilation[0] * (kh - 1) + 1, 7))
    w = draw(st.integers(kw, 7))
    dtype = draw(st.sampled_from(FLOATS))
    oh = (h + 2 * padding[0][0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + 2 * padding[1][0] - (kw - 1) - 1) // stride[1] + 1
    params = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    return dtype, (n, cg * groups, h, w), (og * groups, cg, kh, kw), (n, og * groups, oh, ow), \
        params


@st.composite
def _conv2d(draw):
    dtype, xs, ws, _, params = draw(_conv_geometry())
    return Case((_array(draw, xs, dtype), _array(draw, ws, dtype)), params)


@st.composite
def _conv2d_weight_grad(draw):
    dtype, xs, ws, ys, params = draw(_conv_geometry())
    return Case((_array(draw, xs, dtype), _array(draw, ys, dtype)),
                {**params, "kernel_size": ws[2:]})


@st.composite
def _conv_transpose2d(draw):
    dtype, xs, ws, ys, params = draw(_conv_geometry())
    # output_padding < stride picks which input size the transpose reproduces
    extra = tuple(draw(st.integers(0, s - 1)) for s in params["stride"])
    return Case((_array(draw, ys, dtype), _array(draw, ws, dtype)),
                {**params, "output_padding": extra})


@st.composite
def _pool_geometry(draw):
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    k = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    padding = tuple((p, p) for p in (draw(st.integers(0, k[0] // 2)),
                                     draw(st.integers(0, k[1] // 2))))
    h, w = draw(st.integers(k[0], 8)), draw(st.integers(k[1], 8))
    if draw(st.booleans()):  # windows tiling the input (LeNet's 2x2/2): the fast path
        k = stride = (2, 2)
        padding = ((0, 0), (0, 0))
        h, w = 2 * draw(st.integers(1, 4)), 2 * draw(st.integers(1, 4))
    dtype = draw(st.sampled_from(FLOATS))
    oh = (h + 2 * padding[0][0] - k[0]) // stride[0] + 1
    ow = (w + 2 * padding[1][0] - k[1]) // stride[1] + 1
    params = {"kernel_size": k, "stride": stride, "padding": padding, "dilation": (1, 1)}
    return dtype, (n, c, h, w), (n, c, oh, ow), params


@st.composite
def _max_pool2d(draw):
    dtype, xs, _, params = draw(_pool_geometry())
    # distinct values: the argmax (first maximum) is then the same for every backend
    size = int(np.prod(xs))
    x = (draw(st.permutations(range(size))) if size <= 64 else list(range(size)))
    return Case((np.asarray(x, dtype).reshape(xs) / size,), params)


@st.composite
def _max_pool2d_grad(draw):
    dtype, xs, ys, params = draw(_pool_geometry())
    index = draw(hnp.arrays(np.int64, ys, elements=st.integers(
        0, params["kernel_size"][0] * params["kernel_size"][1] - 1)))
    return dtype, xs, ys, index, {**params, "input_size": xs[2:]}


@st.composite
def _max_pool2d_scatter(draw):
    dtype, xs, ys, index, params = draw(_max_pool2d_grad())
    return Case((_array(draw, ys, dtype), index), params)


@st.composite
def _max_pool2d_gather(draw):
    dtype, xs, ys, index, params = draw(_max_pool2d_grad())
    return Case((_array(draw, xs, dtype), index), params)


@st.composite
def _avg_pool2d(draw):
    dtype, xs, _, params = draw(_pool_geometry())
    params = {k: v for k, v in params.items() if k != "dilation"}
    return Case((_array(draw, xs, dtype),),
                {**params, "count_include_pad": draw(st.booleans())})


@st.composite
def _avg_pool2d_transpose(draw):
    dtype, xs, ys, params = draw(_pool_geometry())
    params = {k: v for k, v in params.items() if k != "dilation"}
    return Case((_array(draw, ys, dtype),), {**params, "input_size": xs[2:],
                                             "count_include_pad": draw(st.booleans())})


@st.composite
def _rnn_case(draw, kind):
    """Operands and parameters of ``lstm`` / ``gru`` (see ``kernels/nn/rnn.py``)."""
    dtype = draw(st.sampled_from(FLOATS))
    steps, n = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    size, hidden = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    layers, bidirectional = draw(st.integers(1, 2)), draw(st.booleans())
    has_bias, has_state, has_lengths = (draw(st.booleans()) for _ in range(3))
    dirs, gates = 1 + bidirectional, (4 if kind == "lstm" else 3) * hidden
    inputs = [_array(draw, (steps, n, size), dtype, lo=-2, hi=2)]
    if has_state:
        inputs += [_array(draw, (layers * dirs, n, hidden), dtype, lo=-1, hi=1)
                   for _ in range(2 if kind == "lstm" else 1)]
    for layer in range(layers):
        for _ in range(dirs):
            inputs += [_array(draw, (gates, size if layer == 0 else dirs * hidden), dtype,
                              lo=-1, hi=1), _array(draw, (gates, hidden), dtype, lo=-1, hi=1)]
            if has_bias:
                inputs += [_array(draw, (gates,), dtype, lo=-1, hi=1) for _ in range(2)]
    if has_lengths:
        inputs.append(draw(hnp.arrays(np.int64, (n,), elements=st.integers(0, steps + 1))))
    params = {"num_layers": layers, "bidirectional": bidirectional, "has_bias": has_bias,
              "has_state": has_state, "has_lengths": has_lengths}
    return inputs, params


class _Scratch:
    """A backend stand-in for computing a case's ``y`` with the reference kernel."""

    @staticmethod
    def allocate(shape, dtype):
        return np.empty(shape, dtype)


def _rnn(kind):
    @st.composite
    def case(draw):
        inputs, params = draw(_rnn_case(kind))
        return Case(tuple(inputs), params)
    return case()


def _rnn_grad(kind):
    @st.composite
    def case(draw):
        from .kernels.nn import rnn
        inputs, params = draw(_rnn_case(kind))
        results = getattr(rnn, kind)(_Scratch, *inputs, **params)
        cts = tuple(draw(st.booleans()) for _ in results)
        if not any(cts):
            cts = (True,) + cts[1:]
        dtype = inputs[0].dtype
        given = [_array(draw, r.shape, dtype, lo=-1, hi=1) for r, c in zip(results, cts) if c]
        return Case(tuple(inputs) + (results[0],) + tuple(given), {**params, "cts": cts})
    return case()


# ---- views -------------------------------------------------------------------------------

@st.composite
def _reshape(draw):
    x = _array(draw, draw(_shape), draw(st.sampled_from(FLOATS)))
    shape = (-1,) if draw(st.booleans()) else tuple(reversed(x.shape))
    if shape != (-1,) and np.prod(shape, dtype=int) != x.size:
        shape = (x.size,)
    return Case((x,), {"shape": shape})


@st.composite
def _transpose(draw):
    x = _array(draw, draw(_shape), draw(st.sampled_from(FLOATS)))
    return Case((x,), {"axes": tuple(draw(st.permutations(range(x.ndim))))})


@st.composite
def _broadcast_to(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=1, min_dims=0, max_dims=3,
                                                    max_side=4))
    x = _array(draw, shapes.input_shapes[0], draw(st.sampled_from(FLOATS)))
    return Case((x,), {"shape": shapes.result_shape})


# ---- fused elementwise chains (what Graph mode's fusion pass produces) ------------------

_FUSED_UNARY = ("neg", "exp", "abs", "tanh", "relu", "sigmoid", "square", "sin", "cos")
_FUSED_BINARY = ("add", "sub", "mul", "maximum", "minimum")


@st.composite
def fused_expressions(draw, max_inputs: int = 3, max_nodes: int = 5):
    """``(inputs, expr)``: a random chain of fusible nodes over broadcasting inputs."""
    dtype = draw(st.sampled_from(FLOATS))
    n_in = draw(st.integers(1, max_inputs))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=n_in, min_dims=0, max_dims=3,
                                                    max_side=4)).input_shapes
    inputs = tuple(_array(draw, s, dtype, lo=-2, hi=2) for s in shapes)
    refs = [(("in", i), tuple(s)) for i, s in enumerate(shapes)]
    expr = []
    for k in range(draw(st.integers(1, max_nodes))):
        a_ref, a_shape = draw(st.sampled_from(refs))
        if draw(st.booleans()):
            name = draw(st.sampled_from(_FUSED_UNARY))
            operands, shape = (a_ref,), a_shape
        else:
            name = draw(st.sampled_from(_FUSED_BINARY))
            if draw(st.booleans()):
                b_ref, b_shape = ("const", draw(st.sampled_from([0.5, 2.0, -1.0])),
                                  dtype.name), ()
            else:
                b_ref, b_shape = draw(st.sampled_from(refs))
            operands = (a_ref, b_ref) if draw(st.booleans()) else (b_ref, a_ref)
            shape = np.broadcast_shapes(a_shape, b_shape)
        expr.append((name, operands, (), tuple(shape), dtype.name))
        refs.append((("node", k), tuple(shape)))
    return inputs, tuple(expr)


@st.composite
def _fused_elementwise(draw):
    inputs, expr = draw(fused_expressions())
    return Case(inputs, {"expr": expr})


CASES: dict[str, st.SearchStrategy] = {
    **{name: _unary(name, d) for name, d in _UNARY_DOMAIN.items()},
    **{name: _binary(name, d) for name, d in _BINARY_DOMAIN.items()},
    "logical_not": _logical("logical_not", 1),
    **{name: _logical(name, 2) for name in ("logical_and", "logical_or", "logical_xor")},
    **{name: _same_shape_pair() for name in ("relu_grad", "tanh_grad", "sigmoid_grad")},
    "where": _where(), "clip_scalar": _clip_scalar(), "pow_scalar": _pow_scalar(),
    "cast": _cast(),
    **{name: _reduction() for name in ("sum", "mean", "prod")},
    **{name: _reduction(nonempty=True) for name in ("max", "min", "var", "std", "logsumexp")},
    **{name: _reduction(dtypes=(np.dtype(bool),), exact=True) for name in ("all", "any")},
    **{name: _reduction(single_axis=True, exact=True) for name in ("argmax", "argmin")},
    "cumsum": _cumsum(),
    "matmul": _matmul(), "softmax": _softmax(), "log_softmax": _softmax(),
    "normalize": _normalize(),
    "softmax_cross_entropy": _softmax_cross_entropy(),
    "softmax_cross_entropy_grad": _softmax_cross_entropy_grad(),
    "conv2d": _conv2d(), "conv2d_weight_grad": _conv2d_weight_grad(),
    "max_pool2d": _max_pool2d(), "max_pool2d_scatter": _max_pool2d_scatter(),
    "max_pool2d_gather": _max_pool2d_gather(),
    "conv_transpose2d": _conv_transpose2d(), "avg_pool2d": _avg_pool2d(),
    "avg_pool2d_transpose": _avg_pool2d_transpose(),
    "lstm": _rnn("lstm"), "gru": _rnn("gru"),
    "lstm_grad": _rnn_grad("lstm"), "gru_grad": _rnn_grad("gru"),
    "reshape": _reshape(), "transpose": _transpose(), "broadcast_to": _broadcast_to(),
    "fused_elementwise": _fused_elementwise(),
}
"""Primitive name -> strategy of :class:`Case`."""
