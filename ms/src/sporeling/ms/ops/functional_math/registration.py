"""The decorators and plumbing functions of ``mindspore.ops`` that define operators and
steer compilation: ``constexpr``, ``prim_attr_register``, ``op_info_register``, ``kernel``,
``add_flags``..., and ``partial``, ``identity``, ``J``, ``merge``, ``geswitch``,
``mixed_precision_cast``. Sporeling compiles by tracing Python, so a decorator returns its
function as it is (keeping what it records where MindSpore reads it back)."""
from __future__ import annotations

import functools
import inspect

from sporeling.ms.common import eager_only

from ._util import SporelingError, Tensor, np_dtype, ops, result, tensor

__all__ = ["constexpr", "kernel", "ms_kernel", "op_info_register", "custom_info_register",
           "prim_attr_register", "prim_arg_register", "add_flags", "get_vm_impl_fn",
           "partial", "identity", "J", "merge", "geswitch", "mixed_precision_cast"]


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """MindSpore's ``@constexpr``: ``fn`` runs in Python on constant arguments while a graph
    compiles. Sporeling's tracer runs any Python code at compile time, so ``fn`` is returned
    as is (the keywords are accepted and change nothing)."""
    if fn is None:
        return constexpr
    return fn


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """MindSpore's hybrid-kernel decorator (``@kernel``): the kernel's Python body, run as
    Python on NumPy-convertible inputs, is the function itself."""
    if fn is None:
        return functools.partial(kernel, reg_info=reg_info, compile_attrs=compile_attrs)
    fn.reg_info, fn.compile_attrs = reg_info, compile_attrs
    return fn


ms_kernel = kernel


def _registering(fn=None, *reg_info):
    """A decorator that records ``reg_info`` on the function (``fn.reg_info``) and returns it."""
    def deco(func):
        func.reg_info = reg_info
        return func
    return deco


def op_info_register(op_info):
    """Records an operator's kernel registration (``fn.reg_info``); returns a decorator that
    leaves the function unchanged."""
    return _registering(None, op_info)


def custom_info_register(*reg_info):
    """Records a Custom operator's registrations (``fn.reg_info``); the function is
    unchanged."""
    return _registering(None, *reg_info)


def _bound_attrs(fn, self, args, kwargs) -> dict:
    bound = inspect.signature(fn).bind(self, *args, **kwargs)
    bound.apply_defaults()
    return {k: v for k, v in list(bound.arguments.items())[1:]}


def prim_attr_register(fn):
    """Decorates a Primitive subclass's ``__init__``: its arguments (defaults applied)
    become the primitive's attributes (``add_prim_attr`` and ``init_attrs``) before the body
    runs."""
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        from ..primitives import Primitive
        Primitive.__init__(self, type(self).__name__)
        self.init_attrs = {}
        for key, value in _bound_attrs(fn, self, args, kwargs).items():
            self.add_prim_attr(key, value)
            self.init_attrs[key] = value
        fn(self, *args, **kwargs)
    deco.decorated_func = fn
    return deco


def prim_arg_register(fn):
    """Like :func:`prim_attr_register` for primitives whose arguments stay call arguments:
    they are recorded in ``init_attrs`` only."""
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        from ..primitives import Primitive
        Primitive.__init__(self, type(self).__name__)
        self.init_attrs = _bound_attrs(fn, self, args, kwargs)
        fn(self, *args, **kwargs)
    deco.decorated_func = fn
    return deco


def add_flags(fn=None, **flags):
    """Sets compilation flags on a function or Cell (``fn._func_graph_flags``); returns it
    (a decorator when ``fn`` is omitted)."""
    def deco(target):
        recorded = dict(getattr(target, "_func_graph_flags", {}))
        recorded.update(flags)
        target._func_graph_flags = recorded
        return target
    return deco if fn is None else deco(fn)


def get_vm_impl_fn(prim):
    """The Python implementation of a primitive instance: the getter registered for its name
    in ``ops.vm_impl_registry`` applied to it, else its call."""
    from ..registries import vm_impl_registry
    if not callable(prim):
        raise SporelingError("needs a primitive instance", op="ops.get_vm_impl_fn",
                             expected="a callable Primitive", got=type(prim).__name__)
    getter = vm_impl_registry.get(prim)
    if getter is not None:
        return getter(prim)
    return prim.__call__ if hasattr(prim, "attrs") else prim


def partial(func, *args, **kwargs):
    """``func`` with its first arguments (and keyword arguments) fixed
    (``functools.partial``)."""
    return functools.partial(func, *args, **kwargs)


def identity(x):
    """A copy of ``x`` (a Tensor, or a tuple/list of them); gradients flow through."""
    if isinstance(x, (tuple, list)):
        return type(x)(identity(v) for v in x)
    return result(ops.add(tensor(x), 0))


def J(fn):  # noqa: N802 - MindSpore's name
    """MindSpore's ``J`` transform: ``J(fn)(*args)`` is ``(fn(*args), bprop)``, where
    ``bprop(sens)`` gives the gradients of the inputs for the output cotangent ``sens``
    (the facade's ``vjp``)."""
    from .differential import vjp

    def forward(*args):
        return vjp(fn, *args)
    return forward


def merge(inputs):
    """MindSpore's ``Merge`` of the branches of a ``geswitch``: ``(value, index)``, the
    first input and index 0 (Sporeling runs only the taken branch)."""
    from ..primitives import Merge
    return Merge()(inputs)


@eager_only("ops.geswitch")
def geswitch(data, pred):
    """``(false branch, true branch)``: ``data`` on the side ``pred`` selects, zeros on the
    other."""
    from ..primitives import GeSwitch
    return GeSwitch()(data, pred)


def mixed_precision_cast(dst_type, input_x):
    """``input_x`` (a Tensor, or a tuple/list/dict holding them) with its floating Tensors
    cast to ``dst_type``; other values unchanged."""
    if isinstance(input_x, (tuple, list)):
        return type(input_x)(mixed_precision_cast(dst_type, v) for v in input_x)
    if isinstance(input_x, dict):
        return {k: mixed_precision_cast(dst_type, v) for k, v in input_x.items()}
    if isinstance(input_x, Tensor) and input_x.dtype.kind == "f":
        return result(ops.cast(input_x, np_dtype(dst_type)))
    return input_x
