"""Reading a traced value while tracing (``read_value``, with the inputs' values given to
``make_graph``) and the ``print`` equation (``debug_print``; ``print(...)`` rewritten by the
AST front end), run by the compiled program each time."""
import numpy as np
import pytest

from sporeling.core import SporelingError
from sporeling.compiler import ops
from sporeling.compiler.frontend import convert
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.ir.trace import TracedValueError, read_value
from sporeling.compiler.jit_levels import compile_at
from sporeling.compiler.ops.debug import debug_print

X = np.array([1.0, 2.0, 3.0], np.float32)
Y = np.array([2.0, 0.5], np.float32)


def test_a_value_computed_from_known_inputs_is_read_and_the_inputs_are_listed():
    seen = []

    def f(x, y):
        total = read_value(ops.sum(ops.mul(x, 2.0)))
        seen.append(total)
        return ops.mul(y, float(total))

    g = make_graph(f, X, Y, values=[X, Y])
    assert seen == [np.float32(12.0)]
    assert g.meta["value_reads"] == [0]  # y's value was not read
    # the graph computes as the traced code did: the read value is a constant of it
    np.testing.assert_allclose(evaluate(g, X, Y)[0], Y * 12.0)


def test_the_read_value_is_a_copy():
    x = X.copy()

    def f(a):
        read_value(a)[0] = 100.0
        return a

    make_graph(f, x, values=[x])
    np.testing.assert_array_equal(x, X)


def test_without_values_a_read_raises_the_traced_value_error():
    with pytest.raises(TracedValueError, match="no data while the graph is being built"):
        make_graph(lambda x: read_value(ops.sum(x)), X)
    assert issubclass(TracedValueError, SporelingError)


def test_a_value_depending_on_an_unknown_input_raises_naming_why():
    with pytest.raises(TracedValueError, match="not known while tracing"):
        make_graph(lambda x, w: read_value(ops.add(x, w)), X, X, values=[X, None])


def test_a_value_depending_on_a_random_draw_raises_naming_why():
    with pytest.raises(TracedValueError, match="drawn anew at every run"):
        make_graph(lambda x: read_value(ops.dropout(x, 0.5)), X, values=[X])


def _run(g, *args, level="O1"):
    return compile_at(g, level)(*args)


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_debug_print_prints_every_run_in_order_after_the_passes(capsys, level):
    def f(x):
        debug_print("first", x)
        y = ops.mul(x, 2.0)
        debug_print("second", y, sep=":")
        return y

    g = make_graph(lambda x: [f(x), _token()], X)
    exe = compile_at(g, level)
    for value in (X, X + 1):
        outs = exe(value)
        np.testing.assert_allclose(outs[0], value * 2)
    assert capsys.readouterr().out.splitlines() == [
        "first [1. 2. 3.]", "second:[2. 4. 6.]", "first [2. 3. 4.]", "second:[4. 6. 8.]"]


def _token():
    from sporeling.compiler.ir.trace import innermost_trace
    return innermost_trace().effect_token


def test_a_print_whose_token_is_no_output_is_dead_code(capsys):
    # the front end must make the last token an output (as sporeling.expression does)
    g = make_graph(lambda x: (debug_print(x), ops.neg(x))[1], X)
    _run(g, X)
    assert capsys.readouterr().out == ""


def test_debug_print_outside_a_trace_prints_at_once(capsys):
    debug_print("x", 1, X)
    assert capsys.readouterr().out == "x 1 [1. 2. 3.]\n"


def _prints(x):
    print("x is", x)
    return ops.mul(x, 3.0)


def _prints_python(x):
    print("shape", x.shape)  # nothing traced: printed once, while tracing
    return x


def test_print_in_converted_code_becomes_a_print_equation(capsys):
    g = make_graph(lambda x: [convert(_prints)(x), _token()], X)
    assert capsys.readouterr().out == ""
    assert g.primitive_counts()["print"] == 1
    _run(g, X)
    _run(g, X * 0)
    assert capsys.readouterr().out == "x is [1. 2. 3.]\nx is [0. 0. 0.]\n"


def test_print_of_python_values_runs_while_tracing(capsys):
    g = make_graph(convert(_prints_python), X)
    assert capsys.readouterr().out == "shape (3,)\n"
    assert "print" not in g.primitive_counts()


def _shadowed(x):
    print = ops.neg  # noqa: A001 - not the built-in: called as it is
    return print(x)


def test_a_name_print_that_is_not_the_builtin_is_called_as_it_is():
    g = make_graph(convert(_shadowed), X)
    np.testing.assert_allclose(evaluate(g, X)[0], -X)


def test_under_vmap_the_batch_prints(capsys):
    from sporeling.compiler.transforms import vmap
    vmap(lambda x: (debug_print(x), ops.neg(x))[1])(np.ones((2, 2), np.float32))
    assert capsys.readouterr().out == "[[1. 1.]\n [1. 1.]]\n"
