"""Merging traced control-flow callables: two branches of a ``cond``, or a loop body with
the carry it starts from (see ``_control_trace`` for the kinds of leaves)."""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, SporelingError

from ..ir.graph import Const
from ..ir.pytree import flatten, unflatten
from ._control_trace import (Leaf, Traced, Undefined, closed_graph, is_array, is_weak,
                             leaf_paths, model_of, trace, type_error, unwrap, unwrap_all,
                             weak_array, weak_const)

__all__ = ["merge_branches", "loop_carry", "predicate", "static_int", "concrete"]

_RANK = {bool: 0, int: 1, float: 2}
_KIND = {"b": 0, "i": 1, "u": 1}


def _same(a, b) -> bool:
    if a is b or (isinstance(a, Undefined) and isinstance(b, Undefined)):
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _weak_dtype(*values) -> np.dtype:
    rank = max(_RANK[type(v)] for v in values)
    return np.dtype([np.bool_, np.int64, np.float32][rank])


def _check_weak(value, aval, what, label, op, where):
    """A weak number may take a dtype of its kind or a higher one (1 -> float, not 1.5 -> int)."""
    if _RANK[type(value)] > _KIND.get(np.dtype(aval.dtype).kind, 2):
        raise DTypeError(f"{what} mixes a Python {type(value).__name__} with a tensor of "
                         "a lower kind", op=op, got=f"{label}: {value!r} and {aval}",
                         where=where)


def _aval(traced: Traced, leaf: Leaf):
    return traced.graph.outputs[leaf.index].aval


def _zeros_like_elem(traced: Traced, kinds: list) -> list:
    """An undefined side's leaves standing in for ``kinds`` of the other side: zeros."""
    out = []
    for leaf in kinds:
        if leaf.kind == "array":
            aval = _aval(traced, leaf)
            out.append(("const", Const(np.zeros(aval.shape, aval.dtype))))
        elif leaf.kind == "weak":
            out.append(("weak", type(leaf.value)(0)))
        else:
            out.append(("static", leaf.value))
    return out


def _side(traced: Traced, kinds: list) -> list:
    return [("var", traced.graph.outputs[k.index]) if k.kind == "array" else
            ("weak", k.value) if k.kind == "weak" else ("static", k.value) for k in kinds]


def merge_branches(t: Traced, f: Traced, n_dyn: int, names, zero_ok, where):
    """Both branch graphs over one operand list with equal outputs, and the plan: per
    result element ``(tree, [("out", None) | ("static", value)])``."""
    t_out, f_out, plan = [], [], []
    for i, ((tt, tk), (ft, fk)) in enumerate(zip(t.elems, f.elems)):
        label = names[i] if names else "the result"
        ts, fs = _side(t, tk), _side(f, fk)
        if tt != ft:
            t_undef = tt is None and isinstance(tk[0].value, Undefined)
            f_undef = ft is None and isinstance(fk[0].value, Undefined)
            if label in zero_ok and t_undef:
                tt, ts = ft, _zeros_like_elem(f, fk)
            elif label in zero_ok and f_undef:
                ft, fs = tt, _zeros_like_elem(t, tk)
            else:
                raise SporelingError(f"`{label}` has a different structure in each branch",
                                     op="cond", expected="the same nesting of "
                                     "tuples/lists/dicts", got=f"true branch "
                                     f"{_describe(tk, t)}, false branch {_describe(fk, f)}",
                                     where=where)
        leaves = []
        for path, a, b in zip(leaf_paths(tt, label), ts, fs):
            pair = _merge_leaf(path, a, b, label in zero_ok, where)
            if pair is None:
                leaves.append(("static", a[1]))
            else:
                t_out.append(pair[0])
                f_out.append(pair[1])
                leaves.append(("out", None))
        plan.append((tt, leaves))
    tg = closed_graph(t, t_out, [], f.captured, n_dyn)
    fg = closed_graph(f, f_out, t.captured, [], n_dyn)
    return tg, fg, plan


def _describe(kinds, traced) -> str:
    return "[" + ", ".join(str(_aval(traced, k)) if k.kind == "array" else repr(k.value)
                           for k in kinds) + "]"


def _merge_leaf(path, a, b, zero_ok, where):
    """``None`` (one static value) or the pair of graph outputs for one result leaf."""
    (ka, va), (kb, vb) = a, b
    what = f"`{path}`"
    if ka == "static" or kb == "static":
        if ka == kb and _same(va, vb):
            return None
        if zero_ok and (isinstance(va, Undefined) or isinstance(vb, Undefined)):
            return _merge_leaf(path, _zero_for(b) if isinstance(va, Undefined) else a,
                               _zero_for(a) if isinstance(vb, Undefined) else b, False, where)
        raise SporelingError(f"{what} is {_text_value(_value(ka, va))} in the true branch "
                             f"but {_text_value(_value(kb, vb))} in the false branch",
                             op="cond", expected="a tensor on both sides, or one Python "
                             "value", where=where)
    if ka == "weak" and kb == "weak":
        if _same(va, vb):
            return None
        dtype = _weak_dtype(va, vb)
        return (Const(weak_array(va, (), dtype, what, "cond", where)),
                Const(weak_array(vb, (), dtype, what, "cond", where)))
    if ka == "weak":
        aval = vb.aval
        _check_weak(va, aval, what, path, "cond", where)
        return weak_const(va, aval, what, "cond", where), vb
    if kb == "weak":
        _check_weak(vb, va.aval, what, path, "cond", where)
        return va, weak_const(vb, va.aval, what, "cond", where)
    if tuple(va.aval.shape) != tuple(vb.aval.shape) or va.aval.dtype != vb.aval.dtype:
        raise type_error(what, ("the true branch gives", va.aval),
                         ("the false branch", vb.aval), "cond", where)
    return va, vb


def _zero_for(other):
    kind, value = other
    if kind == "weak":
        return ("weak", type(value)(0))
    if kind in ("var", "const"):
        return ("const", Const(np.zeros(value.aval.shape, value.aval.dtype)))
    return other


def _value(kind, value):
    return value.aval if kind in ("var", "const") else value


# -- loops ------------------------------------------------------------------------------

def loop_carry(fn, parts: list, extra: list, names, zero_ok, op: str, where):
    """Trace a loop body ``fn(*parts, *extra) -> [*parts, *extra results]`` until its carry
    agrees with ``parts`` (weak numbers the body changes become tensors, undefined values of
    ``zero_ok`` zeros). Returns ``(traced body with outputs [carry arrays, extra arrays],
    parts, plan)``."""
    parts = list(parts)
    n = len(parts)
    like = model_of(parts)
    for _ in range(sum(len(flatten(p)[0]) for p in parts) + 2):
        body = trace(fn, parts + list(extra), f"{op}_body", n + len(extra), like)
        changed = False
        for i in range(n):
            new = _adjust_part(parts[i], body, body.elems[i], names[i] if names else
                               "the carry", names[i] in zero_ok if names else False, op, where)
            if new is not None:
                parts[i], changed = new, True
        if not changed:
            break
    outputs, plan = [], []
    for i in range(n):
        leaves, tree = flatten(parts[i])
        kinds = body.elems[i][1]
        label = names[i] if names else "the carry"
        items = []
        for v, k in zip(leaves, kinds):
            if is_array(v):
                out = body.graph.outputs[k.index]
                outputs.append(weak_const(k.value, v, f"the body's result for `{label}`", op,
                                          where) if k.kind == "weak" else out)
                items.append(("out", None))
            else:
                items.append(("static", v))
        plan.append((tree, items))
    for _, kinds in body.elems[n:]:
        outputs += [body.graph.outputs[k.index] for k in kinds if k.kind != "static"]
    body.graph.outputs = outputs
    return body, parts, plan


def _adjust_part(init, body: Traced, elem, label, zero_ok, op, where):
    """``None`` if the body's result fits ``init``; else the adjusted initial value."""
    out_tree, kinds = elem
    leaves, tree = flatten(init)
    if tree != out_tree:
        if zero_ok and tree is None and isinstance(leaves[0], Undefined):
            return unflatten(out_tree, [_zero_value(body, k) for k in kinds])
        raise SporelingError(f"the loop body changes the structure of `{label}`", op=op,
                             expected=f"{_text_leaves(leaves)} (as before the loop)",
                             got=_describe(kinds, body), where=where)
    new, changed = [], False
    for path, v, k in zip(leaf_paths(tree, label), leaves, kinds):
        body_value = _aval(body, k) if k.kind == "array" else k.value
        if is_array(v):
            if k.kind == "static":
                raise SporelingError(f"loop carry `{path}` is {_text_value(v)} before the "
                                     f"loop but {_text_value(k.value)} after an iteration",
                                     op=op, where=where)
            if k.kind == "weak":
                _check_weak(k.value, v, f"loop carry `{path}`", path, op, where)
            elif tuple(v.shape) != tuple(body_value.shape) or \
                    np.dtype(v.dtype) != np.dtype(body_value.dtype):
                raise type_error(f"loop carry `{path}`", ("the initial value is", v),
                                 ("the body's result", body_value), op, where)
            new.append(v)
        elif is_weak(v) and k.kind == "weak":
            changed |= not _same(v, k.value)
            new.append(v if _same(v, k.value) else
                       weak_array(v, (), _weak_dtype(v, k.value), f"loop carry `{path}`", op,
                                  where))
        elif is_weak(v) and k.kind == "array":
            _check_weak(v, body_value, f"loop carry `{path}`", path, op, where)
            new.append(weak_array(v, body_value.shape, body_value.dtype,
                                  f"loop carry `{path}`", op, where))
            changed = True
        elif k.kind == "static" and _same(v, k.value):
            new.append(v)
        elif zero_ok and isinstance(v, Undefined):
            new.append(_zero_value(body, k))
            changed = True
        else:
            hint = "define it before the loop" if isinstance(v, Undefined) else None
            raise SporelingError(f"loop carry `{path}` is {_text_value(v)} before the loop "
                                 f"but {_text_value(body_value)} after an iteration", op=op,
                                 where=where, hint=hint)
    return unflatten(tree, new) if changed else None


def _zero_value(body, k):
    if k.kind == "array":
        aval = _aval(body, k)
        return np.zeros(aval.shape, aval.dtype)
    return type(k.value)(0) if k.kind == "weak" else k.value


def _text_value(v) -> str:
    if isinstance(v, Undefined):
        return "undefined"
    if is_array(v):
        return f"a tensor {np.dtype(v.dtype)}{list(v.shape)}"
    return f"the Python value {v!r}"


def _text_leaves(leaves) -> str:
    return "[" + ", ".join(_text_value(v) for v in leaves) + "]"


# -- predicates and static values ----------------------------------------------------------

def predicate(pred, op: str, where):
    """``pred`` as a bool scalar (size-1 tensors reshaped, numbers compared with 0)."""
    if is_weak(pred) or isinstance(pred, np.generic):
        return np.asarray(bool(pred))
    pred = unwrap(pred)
    if not is_array(pred):
        raise SporelingError("the predicate is not a tensor or a Python bool", op=op,
                             got=type(pred).__name__, where=where)
    if tuple(pred.shape) != ():
        size = int(np.prod(pred.shape, dtype=np.int64))
        if size != 1:
            from sporeling.core import ShapeError
            raise ShapeError("the predicate must be a scalar", op=op,
                             expected="shape () (or one element)",
                             got=f"shape {tuple(pred.shape)}", where=where,
                             hint="reduce it (ops.all / ops.any / sum) first")
        from .shape import reshape
        pred = reshape(pred, ())
    if np.dtype(pred.dtype) != np.bool_:
        from .comparison import not_equal
        pred = not_equal(pred, 0)
    return pred


def concrete(x):
    """The array behind ``x`` (Tensor, value being differentiated...) or None if ``x`` is
    traced (it has no data while a graph is being built)."""
    from ..autodiff.vjp import TapeValue
    from ..ir.trace import Tracer
    for _ in range(64):
        if isinstance(x, Tracer):
            return None
        if isinstance(x, TapeValue):
            x = x.value
            continue
        inner = unwrap_all(x)
        if inner is not x:
            x = inner
            continue
        data = getattr(x, "_data", None)
        if data is not None and data is not x:
            x = data
            continue
        return x
    return x


def static_int(x):
    """``x`` as a Python int when it is known now (not traced), else None."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x)
    value = concrete(x)
    if value is None or not is_array(value):
        return None
    value = np.asarray(value)
    if value.size != 1 or value.dtype.kind not in "iu":
        return None
    return int(value.reshape(()))
