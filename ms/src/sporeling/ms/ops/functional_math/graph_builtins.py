"""The graph built-ins ``mindspore.ops`` exposes as functions (2.10 binds them as
``Primitive('scalar_add')`` and the like): what MindSpore's parser turns Python operators on
scalars, strings, tuples, lists, dicts and slices into, plus its control-flow and environment
plumbing. Sporeling traces Python as Python, so each is the plain Python operation; they stay
callable for code that names them (``F.scalar_add(a, b)``, ``F.tuple_getitem(t, 0)``)."""
from __future__ import annotations

import math
import numbers
import operator

import numpy as np

from ._util import SporelingError, Tensor, result, tensor

__all__ = ["scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv",
           "scalar_mod", "scalar_pow", "scalar_log", "scalar_uadd", "scalar_usub",
           "scalar_gt", "scalar_ge", "scalar_lt", "scalar_le", "scalar_eq", "scalar_ne",
           "scalar_max", "scalar_min", "bool_and", "bool_or", "bool_not", "bool_eq",
           "string_concat", "string_eq", "tuple_getitem", "tuple_setitem", "tuple_len",
           "tuple_reversed", "tuple_div", "tuple_equal", "list_getitem", "list_setitem",
           "list_len", "list_equal", "dict_getitem", "dict_setitem", "make_dict", "make_list",
           "make_tuple", "make_range", "make_slice", "SliceGetItem", "in_dict", "not_in_dict",
           "is_", "is_not", "tail", "shape_mul", "reduced_shape", "broadcast_gradient_args",
           "array_to_scalar", "zip_operation", "iter_converter", "ms_hasnext", "ms_next",
           "augassign_add", "augassign_sub", "augassign_mul", "augassign_div",
           "augassign_floordiv", "augassign_mod", "isconstant", "is_sequence_shape_unknown",
           "is_sequence_value_unknown", "is_dynamic_sequence_element_unknown",
           "is_tensor_bool_cond", "switch", "switch_layer", "environ_create", "environ_set",
           "environ_get", "env_get", "environ_add", "hyper_add", "typeof", "hastype"]

# --- scalars, booleans and strings: Python's operators ------------------------------------
scalar_add, scalar_sub, scalar_mul = operator.add, operator.sub, operator.mul
scalar_div, scalar_floordiv, scalar_mod = operator.truediv, operator.floordiv, operator.mod
scalar_pow, scalar_uadd, scalar_usub = operator.pow, operator.pos, operator.neg
scalar_gt, scalar_ge, scalar_lt = operator.gt, operator.ge, operator.lt
scalar_le, scalar_eq, scalar_ne = operator.le, operator.eq, operator.ne
bool_not, bool_eq = operator.not_, operator.eq
string_concat, string_eq = operator.add, operator.eq
augassign_add, augassign_sub, augassign_mul = operator.iadd, operator.isub, operator.imul
augassign_div, augassign_floordiv, augassign_mod = operator.itruediv, operator.ifloordiv, \
    operator.imod
is_, is_not = operator.is_, operator.is_not


def scalar_log(x):
    """The natural logarithm of a Python number."""
    return math.log(x)


def scalar_max(x, y):
    """The larger of two Python numbers."""
    return max(x, y)


def scalar_min(x, y):
    """The smaller of two Python numbers."""
    return min(x, y)


def bool_and(x, y):
    """``x and y`` of two bools."""
    return bool(x) and bool(y)


def bool_or(x, y):
    """``x or y`` of two bools."""
    return bool(x) or bool(y)


# --- sequences, dicts and slices -----------------------------------------------------------

def tuple_getitem(data, index):
    """``data[index]``."""
    return data[index]


list_getitem = dict_getitem = tuple_getitem


def tuple_setitem(data, index, value):
    """A copy of the tuple ``data`` with ``data[index] = value`` (tuples are immutable)."""
    items = list(data)
    items[index] = value
    return tuple(items)


def list_setitem(data, index, value):
    """A copy of the list ``data`` with ``data[index] = value``."""
    items = list(data)
    items[index] = value
    return items


def dict_setitem(data, key, value):
    """A copy of the dict ``data`` with ``data[key] = value``."""
    return {**data, key: value}


def tuple_len(data):
    """``len(data)``."""
    return len(data)


list_len = tuple_len


def tuple_reversed(data):
    """The tuple reversed."""
    return tuple(reversed(data))


def tuple_div(x, y):
    """Element-wise integer division of two shapes of one length (``x[i] // y[i]``)."""
    if len(x) != len(y):
        raise SporelingError("needs two tuples of one length", op="ops.tuple_div",
                             expected=f"{len(x)} elements", got=f"{len(y)} elements")
    return tuple(a // b for a, b in zip(x, y))


def tuple_equal(x, y):
    """``x == y`` for two tuples."""
    return tuple(x) == tuple(y)


def list_equal(x, y):
    """``x == y`` for two lists."""
    return list(x) == list(y)


def make_tuple(*elements):
    """``(*elements,)``."""
    return tuple(elements)


def make_list(*elements):
    """``[*elements]``."""
    return list(elements)


def make_dict(keys, values):
    """``dict(zip(keys, values))``."""
    return dict(zip(keys, values))


def make_range(start, stop=None, step=1):
    """``tuple(range(start, stop, step))`` (``make_range(n)``: ``0 .. n-1``)."""
    if stop is None:
        start, stop = 0, start
    return tuple(range(start, stop, step))


def make_slice(start, stop, step):
    """``slice(start, stop, step)``."""
    return slice(start, stop, step)


def SliceGetItem(slice_obj, attr):  # noqa: N802 - MindSpore's name
    """The ``"start"``, ``"stop"`` or ``"step"`` of a slice."""
    if attr not in ("start", "stop", "step"):
        raise SporelingError("a slice has start, stop and step", op="ops.SliceGetItem",
                             expected="'start', 'stop' or 'step'", got=repr(attr))
    return getattr(slice_obj, attr)


def in_dict(key, data):
    """``key in data``."""
    return key in data


def not_in_dict(key, data):
    """``key not in data``."""
    return key not in data


def tail(data):
    """All elements but the first (``data[1:]``)."""
    return data[1:]


def zip_operation(*sequences):
    """``tuple(zip(*sequences))``."""
    return tuple(zip(*sequences))


def iter_converter(data):
    """The elements of ``data`` as a tuple (what ``ms_next`` walks through); a Tensor's
    first-axis slices, a dict's keys."""
    if isinstance(data, Tensor):
        return tuple(data[i] for i in range(data.shape[0]))
    return tuple(data)


def ms_hasnext(data):
    """Whether the walked sequence has another element."""
    return len(data) > 0


def ms_next(data):
    """``(first element, the rest)`` of the walked sequence."""
    if not len(data):
        raise SporelingError("no element left", op="ops.ms_next", expected="a non-empty "
                             "sequence", got="an empty one")
    return data[0], tuple(data[1:])


# --- shapes -------------------------------------------------------------------------------

def shape_mul(shape):
    """The product of a shape's entries (the number of elements)."""
    return int(np.prod(shape, dtype=np.int64))


def reduced_shape(shape, axis):
    """``shape`` with the reduced ``axis`` (an int, a tuple, ``()`` for all) set to 1."""
    axes = range(len(shape)) if axis in ((), None) else \
        (axis if isinstance(axis, (tuple, list)) else (axis,))
    drop = {int(a) % max(len(shape), 1) for a in axes}
    return tuple(1 if i in drop else int(s) for i, s in enumerate(shape))


def broadcast_gradient_args(x_shape, y_shape):
    """The axes each of two broadcast operands' gradients is summed over:
    ``(axes of x, axes of y)``, counted in the broadcast shape."""
    n = max(len(x_shape), len(y_shape))
    x = (1,) * (n - len(x_shape)) + tuple(x_shape)
    y = (1,) * (n - len(y_shape)) + tuple(y_shape)
    rx = tuple(i for i in range(n) if x[i] == 1 and y[i] != 1)
    ry = tuple(i for i in range(n) if y[i] == 1 and x[i] != 1)
    lead_x = tuple(i for i in range(n - len(x_shape)) if i not in rx)
    lead_y = tuple(i for i in range(n - len(y_shape)) if i not in ry)
    return tuple(sorted(rx + lead_x)), tuple(sorted(ry + lead_y))


def array_to_scalar(x):
    """The Python number of a one-element Tensor."""
    value = np.asarray(tensor(x).asnumpy() if isinstance(x, Tensor) else x)
    if value.size != 1:
        raise SporelingError("needs a single element", op="ops.array_to_scalar",
                             expected="1 element", got=f"shape {value.shape}")
    return value.reshape(()).item()


# --- what the graph compiler asks about values ---------------------------------------------

def isconstant(x):
    """Whether ``x`` is known before running (not a Tensor being traced)."""
    return getattr(x, "_interpreter", None) is None


def is_sequence_shape_unknown(x):
    """False: Sporeling's sequences always have a known length."""
    return False


def is_sequence_value_unknown(x):
    """False: Sporeling's sequences hold known Python elements."""
    return False


def is_dynamic_sequence_element_unknown(x):
    """False: no sequence of Sporeling has elements of unknown type."""
    return False


def is_tensor_bool_cond(x):
    """Whether a condition is a Tensor (then its truth is that of its element)."""
    return isinstance(x, Tensor)


def switch(cond, true_branch, false_branch):
    """``true_branch if cond else false_branch`` (the branches are values, not calls)."""
    return true_branch if bool(cond) else false_branch


def switch_layer(index, branches):
    """``branches[index]`` (a tuple of functions or Cells, ``index`` an int or a 0-d
    Tensor)."""
    i = int(np.asarray(index.asnumpy() if isinstance(index, Tensor) else index))
    if not -len(branches) <= i < len(branches):
        raise SporelingError("branch index out of range", op="ops.switch_layer",
                             expected=f"an index in [-{len(branches)}, {len(branches)})",
                             got=i)
    return branches[i]


# --- environments: the key -> value maps MindSpore threads gradients of closures through ----

def environ_create():
    """An empty environment."""
    return {}


def environ_set(env, key, value):
    """A copy of ``env`` with ``key`` bound to ``value``."""
    return {**env, key: value}


def environ_get(env, key, default):
    """``env[key]``, ``default`` when unbound."""
    return env.get(key, default)


env_get = environ_get


def environ_add(env1, env2):
    """The union of two environments, the values of a key in both added
    (:func:`hyper_add`)."""
    out = dict(env1)
    for key, value in env2.items():
        out[key] = hyper_add(out[key], value) if key in out else value
    return out


def hyper_add(x, y):
    """``x + y`` through matching nested tuples, lists and dicts (how gradients of one
    structure are accumulated)."""
    if isinstance(x, (tuple, list)):
        return type(x)(hyper_add(a, b) for a, b in zip(x, y))
    if isinstance(x, dict):
        return {k: hyper_add(v, y[k]) for k, v in x.items()}
    if isinstance(x, numbers.Number) and isinstance(y, numbers.Number):
        return x + y
    return result(tensor(x) + tensor(y))


# --- types ---------------------------------------------------------------------------------

def typeof(x):
    """The facade type of ``x``: a Tensor's dtype, a Python scalar's ``int64``/``float32``/
    ``bool_`` type, else ``type(x)``."""
    from ...common import dtype as mstype
    if isinstance(x, Tensor):
        return mstype.from_numpy(x.dtype)
    if isinstance(x, bool):
        return mstype.bool_
    if isinstance(x, numbers.Integral):
        return mstype.int64
    if isinstance(x, numbers.Real):
        return mstype.float32
    return type(x)


def hastype(x, t):
    """Whether :func:`typeof` of ``x`` is ``t`` (a facade dtype or a Python type)."""
    kind = typeof(x)
    return kind == t or (isinstance(t, type) and isinstance(kind, type) and issubclass(kind, t))

