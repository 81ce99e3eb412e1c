"""Python operators on Tensors: arithmetic (also reflected), comparisons, ``@``, logic.

Each is the functional op of the same meaning, so operators promote dtypes the ops' way
(a Python scalar takes the tensor's dtype: ``float16 + 2.5`` stays float16, ``int + 2.5``
becomes float32) and are differentiable. NumPy arrays on the left defer to the Tensor
(``ndarray + Tensor`` is a Tensor); other NumPy functions (``np.sum(t)``, ``np.sin(t)``)
compute on the data and return arrays, without gradients.
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.compiler.ops.elementwise import add_p, div_p, mul_p, sub_p

__all__ = ["TensorOperators"]


def _binary(op, doc):
    def forward(self, other):
        return op(self, other)

    def reflected(self, other):
        return op(other, self)
    forward.__doc__ = doc
    reflected.__doc__ = f"{doc} (reflected)"
    return forward, reflected


def _arithmetic(op, prim, doc, *, floating_only=False):
    """``_binary`` with a fast path: Tensor (op) Tensor of one dtype needs no promotion, so
    it goes straight to the Tensors' interpreter (what ``bind`` would pick for two Tensors;
    its AMP operand hooks, Graph-mode dispatch and tape recording all still apply).
    ``floating_only``: ``div`` of integers casts them to float first, so those take ``op``."""
    def forward(self, other):
        if isinstance(other, TensorOperators):
            dtype, interp = self._data.dtype, self._interpreter
            if other._data.dtype is dtype and other._interpreter is interp \
                    and (not floating_only or dtype.kind == "f"):
                return interp.apply(prim, (self, other), {})
        return op(self, other)
    forward.__doc__ = doc
    return forward, _binary(op, doc)[1]


class TensorOperators:
    """Operator methods of :class:`~sporeling.expression.Tensor`."""
    __slots__ = ()

    __add__, __radd__ = _arithmetic(ops.add, add_p, "``self + other``")
    __sub__, __rsub__ = _arithmetic(ops.sub, sub_p, "``self - other``")
    __mul__, __rmul__ = _arithmetic(ops.mul, mul_p, "``self * other``")
    __truediv__, __rtruediv__ = _arithmetic(ops.div, div_p, "``self / other``",
                                            floating_only=True)
    __floordiv__, __rfloordiv__ = _binary(ops.floordiv, "``self // other``")
    __mod__, __rmod__ = _binary(ops.mod, "``self % other``")
    __pow__, __rpow__ = _binary(ops.pow, "``self ** other``")
    __matmul__, __rmatmul__ = _binary(ops.matmul, "``self @ other``")
    __and__, __rand__ = _binary(ops.logical_and, "``self & other`` (logical and)")
    __or__, __ror__ = _binary(ops.logical_or, "``self | other`` (logical or)")
    __xor__, __rxor__ = _binary(ops.logical_xor, "``self ^ other`` (logical xor)")

    def __lt__(self, other):
        return ops.less(self, other)

    def __le__(self, other):
        return ops.less_equal(self, other)

    def __gt__(self, other):
        return ops.greater(self, other)

    def __ge__(self, other):
        return ops.greater_equal(self, other)

    def __eq__(self, other):
        if other is None:
            return False
        return ops.equal(self, other)

    def __ne__(self, other):
        if other is None:
            return True
        return ops.not_equal(self, other)

    def __neg__(self):
        return ops.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return ops.abs(self)

    def __invert__(self):
        """``~self``: logical not (bool tensors)."""
        return ops.logical_not(self)

    # NumPy on the left hands its operators to these ops (so the result is a Tensor);
    # other NumPy functions see the tensor's data and return arrays.
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        op = _UFUNC_OPS.get(ufunc.__name__)
        if op is not None and method == "__call__" and not kwargs:
            return op(*inputs)
        return getattr(ufunc, method)(*_arrays(inputs), **_arrays(kwargs))

    def __array_function__(self, func, types, args, kwargs):
        # np.sum(t), np.concatenate([t, ...]): NumPy on the data, an array back
        return func._implementation(*_arrays(args), **_arrays(kwargs))


def _arrays(value):
    """Tensors inside ``value`` (nested tuples, lists, dicts) replaced by their arrays."""
    from .tensor import Tensor
    if isinstance(value, Tensor):
        return value._data
    if isinstance(value, (tuple, list)):
        return type(value)(_arrays(v) for v in value)
    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    return value


_UFUNC_OPS = {
    "add": ops.add, "subtract": ops.sub, "multiply": ops.mul, "divide": ops.div,
    "true_divide": ops.div, "floor_divide": ops.floordiv, "remainder": ops.mod,
    "power": ops.pow, "matmul": ops.matmul, "equal": ops.equal, "not_equal": ops.not_equal,
    "less": ops.less, "less_equal": ops.less_equal, "greater": ops.greater,
    "greater_equal": ops.greater_equal, "negative": ops.neg, "absolute": ops.abs,
    "exp": ops.exp, "log": ops.log, "sqrt": ops.sqrt, "maximum": ops.maximum,
    "minimum": ops.minimum,
}
