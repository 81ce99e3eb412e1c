"""``ops.Custom``: MindSpore's user-defined operator. ``func_type="pyfunc"`` (2.10's default,
its CPU kind) runs a Python function on the inputs' NumPy values, in PyNative mode; a ``bprop``
makes it differentiable. The compiled kinds (``"aot"``'s shared libraries and the older
``"hybrid"``/``"akg"``/``"tbe"``/``"julia"``/``"aicpu"`` kernels) need MindSpore's kernel
builders and raise :class:`CustomFuncTypeError` naming the kind."""
from __future__ import annotations

import numbers

import numpy as np

from sporeling.core.errors import ArgumentError, ShapeError, SporelingError
from sporeling.expression.autograd import call_with_bprop
from sporeling.ms.common.eager import EagerOnlyError, _recorded

from ..functional_array._common import Tensor, tensor, to_numpy
from .base import Primitive

__all__ = ["Custom", "CustomFuncTypeError"]

_COMPILED_KINDS = ("aot", "hybrid", "akg", "tbe", "julia", "aicpu")


class CustomFuncTypeError(SporelingError, ValueError):
    """An ``ops.Custom`` kind that sporeling.ms cannot run (it compiles device kernels)."""


class Custom(Primitive):
    """``Custom(func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
    reg_info=None)``: ``Custom(...)(*inputs)`` calls ``func`` on the inputs' NumPy arrays.

    ``out_shape``/``out_dtype`` give each output's shape and dtype (a tuple of them for several
    outputs), or are functions of the inputs' shapes/dtypes; the results are checked against
    the shape and cast to the dtype (None: taken as ``func`` returns them). ``bprop(*inputs,
    out, dout)`` returns the inputs' gradients (Tensors) for ``grad``; without it the op is
    not differentiable. Graph mode cannot trace NumPy code, so a call under ``jit`` raises.
    """
    __ms_eager_only__ = True

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
                 reg_info=None):
        super().__init__("Custom")
        if func_type in _COMPILED_KINDS:
            raise CustomFuncTypeError(
                f"ops.Custom func_type={func_type!r} compiles device kernels, which "
                "sporeling.ms cannot build", expected='func_type="pyfunc"',
                got=repr(func_type), hint="write func as a Python function on NumPy arrays")
        if func_type != "pyfunc":
            raise ArgumentError("ops.Custom: unknown func_type",
                                expected='"pyfunc" or "aot"', got=repr(func_type))
        if not callable(func):
            raise ArgumentError("ops.Custom: func must be a Python function for pyfunc",
                                expected="a callable", got=type(func).__name__)
        if bprop is not None and not callable(bprop):
            raise ArgumentError("ops.Custom: bprop must be callable",
                                expected="a function (*inputs, out, dout) -> grads",
                                got=type(bprop).__name__)
        self.func, self.out_shape, self.out_dtype = func, out_shape, out_dtype
        self.func_type, self.bprop, self.reg_info = func_type, bprop, reg_info
        self.add_prim_attr("func_type", func_type)

    def __call__(self, *inputs):
        from sporeling.expression.graph import is_tracing
        if is_tracing():
            raise EagerOnlyError("ops.Custom (pyfunc) has no Graph-mode support in sporeling.ms",
                                 expected="a call in PyNative mode",
                                 got="a call while a Graph-mode trace runs",
                                 hint="call it outside jit / GRAPH_MODE")
        tensors = tuple(tensor(x) for x in inputs)
        if self.bprop is not None:
            return call_with_bprop(self._forward, self.bprop, *tensors)
        if any(_recorded(t) for t in tensors):
            raise EagerOnlyError("ops.Custom without bprop is not differentiable",
                                 expected="a bprop=(*inputs, out, dout) -> grads function",
                                 got="an input recorded by the grad in progress",
                                 hint="pass bprop to Custom, or stop_gradient the inputs")
        return self._forward(*tensors)

    def _forward(self, *tensors):
        arrays = [t.asnumpy() for t in tensors]
        out = self.func(*arrays)
        multi = isinstance(out, (tuple, list))
        outs = tuple(out) if multi else (out,)
        shapes = self._declared(self.out_shape, [a.shape for a in arrays], len(outs), True)
        dtypes = self._declared(self.out_dtype, [t.dtype for t in tensors], len(outs), False)
        results = tuple(self._checked(i, o, s, d) for i, (o, s, d)
                        in enumerate(zip(outs, shapes, dtypes)))
        return results if multi else results[0]

    @staticmethod
    def _declared(spec, input_specs, n, is_shape):
        """One declared shape/dtype per output (None: undeclared)."""
        if spec is None:
            return (None,) * n
        if callable(spec) and not hasattr(spec, "np_dtype"):
            spec = spec(*input_specs)
        one = (isinstance(spec, (list, tuple)) and all(isinstance(d, numbers.Integral) for d in spec)) \
            if is_shape else not isinstance(spec, (list, tuple))
        specs = (spec,) if one else tuple(spec)
        if len(specs) != n:
            raise ArgumentError("ops.Custom: func returned another number of outputs than "
                                f"out_{'shape' if is_shape else 'dtype'} declares",
                                expected=f"{len(specs)} outputs", got=f"{n}")
        return specs

    @staticmethod
    def _checked(index, value, shape, dtype) -> Tensor:
        array = np.asarray(value)
        if shape is not None and tuple(array.shape) != tuple(shape):
            raise ShapeError(f"ops.Custom: output {index} has another shape than out_shape",
                             expected=str(tuple(shape)), got=str(array.shape))
        if dtype is not None:
            array = array.astype(to_numpy(dtype), copy=False)
        return Tensor(np.ascontiguousarray(array))
