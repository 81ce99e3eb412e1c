"""Convolutions (NCHW / NCL, like MindSpore and PyTorch).

Three primitives close under differentiation, so grad of grad works at any order:

* ``conv2d(x, w)``                 cross-correlation, ``x`` (N, C, H, W), ``w`` (O, C/g, KH, KW);
* ``conv_transpose2d(y, w)``       its adjoint in ``x`` (the input gradient);
* ``conv2d_weight_grad(x, g)``     its adjoint in ``w`` (the weight gradient).

All share the parameters ``stride``, ``padding`` (``((top, bottom), (left, right))``),
``dilation`` and ``groups``; ``conv_transpose2d`` adds ``output_padding`` (extra bottom/right
rows, < stride) and ``conv2d_weight_grad`` the ``kernel_size``. Each is bilinear, so each
backward is written with the other two.
"""
from __future__ import annotations

from sporeling.core import ShapeError, SporelingError

from ...core import Aval, Primitive, bind, def_backward
from ...core.sharding import OpDims
from .._batching import at_front, batch_size, fold, reshape, to_front, unfold
from .._util import as_operand, check_int, float_operand, promote, same_dtype
from ._params import check_ndim, conv_padding, pair, window_output

__all__ = ["conv1d", "conv2d", "conv_transpose2d"]

conv2d_p = Primitive("conv2d", core=True, amp="white")  # contractions: 16-bit in, float32 sums
conv_transpose2d_p = Primitive("conv_transpose2d", core=True, amp="white")
conv2d_weight_grad_p = Primitive("conv2d_weight_grad", core=True, amp="white")


def _check_groups(op, channels, out_channels, groups, x_shape, w_shape):
    if channels % groups or out_channels % groups:
        raise ShapeError("groups must divide the input and output channels", op=op,
                         expected=f"channels divisible by groups={groups}",
                         got=f"{channels} input and {out_channels} output channels "
                             f"(input {tuple(x_shape)}, weight {tuple(w_shape)})")


@conv2d_p.def_abstract_eval
def _conv2d_aval(x, w, *, stride, padding, dilation, groups):
    dtype = same_dtype("conv2d", x, w)
    check_ndim("conv2d", "input", x, 4, "N, C, H, W")
    check_ndim("conv2d", "weight", w, 4, "C_out, C_in/groups, KH, KW")
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    _check_groups("conv2d", c, o, groups, x.shape, w.shape)
    if cg * groups != c:
        raise ShapeError("input channels do not match the weight", op="conv2d",
                         expected=f"weight.shape[1] * groups == {c} input channels",
                         got=f"input {tuple(x.shape)}, weight {tuple(w.shape)}, "
                             f"groups={groups}")
    oh, ow = window_output("conv2d", (h, wd), (kh, kw), stride, padding, dilation, x.shape)
    return Aval((n, o, oh, ow), dtype)


def _transpose_size(y_shape, w_shape, stride, padding, dilation, output_padding):
    return tuple((n - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for n, k, s, (lo, hi), d, p in zip(y_shape[2:], w_shape[2:], stride, padding,
                                                    dilation, output_padding))


@conv_transpose2d_p.def_abstract_eval
def _conv_transpose2d_aval(y, w, *, stride, padding, dilation, groups, output_padding):
    dtype = same_dtype("conv_transpose2d", y, w)
    check_ndim("conv_transpose2d", "input", y, 4, "N, C_in, H, W")
    check_ndim("conv_transpose2d", "weight", w, 4, "C_in, C_out/groups, KH, KW")
    _check_groups("conv_transpose2d", y.shape[1], w.shape[1] * groups, groups, y.shape,
                  w.shape)
    if y.shape[1] != w.shape[0]:
        raise ShapeError("input channels do not match the weight", op="conv_transpose2d",
                         expected=f"weight.shape[0] == {y.shape[1]} input channels",
                         got=f"input {tuple(y.shape)}, weight {tuple(w.shape)}")
    if any(p >= s for p, s in zip(output_padding, stride)):
        raise SporelingError("output_padding must be smaller than stride",
                             op="conv_transpose2d", expected=f"< {stride}",
                             got=output_padding)
    h, wd = _transpose_size(y.shape, w.shape, stride, padding, dilation, output_padding)
    if h < 1 or wd < 1:
        raise ShapeError("padding removes the whole output", op="conv_transpose2d",
                         expected="a positive output size",
                         got=f"{(h, wd)} from input {tuple(y.shape)}, padding {padding}")
    return Aval((y.shape[0], w.shape[1] * groups, h, wd), dtype)


@conv2d_weight_grad_p.def_abstract_eval
def _conv2d_weight_grad_aval(x, g, *, stride, padding, dilation, groups, kernel_size):
    dtype = same_dtype("conv2d_weight_grad", x, g)
    w = Aval((g.shape[1], x.shape[1] // max(groups, 1)) + tuple(kernel_size), dtype)
    expected = _conv2d_aval(x, w, stride=stride, padding=padding, dilation=dilation,
                            groups=groups)
    if tuple(g.shape) != expected.shape:
        raise ShapeError("output gradient has the wrong shape", op="conv2d_weight_grad",
                         expected=expected.shape, got=tuple(g.shape))
    return w


def _output_padding(x_shape, y_shape, w_shape, stride, padding, dilation):
    """The output_padding that makes conv_transpose2d give back ``x_shape``."""
    zero = _transpose_size(y_shape, w_shape, stride, padding, dilation, (0, 0))
    return tuple(int(a - b) for a, b in zip(x_shape[2:], zero))


@def_backward(conv2d_p, uses=(0, 1), selective=True)
def _conv2d_bwd(ct, x, w, *, out, needs, stride, padding, dilation, groups):
    gx = gw = None
    if needs[0]:
        op = _output_padding(x.shape, ct.shape, w.shape, stride, padding, dilation)
        gx = bind(conv_transpose2d_p, ct, w, stride=stride, padding=padding,
                  dilation=dilation, groups=groups, output_padding=op)
    if needs[1]:
        gw = bind(conv2d_weight_grad_p, x, ct, stride=stride, padding=padding,
                  dilation=dilation, groups=groups, kernel_size=tuple(w.shape[2:]))
    return gx, gw


@def_backward(conv_transpose2d_p, uses=(0, 1), selective=True)
def _conv_transpose2d_bwd(ct, y, w, *, out, needs, stride, padding, dilation, groups,
                          output_padding):
    params = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    gy = bind(conv2d_p, ct, w, **params) if needs[0] else None
    gw = bind(conv2d_weight_grad_p, ct, y, kernel_size=tuple(w.shape[2:]), **params) \
        if needs[1] else None
    return gy, gw


@def_backward(conv2d_weight_grad_p, uses=(0, 1), selective=True)
def _conv2d_weight_grad_bwd(ct, x, g, *, out, needs, stride, padding, dilation, groups,
                            kernel_size):
    params = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    gx = gg = None
    if needs[0]:
        op = _output_padding(x.shape, g.shape, ct.shape, stride, padding, dilation)
        gx = bind(conv_transpose2d_p, g, ct, output_padding=op, **params)
    if needs[1]:
        gg = bind(conv2d_p, x, ct, **params)
    return gx, gg


def _add_bias(y, bias, ndim):
    if bias is None:
        return y
    from ..elementwise import add
    from ..shape import reshape
    return add(y, reshape(bias, (-1,) + (1,) * (ndim - 2)))


def _operands(op, x, weight, bias):
    from ..dtype import cast
    x, weight = promote(op, float_operand(x), float_operand(weight))
    if bias is not None:
        bias = cast(as_operand(bias), x.dtype)
    return x, weight, bias


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d cross-correlation over NCHW ``input`` with ``weight`` (C_out, C_in/groups, KH, KW).

    ``padding``: an int, a pair, ``"valid"`` or ``"same"`` (stride 1). ``bias``: (C_out,).

        >>> import numpy as np
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> conv2d(x, np.ones((1, 1, 2, 2), np.float32), stride=2)
        array([[[[10., 18.],
                 [42., 50.]]]], dtype=float32)
    """
    x, weight, bias = _operands("conv2d", input, weight, bias)
    kernel = tuple(weight.shape[2:]) if len(weight.shape) == 4 else (1, 1)
    stride = pair("conv2d", "stride", stride, 1)
    dilation = pair("conv2d", "dilation", dilation, 1)
    padding = conv_padding("conv2d", padding, kernel, dilation, stride)
    params = dict(stride=stride, padding=padding, dilation=dilation,
                  groups=check_int(groups, "groups", op="conv2d", min=1))
    _conv2d_aval(x, weight, **params)  # cheap next to the kernel; errors before NumPy's
    return _add_bias(bind(conv2d_p, x, weight, **params), bias, 4)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d cross-correlation over NCL ``input`` with ``weight`` (C_out, C_in/groups, K).

        >>> import numpy as np
        >>> conv1d(np.arange(5, dtype=np.float32).reshape(1, 1, 5),
        ...        np.ones((1, 1, 3), np.float32), padding="same")
        array([[[1., 3., 6., 9., 7.]]], dtype=float32)
    """
    from ..shape import reshape
    x, weight, bias = _operands("conv1d", input, weight, bias)
    for name, v in (("input", x), ("weight", weight)):
        if len(v.shape) != 3:
            raise ShapeError(f"{name} must be 3-d", op="conv1d", expected="3 dimensions",
                             got=tuple(v.shape))
    s, = _single("conv1d", "stride", stride, 1)
    d, = _single("conv1d", "dilation", dilation, 1)
    if isinstance(padding, str):
        pad = conv_padding("conv1d", padding, (1, weight.shape[2]), (1, d), (1, s))[1]
    else:
        p, = _single("conv1d", "padding", padding, 0)
        pad = (p, p)
    params = dict(stride=(1, s), padding=((0, 0), pad), dilation=(1, d),
                  groups=check_int(groups, "groups", op="conv1d", min=1))
    x4 = reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]))
    w4 = reshape(weight, (weight.shape[0], weight.shape[1], 1, weight.shape[2]))
    try:
        _conv2d_aval(x4, w4, **params)
    except ShapeError as exc:  # say it in conv1d's terms
        raise ShapeError(exc.detail, op="conv1d", expected=exc.expected,
                         got=f"input {tuple(x.shape)}, weight {tuple(weight.shape)}") from None
    y = bind(conv2d_p, x4, w4, **params)
    return _add_bias(reshape(y, (y.shape[0], y.shape[1], y.shape[3])), bias, 3)


def _single(op, name, value, minimum):
    if isinstance(value, (tuple, list)) and len(value) == 1:
        value = value[0]
    return pair(op, name, value, minimum)[:1]


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """Transposed 2-d convolution (the input gradient of :func:`conv2d`), NCHW, with
    ``weight`` (C_in, C_out/groups, KH, KW) as in PyTorch. The output is
    ``(H - 1) * stride - 2 * padding + dilation * (KH - 1) + output_padding + 1`` high;
    ``output_padding`` must be smaller than ``stride``.

        >>> import numpy as np
        >>> conv_transpose2d(np.ones((1, 1, 2, 2), np.float32),
        ...                  np.ones((1, 1, 2, 2), np.float32), stride=1)[0, 0]
        array([[1., 2., 1.],
               [2., 4., 2.],
               [1., 2., 1.]], dtype=float32)
    """
    x, weight, bias = _operands("conv_transpose2d", input, weight, bias)
    ph, pw = pair("conv_transpose2d", "padding", padding, 0)
    params = dict(stride=pair("conv_transpose2d", "stride", stride, 1),
                  padding=((ph, ph), (pw, pw)),
                  dilation=pair("conv_transpose2d", "dilation", dilation, 1),
                  groups=check_int(groups, "groups", op="conv_transpose2d", min=1),
                  output_padding=pair("conv_transpose2d", "output_padding", output_padding, 0))
    _conv_transpose2d_aval(x, weight, **params)
    return _add_bias(bind(conv_transpose2d_p, x, weight, **params), bias, 4)


# ---- vmap: a batch of NCHW values folds into N when the weights are shared; batched
# weights become groups of a single convolution (example b's channels form group b).

def _channels_as_groups(x, size):
    """(B, N, C, H, W) -> (N, B * C, H, W)."""
    from ..shape import transpose_p
    x = bind(transpose_p, x, axes=(1, 0, 2, 3, 4))
    return reshape(x, (x.shape[0], size * x.shape[2]) + tuple(x.shape[3:]))


def _groups_as_batch(y, size):
    """(N, B * O, H, W) -> batch axis 1 of (N, B, O, H, W)."""
    return reshape(y, (y.shape[0], size, y.shape[1] // size) + tuple(y.shape[2:])), 1


def _grouped_conv_batching(prim):
    """conv2d / conv_transpose2d: fold into N for shared weights, else group by example."""
    def rule(args, dims, *, groups, **params):
        (x, w), (dx, dw) = args, dims
        size = batch_size(args, dims)
        if dw is None:
            return unfold(bind(prim, fold(to_front(x, dx)), w, groups=groups, **params),
                          size), 0
        x = _channels_as_groups(at_front(x, dx, size), size)
        w = fold(to_front(w, dw))
        return _groups_as_batch(bind(prim, x, w, groups=groups * size, **params), size)
    return rule


conv2d_p.def_batching(_grouped_conv_batching(conv2d_p))
conv_transpose2d_p.def_batching(_grouped_conv_batching(conv_transpose2d_p))


@conv2d_weight_grad_p.def_batching
def _weight_grad_batching(args, dims, *, groups, **params):
    # per example, a weight gradient: the examples' channels as groups of one convolution
    size = batch_size(args, dims)
    x, g = (_channels_as_groups(at_front(a, d, size), size) for a, d in zip(args, dims))
    out = bind(conv2d_weight_grad_p, x, g, groups=groups * size, **params)
    return unfold(out, size), 0


@conv2d_p.def_sharding_rule
def _conv2d_sharding(eq):
    """Batch and output channels split; input channels and space stay whole."""
    x = ("n", "c", "h", "w")
    w = ("o", "ci", "kh", "kw")
    fixed = {"c", "h", "w", "ci", "kh", "kw", "oh", "ow"}
    if eq.params.get("groups", 1) != 1:
        fixed.add("o")
    return OpDims([x, w], [("n", "o", "oh", "ow")], fixed)
