"""The AST conversion: each construct traced with make_graph(convert(f)) and evaluated
against plain Python on inputs that take every path.

The functions are written Tensor-style on ``T``, a minimal tensor type registered with the
control-flow ops (as the expression package's Tensor would be), so the same code runs as
plain Python on arrays and converted on tracers.
"""
import inspect

import numpy as np
import pytest

from sporeling.core import SporelingError, context
from sporeling.compiler import ops
from sporeling.compiler.frontend import GraphSyntaxError, convert, is_traced
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.ops._control_trace import register_wrapper

f32 = np.float32
XS = [np.array([1.0, 2.0, 3.0], f32), np.array([-1.0, -2.0, 0.5], f32),
      np.array([4.0, -9.0, 1.0], f32)]


def _v(x):
    return x.v if isinstance(x, T) else x


class T:
    """A value with operators over the ops (Tensor-like)."""

    def __init__(self, v):
        self.v = v

    shape = property(lambda self: self.v.shape)
    dtype = property(lambda self: self.v.dtype)

    def _op(fn):
        return lambda self, other: T(fn(self.v, _v(other)))

    def _rop(fn):
        return lambda self, other: T(fn(_v(other), self.v))

    __add__, __sub__, __mul__ = _op(ops.add), _op(ops.sub), _op(ops.mul)
    __radd__, __rsub__, __rmul__ = _rop(ops.add), _rop(ops.sub), _rop(ops.mul)
    __gt__, __lt__ = _op(ops.greater), _op(ops.less)
    __neg__ = lambda self: T(ops.neg(self.v))  # noqa: E731
    sum = lambda self: T(ops.sum(self.v))  # noqa: E731
    max = lambda self: T(ops.max(self.v))  # noqa: E731
    min = lambda self: T(ops.min(self.v))  # noqa: E731
    reshape = lambda self, *shape: T(ops.reshape(self.v, shape))  # noqa: E731
    astype = lambda self, dtype: T(ops.cast(self.v, dtype))  # noqa: E731

    def __bool__(self):
        return bool(self.v)

    def __iter__(self):
        return (T(row) for row in self.v)


register_wrapper(T, T, _v)


def untree(out):
    if isinstance(out, (tuple, list)):
        return tuple(untree(o) for o in out)
    return np.asarray(_v(out)) if not hasattr(_v(out), "var") else _v(out)


def run_graph(fn, *args):
    g = make_graph(lambda *xs: untree(convert(fn)(*(T(x) for x in xs))), *args)
    out = evaluate(g, *args, *g.meta["captured"])
    return out, g


def check(fn, *args):
    expected = untree(fn(*(T(x) for x in args)))  # plain Python on arrays
    got, g = run_graph(fn, *args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(got) == len(expected)
    for e, o in zip(expected, got):
        np.testing.assert_allclose(o, e, rtol=1e-6)
    return g


def count(g, name):
    """Equations of primitive ``name`` in ``g`` and its sub-graphs."""
    n = 0
    for eq in g.equations:
        n += eq.prim.name == name
        for p in eq.params.values():
            if hasattr(p, "equations"):
                n += count(p, name)
    return n


def if_else(x):
    if x.sum() > 0:
        y = x * 2.0
    else:
        y = -x
    return y


def if_without_else_and_temp(x):
    y = x
    if x.sum() > 0:
        t = x + 1.0
        y = t * t
    return y


def nested_if_in_loop(x):
    s = x * 0.0
    i = 0
    while i < 4:
        if s.sum() > 3.0:
            if x.max() > 2.0:
                s = s - 1.0
            else:
                s = s + 0.5
        else:
            s = s + x
        i += 1
    return s, i


def tensor_while(x):
    n = 0
    while (x * x).sum() < 400.0:
        x = x * 2.0
        n = n + 1
    return x, n


def pytree_carry(x):
    state = {"h": x, "c": (x * 0.0, 1.0)}
    while state["h"].sum() < 10.0:
        state = {"h": state["h"] + 3.0, "c": (state["c"][0] + state["h"], state["c"][1])}
    return state["h"], state["c"][0]


def for_range_python(x):
    acc = x
    for i in range(3):
        if acc.sum() > 0:
            acc = acc * 0.5 + i
    return acc


def for_over_tensor(x):
    total = 0.0
    for row in x.reshape(3, 1):
        total = total + (row * row).sum()
    return total


def long_range(x):
    for i in range(100):
        x = x * 0.99 + 0.01
    return x


def break_continue(x):
    s = x * 0.0
    for i in range(5):
        if s.sum() > 4.0:
            break
        if x.max() > 3.0:
            s = s + 2.0
            continue
        s = s + x
    return s


def while_break(x):
    while x.sum() < 100.0:
        x = x + 7.0
        if x.max() > 9.0:
            break
        x = x * 1.5
    return x


def early_return(x):
    if x.sum() > 0:
        return x * 3.0
    y = x - 1.0
    return y * y


def return_in_loop(x):
    for i in range(4):
        x = x + 1.0
        if x.sum() > 5.0:
            return x * 10.0
    return x


def helper(x):
    if x.max() > 1.5:
        return x - 1.0
    return x + 1.0


def calls_helper(x):
    return helper(x) * 2.0


def python_flag(x, flag=True):
    if flag:
        x = x + 1.0
    else:
        x = x - 1.0
    while isinstance(x, int):
        x = x
    return x


def bool_ops(x):
    if x.sum() > 0 and x.max() > 2.0:
        return x
    z = x * 2.0 if x.min() > -1.0 else x * 3.0
    return z if not x.sum() > 100.0 else x


@pytest.mark.parametrize("fn", [if_else, if_without_else_and_temp, nested_if_in_loop,
                                tensor_while, pytree_carry, for_range_python, for_over_tensor,
                                long_range, break_continue, while_break, early_return,
                                return_in_loop, calls_helper, bool_ops])
def test_converted_matches_python(fn):
    for x in XS:
        check(fn, x)


def test_tensor_if_becomes_one_cond():
    g = check(if_else, XS[0])
    assert g.primitive_counts().get("cond") == 1


def test_python_conditions_specialise_the_graph():
    g = make_graph(lambda x: convert(python_flag)(T(x), True).v, XS[0])
    assert g.primitive_counts() == {"add": 1}
    g = make_graph(lambda x: convert(python_flag)(T(x), False).v, XS[0])
    assert g.primitive_counts() == {"sub": 1}


def test_loops_choose_unrolling_scan_or_while():
    g = check(for_range_python, XS[0])
    assert count(g, "cond") == 3 and "scan" not in g.primitive_counts()
    assert "scan" in check(long_range, XS[0]).primitive_counts()
    assert "scan" in check(for_over_tensor, XS[0]).primitive_counts()
    assert "while_loop" in check(tensor_while, XS[0]).primitive_counts()


def test_functions_without_control_flow_are_returned_unchanged():
    def plain(x):
        return ops.exp(x)
    assert convert(plain) is plain
    assert convert(if_else) is convert(if_else)  # cached


class Net:
    def __init__(self):
        self.__scale = 3.0

    def construct(self, x):
        if x.sum() > 0:
            x = self.twice(x) * self.__scale
        return x

    def twice(self, x):
        return x * 2.0


def test_bound_methods_are_converted_and_rebound():
    net = Net()
    fn = convert(net.construct)
    assert fn.__self__ is net
    for x in XS:
        got, _ = run_graph(lambda v: fn(v), x)
        np.testing.assert_allclose(got[0], net.construct(T(x)).v)


def if_else_ops(x):
    if ops.greater(ops.sum(x), 0.0):
        y = ops.mul(x, 2.0)
    else:
        y = ops.neg(x)
    return y


def test_ir_source_lines_point_at_the_user_code():
    g = make_graph(convert(if_else_ops), XS[0])
    start = inspect.getsourcelines(if_else_ops)[1]
    lines = {e.prim.name: e.source for e in g.equations}
    assert lines["cond"].endswith(f"test_cf_convert.py:{start + 1}")
    assert lines["greater"].endswith(f"test_cf_convert.py:{start + 1}")
    # the branches only read the outer x: their ops are hoisted into the outer graph
    assert lines["mul"].endswith(f"test_cf_convert.py:{start + 2}")
    assert lines["neg"].endswith(f"test_cf_convert.py:{start + 4}")


def one_sided(x):
    if x.sum() > 0:
        y = x * 2.0
    return y


def changes_dtype(x):
    if x.sum() > 0:
        x = x.astype(np.float64)
    return x


def test_errors_name_the_variable_and_line():
    start = inspect.getsourcelines(one_sided)[1]
    with pytest.raises(SporelingError, match=rf"`y`.*undefined.*test_cf_convert.py:{start + 1}"):
        run_graph(one_sided, XS[0])
    with pytest.raises(SporelingError, match=r"`x`.*float64\[3\].*float32\[3\]"):
        run_graph(changes_dtype, XS[0])


COUNT = []


def writes_global(x):
    global COUNT
    if x.sum() > 0:
        COUNT = [1]
    return x


def deletes(x):
    y = x
    if x.sum() > 0:
        del y
    return x


def recurse(x):
    if x.sum() > 100.0:
        return x
    return recurse(x * 2.0)


def test_unsupported_constructs_raise_graph_syntax_errors():
    start = inspect.getsourcelines(writes_global)[1]
    with pytest.raises(GraphSyntaxError, match=rf"global.*test_cf_convert.py:{start + 2}"):
        run_graph(writes_global, XS[0])
    writes_global(XS[0])  # Python conditions still run
    with pytest.raises(GraphSyntaxError, match="del"):
        run_graph(deletes, XS[0])
    with context(max_call_depth=8):
        with pytest.raises(GraphSyntaxError, match="max_call_depth=8.*recurse|recurse"):
            run_graph(recurse, XS[0])
    np.testing.assert_allclose(convert(recurse)(XS[0]), recurse(XS[0]))  # eagerly: Python


def test_is_traced():
    assert not is_traced(XS[0]) and not is_traced(1.0)
    make_graph(lambda x: (assert_traced(x), x)[1], XS[0])


def assert_traced(x):
    assert is_traced(x)
