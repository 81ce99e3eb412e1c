"""Tensor methods: MindSpore's (and PyTorch's common) names, each delegating to an op, so
they are differentiable and work in every mode.

    >>> import sporeling.expression as sx
    >>> x = sx.Tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> x.abs().max(axis=0)
    Tensor(shape=[2], dtype=Float32, value= [3., 4.])
    >>> x.argmax(axis=1), x.reshape(4).shape, x.unsqueeze(0).shape
    (Tensor(shape=[2], dtype=Int64, value= [0, 1]), (4,), (1, 2, 2))
"""
from __future__ import annotations

from sporeling.core import dtypes
from sporeling.compiler import ops

__all__ = ["TensorMethods"]


def _shape_args(shape):
    """``reshape(2, 3)`` and ``reshape((2, 3))`` alike."""
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) \
        else shape


class TensorMethods:
    """Op-backed methods of :class:`~sporeling.expression.Tensor`."""
    __slots__ = ()

    # --- reductions ---------------------------------------------------------------
    def sum(self, axis=None, keepdims=False):
        """Sum over ``axis`` (None: all)."""
        return ops.sum(self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        """Mean over ``axis``."""
        return ops.mean(self, axis, keepdims)

    def prod(self, axis=None, keepdims=False):
        """Product over ``axis``."""
        return ops.prod(self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        """Largest value over ``axis`` (the values; :meth:`argmax` gives the indices)."""
        return ops.max(self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        """Smallest value over ``axis``."""
        return ops.min(self, axis, keepdims)

    def argmax(self, axis=None, keepdims=False):
        """Index of the largest value (int64; flat index when ``axis`` is None)."""
        return ops.argmax(self, axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        """Index of the smallest value."""
        return ops.argmin(self, axis, keepdims)

    def std(self, axis=None, ddof=0, keepdims=False):
        """Standard deviation (``ddof=1`` for the unbiased estimate)."""
        return ops.std(self, axis, ddof, keepdims)

    def var(self, axis=None, ddof=0, keepdims=False):
        """Variance (``ddof=1`` for the unbiased estimate)."""
        return ops.var(self, axis, ddof, keepdims)

    def norm(self, ord=2, axis=None, keepdims=False):
        """Vector norm of order ``ord`` over ``axis`` (None: all elements)."""
        return ops.norm(self, ord, axis, keepdims)

    def all(self, axis=None, keepdims=False):
        """Whether every element is true."""
        return ops.all(self, axis, keepdims)

    def any(self, axis=None, keepdims=False):
        """Whether some element is true."""
        return ops.any(self, axis, keepdims)

    # --- shape --------------------------------------------------------------------
    def reshape(self, *shape):
        """Same data, new shape (``reshape(2, 3)`` or ``reshape((2, 3))``; one -1)."""
        return ops.reshape(self, _shape_args(shape))

    view = reshape

    def transpose(self, *axes):
        """Axes permuted (reversed when none are given)."""
        axes = _shape_args(axes)
        return ops.transpose(self, axes if axes else None)

    def permute(self, *axes):
        """Axes permuted: ``permute(2, 0, 1)``."""
        return ops.transpose(self, _shape_args(axes))

    def swapaxes(self, axis0, axis1):
        """Two axes exchanged."""
        order = list(range(self.ndim))
        order[axis0], order[axis1] = order[axis1], order[axis0]
        return ops.transpose(self, tuple(order))

    def flatten(self, start_dim=0, end_dim=-1):
        """Axes ``start_dim..end_dim`` merged into one (all of them by default)."""
        if self.ndim == 0:
            return ops.reshape(self, (1,))
        start, end = start_dim % self.ndim, end_dim % self.ndim
        shape = self.shape
        return ops.reshape(self, shape[:start] + (-1,) + shape[end + 1:])

    def squeeze(self, axis=None):
        """Size-1 axes removed (all of them, or those in ``axis``)."""
        return ops.squeeze(self, axis)

    def expand_dims(self, axis):
        """A size-1 axis inserted at ``axis``."""
        return ops.expand_dims(self, axis)

    unsqueeze = expand_dims

    def repeat(self, repeats, axis=None):
        """Each element repeated ``repeats`` times along ``axis`` (flattened if None),
        like ``np.repeat`` and MindSpore's ``Tensor.repeat``."""
        return ops.repeat(self, repeats, axis)

    def tile(self, reps):
        """The tensor tiled ``reps`` times per axis."""
        return ops.tile(self, reps)

    # --- math ---------------------------------------------------------------------
    def abs(self):
        """``|x|``."""
        return ops.abs(self)

    def exp(self):
        """``e ** x``."""
        return ops.exp(self)

    def log(self):
        """Natural logarithm."""
        return ops.log(self)

    def sqrt(self):
        """Square root."""
        return ops.sqrt(self)

    def square(self):
        """``x * x``."""
        return ops.square(self)

    def pow(self, exponent):
        """``x ** exponent``."""
        return ops.pow(self, exponent)

    def matmul(self, other):
        """Matrix product (``self @ other``)."""
        return ops.matmul(self, other)

    def clip(self, min=None, max=None):
        """Values limited to ``[min, max]`` (either may be None)."""
        return ops.clip(self, min, max)

    clamp = clip

    def softmax(self, axis=-1):
        """``exp(x) / sum(exp(x))`` along ``axis``, computed stably."""
        softmax = getattr(ops, "softmax", None)
        if softmax is not None:
            return softmax(self, axis)
        shifted = ops.sub(self, ops.max(self, axis, True))
        e = ops.exp(shifted)
        return ops.div(e, ops.sum(e, axis, True))

    # --- dtype and copies ---------------------------------------------------------
    def astype(self, dtype):
        """The tensor converted to ``dtype`` (itself if it already is)."""
        return ops.cast(self, dtype)

    to = astype

    def float(self):
        """As float32."""
        return ops.cast(self, dtypes.float32)

    def half(self):
        """As float16."""
        return ops.cast(self, dtypes.float16)

    def int(self):
        """As int32 (MindSpore's and PyTorch's ``int()``)."""
        return ops.cast(self, dtypes.int32)

    def long(self):
        """As int64."""
        return ops.cast(self, dtypes.int64)

    def bool(self):
        """As bool."""
        return ops.cast(self, dtypes.bool_)

    def detach(self):
        """The same data without a gradient history (shares memory)."""
        from .tensor import wrap
        return wrap(self._data)

    def copy(self):
        """A copy of the data in new memory; gradients flow through it like an identity."""
        from ..autograd.custom import call_with_bprop
        return call_with_bprop(_copy_data, _copy_bprop, self)

    clone = copy


def _copy_data(x):
    from sporeling.compiler.core import eager

    from .tensor import wrap
    return wrap(eager.backend().from_numpy(x._data))


def _copy_bprop(x, out, dout):
    return (dout,)
