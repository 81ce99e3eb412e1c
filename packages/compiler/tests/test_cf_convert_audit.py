"""The converter's audit (issue 9, item 6): every statement kind inside a tensor-dependent
branch or loop body either compiles to what Python does or is refused naming its line --
none runs on every path. The compiler README's table lists the same rows."""
import inspect

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.frontend import GraphSyntaxError, convert
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.pipeline import compile_graph
from sporeling.core import SporelingError

f32 = np.float32
SMALL, BIG = np.ones(3, f32), np.full(3, 50.0, f32)


def compiled(fn):
    """``fn`` converted, traced once on SMALL, compiled: a function of arrays."""
    g = make_graph(convert(fn), SMALL)
    exe = compile_graph(g)
    return lambda x: exe(x, *g.meta["captured"])[0]


def where(fn, text):
    lines, first = inspect.getsourcelines(fn)
    line = first + next(i for i, s in enumerate(lines) if text in s)
    return f"{__file__}:{line}"


def big(x):
    return ops.greater(ops.sum(x), 100.0)


# -- converted: run-time checks ------------------------------------------------------------

def raises(x):
    if big(x):
        raise ValueError("too big")
    return ops.mul(x, 2.0)


def asserts(x):
    assert ops.less(ops.sum(x), 100.0), "sum must stay below 100"
    return ops.mul(x, 2.0)


def raises_in_loop(x):
    n = ops.sum(ops.mul(x, 0.0))
    for row in ops.reshape(x, (3, 1)):
        if ops.greater(ops.sum(row), 40.0):
            raise OverflowError("a row above 40")
        n = ops.add(n, ops.sum(row))
    return n


@pytest.mark.parametrize("fn, error, text", [
    (raises, ValueError, "raise ValueError"), (asserts, AssertionError, "assert ops"),
    (raises_in_loop, OverflowError, "raise OverflowError")])
def test_raise_and_assert_become_run_time_checks(fn, error, text):
    run = compiled(fn)
    np.testing.assert_allclose(run(SMALL), fn(SMALL))            # condition false: no raise
    with pytest.raises(error) as info:
        run(BIG)                                                 # same graph, condition true
    with pytest.raises(error):
        fn(BIG)                                                  # as plain Python does
    assert any(where(fn, text) in note for note in info.value.__notes__)


def test_the_check_is_one_equation_of_the_graph_and_survives_the_passes():
    g = make_graph(convert(raises), SMALL)
    assert g.primitive_counts()["check"] == 1
    assert "check" in compile_graph(g).graph.primitive_counts()


def raise_caught_in_branch(x):
    if big(x):
        try:
            raise KeyError("k")
        except KeyError:
            x = ops.neg(x)
    return x


def test_a_raise_caught_inside_the_branch_is_python():
    run = compiled(raise_caught_in_branch)
    np.testing.assert_allclose(run(BIG), -BIG)
    np.testing.assert_allclose(run(SMALL), SMALL)


# -- refused, naming the line --------------------------------------------------------------

class Box:
    value = None


BOX = Box()


def raise_escapes_try(x):
    if big(x):
        try:
            raise KeyError("k")
        except ValueError:
            pass
    return x


def prints(x):
    if big(x):
        print("big")
    return x


def writes_attribute(x):
    if big(x):
        BOX.value = x
    return x


def augments_item(x):
    totals = [0.0]
    for row in ops.reshape(x, (3, 1)):
        totals[0] = ops.add(totals[0], ops.sum(row))  # own list: caught where it is read
    return ops.mul(x, totals[0])


def writes_item_of_argument(x, out=[None]):  # noqa: B006  (the effect under test)
    if big(x):
        out[0] = x
    return x


def appends(x):
    rows = []
    for row in ops.reshape(x, (3, 1)):
        rows.append(ops.mul(row, 2.0))
    return rows[0]


def defines_in_loop(x):
    for row in ops.reshape(x, (3, 1)):
        def twice():
            return ops.mul(row, 2.0)
    return twice()


def yields_under_tensor_condition(x):
    if big(x):
        yield x


def iterates_a_generator(x):
    for v in yields_under_tensor_condition(x):
        x = ops.neg(v)
    return x


@pytest.mark.parametrize("fn, error, message, text", [
    (iterates_a_generator, SporelingError, "truth value",
     (yields_under_tensor_condition, "if big(x)")),
    (raise_escapes_try, GraphSyntaxError, "raise.*try", "raise KeyError"),
    (prints, GraphSyntaxError, "`print`", "print("),
    (writes_attribute, GraphSyntaxError, "attribute", "BOX.value"),
    (writes_item_of_argument, GraphSyntaxError, "item", "out[0]"),
    (augments_item, SporelingError, "escaped", "totals[0] = ops.add"),
    (appends, SporelingError, "escaped", "rows.append"),
    (defines_in_loop, SporelingError, "`twice`", "for row"),
])
def test_effects_that_would_run_on_every_path_are_refused(fn, error, message, text):
    fn(SMALL)                                                    # fine as plain Python
    with pytest.raises(error, match=message) as info:
        make_graph(convert(fn), SMALL)
    located, text = text if isinstance(text, tuple) else (fn, text)
    assert where(located, text) in str(info.value)


# -- unchanged: Python semantics hold -----------------------------------------------------------

def with_in_branch(x):
    if big(x):
        with np.errstate(all="ignore"):
            x = ops.mul(x, 2.0)
    return x


def builds_a_shape_in_branch(x):
    if big(x):
        shape = list(x.shape)
        shape[0] = 1
        x = ops.reshape(ops.sum(x), tuple(shape))
    else:
        x = ops.reshape(ops.mean(x), (1,))
    return x


def closure_inside_loop(x):
    for row in ops.reshape(x, (3, 1)):
        scale = lambda: ops.mul(row, 2.0)  # noqa: E731
        x = ops.add(x, scale())
    return x


@pytest.mark.parametrize("fn", [with_in_branch, closure_inside_loop,
                                builds_a_shape_in_branch])
def test_constructs_that_convert_as_they_are(fn):
    for x in (SMALL, BIG):
        g = make_graph(convert(fn), x)
        np.testing.assert_allclose(evaluate(g, x, *g.meta["captured"])[0], fn(x))


def prints_under_python_condition(x, verbose=True):
    if verbose:
        print("tracing")
    return x


def test_effects_outside_tensor_conditions_run_once_at_trace_time(capsys):
    make_graph(convert(prints_under_python_condition), SMALL)
    assert capsys.readouterr().out == "tracing\n"


def raises_from_none(x, key):
    table = {"a": 1.0}
    if key not in table:
        try:
            table[key]
        except KeyError:
            pass
        raise ValueError(f"unknown key {key!r}") from None
    return ops.mul(x, table[key])


def test_raise_from_keeps_its_cause_under_python_conditions():
    with pytest.raises(ValueError, match="unknown key 'b'") as info:
        make_graph(lambda x: convert(raises_from_none)(x, "b"), SMALL)
    assert info.value.__suppress_context__ and info.value.__cause__ is None
