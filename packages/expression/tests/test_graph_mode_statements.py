"""Statements inside tensor-dependent branches and loops under ``jit``: each either compiles
to what PyNative does or is refused with the user's file:line -- none runs on every path
(issue 9, items 6 and 7)."""
import inspect

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler.frontend import GraphSyntaxError
from sporeling.core import SporelingError
from sporeling.expression import nn


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _where(fn, text):
    return f"{__file__}:{_line(fn, text)}"


def small(x):
    return sx.Tensor(np.full(3, x, np.float32))


# -- raise / assert: runtime checks ---------------------------------------------------------

def raise_if_big(x):
    if x.sum() > 100:
        raise ValueError("too big")
    return x * 2


def test_raise_under_a_false_tensor_condition_does_not_raise():
    f = sx.jit(raise_if_big)
    np.testing.assert_allclose(f(small(1.0)).asnumpy(), raise_if_big(small(1.0)).asnumpy())


def test_raise_under_a_true_tensor_condition_raises_the_users_error_at_run_time():
    f = sx.jit(raise_if_big)
    f(small(1.0))                                   # compiled once, runs fine
    with pytest.raises(ValueError, match="too big") as info:
        f(small(50.0))                              # the same graph, the branch taken
    assert f.compile_count == 1
    assert any(_where(raise_if_big, "raise ValueError") in note
               for note in getattr(info.value, "__notes__", []))


def raise_with_else(x):
    if x.max() > 10:
        raise ValueError(f"a value above 10 in a tensor of shape {x.shape}")
    else:
        y = x + 1
    return y


def test_raise_in_one_branch_leaves_the_others_variables_alone():
    f = sx.jit(raise_with_else)
    np.testing.assert_allclose(f(small(1.0)).asnumpy(), np.full(3, 2.0, np.float32))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        f(small(11.0))


def assert_positive(x):
    assert (x > 0).all(), "x must be positive"
    return x.sqrt()


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # sqrt(-1) before the check
def test_assert_on_a_tensor_is_a_runtime_check():
    f = sx.jit(assert_positive)
    np.testing.assert_allclose(f(small(4.0)).asnumpy(), np.full(3, 2.0, np.float32))
    with pytest.raises(AssertionError, match="x must be positive"):
        f(small(-1.0))


def raise_in_loop(x):
    i = 0
    while x.sum() < 100:
        x = x * 2
        if x.max() > 50:
            raise OverflowError("grew past 50")
        i += 1
    return x


def test_raise_in_a_tensor_loop_checks_each_iteration():
    f = sx.jit(raise_in_loop)
    np.testing.assert_allclose(f(small(20.0)).asnumpy(), np.full(3, 40.0, np.float32))
    with pytest.raises(OverflowError, match="grew past 50"):
        f(small(1.0))                              # 2, 4, ... 32, then 64 > 50
    with pytest.raises(OverflowError, match="grew past 50"):
        raise_in_loop(small(1.0))                  # as PyNative does


def test_raise_under_a_python_condition_stays_python():
    def f(x, strict):
        if strict:
            raise ValueError("strict mode")
        return x + 1
    g = sx.jit(f)
    np.testing.assert_allclose(g(small(1.0), False).asnumpy(), np.full(3, 2.0, np.float32))
    with pytest.raises(ValueError, match="strict mode"):
        g(small(1.0), True)


class Guarded(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 1)

    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 1e6:
            raise ValueError("diverged")
        return (y * y).sum()


class EarlyReturn(Guarded):
    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 1e6:
            return y.sum()
        return (y * y).sum()


@pytest.mark.parametrize("cls", [Guarded, EarlyReturn])
def test_gradients_pass_through_checks_and_early_returns_under_jit(cls):
    # the early return's branch gives an outer Tensor as it is: its gradient used to be 0
    sx.set_seed(0)
    net = cls()
    vg = sx.value_and_grad(lambda x: net(x), 0, net.trainable_params())
    x = sx.Tensor(np.full((2, 3), 0.5, np.float32))
    (loss, (gx, gw)), (jloss, (jgx, jgw)) = vg(x), sx.jit(vg)(x)
    np.testing.assert_allclose(jloss.asnumpy(), loss.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(jgx.asnumpy(), gx.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(jgw[0].asnumpy(), gw[0].asnumpy(), rtol=1e-6)
    assert np.abs(gx.asnumpy()).sum() > 0


def loss_with_a_tensor_if(x):
    if x.sum() > 1e6:
        raise ValueError("diverged")
    return (x * x).sum()


def plain_loss(x):
    return (x * x).sum()


def test_jit_of_grad_compiles_the_gradient_not_the_wrapped_function():
    # grad's wrapper carries functools.wraps: its source used to be read as the loss's;
    # and whether it needs converting depends on what it wraps, not only on its code
    x = small(3.0)
    np.testing.assert_allclose(sx.jit(sx.grad(plain_loss))(x).asnumpy(),
                               np.full(3, 6.0, np.float32))
    np.testing.assert_allclose(sx.jit(sx.grad(loss_with_a_tensor_if))(x).asnumpy(),
                               np.full(3, 6.0, np.float32))


# -- refused with file:line -------------------------------------------------------------------

def print_in_branch(x):
    if x.sum() > 0:
        print("positive")
    return x


def attribute_write_in_branch(x, box):
    if x.sum() > 0:
        box.hits = x
    return x


def item_write_in_loop(x, out):
    for row in x:
        out[0] = row
    return x


class Box:
    hits = None


@pytest.mark.parametrize("fn, args, construct, text", [
    (print_in_branch, (), "`print`", "print("),
    (attribute_write_in_branch, (Box(),), "assigning to an attribute", "box.hits"),
    (item_write_in_loop, ([None],), "assigning to an item", "out[0]"),
])
def test_side_effects_in_traced_code_are_refused_naming_the_line(fn, args, construct, text):
    x = sx.Tensor(np.ones((2, 3), np.float32))
    fn(x, *args)                                     # fine in PyNative
    with pytest.raises(GraphSyntaxError, match=construct) as info:
        sx.jit(fn)(x, *args)
    assert _where(fn, text) in str(info.value)


def print_under_python_if(x, verbose):
    if verbose:
        print("tracing")
    return x + 1


def test_print_outside_tensor_conditions_still_runs_at_compile_time(capsys):
    sx.jit(print_under_python_if)(small(1.0), True)
    assert "tracing" in capsys.readouterr().out


# -- item 7: the loop condition sees the carried values as the body does -----------------------

def bounded_doubling(x):
    i = 0
    while x.sum() < 100 and i < 5:
        x = x * 2
        i += 1
    return x, i


@pytest.mark.parametrize("start", [1.0, 0.001, 200.0])
def test_while_with_a_tensor_test_and_a_python_counter(start):
    x = small(start)
    ex, ei = bounded_doubling(x)
    gx, gi = sx.jit(bounded_doubling)(x)
    np.testing.assert_allclose(gx.asnumpy(), ex.asnumpy())
    assert int(gi) == int(ei)


def counter_only_in_test(x):
    n = 0
    while n < 3 and x.sum() > 0:
        x = x - 1.0
        n = n + 1
    return x


def test_while_whose_python_counter_is_read_first():
    x = small(2.0)
    np.testing.assert_allclose(sx.jit(counter_only_in_test)(x).asnumpy(),
                               counter_only_in_test(x).asnumpy())


def iterate_scalar(x):
    s = x.sum()
    total = x[0] * 0
    for v in s:
        total = total + v
    return total


class Calls(nn.Cell):
    """A Cell around a function: its errors in PyNative come through Cell.__call__."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


def test_iterating_a_0d_tensor_names_the_for_line_in_both_modes():
    x = sx.Tensor(np.ones((2, 3), np.float32))
    for run in (Calls(iterate_scalar), sx.jit(iterate_scalar)):
        with pytest.raises(SporelingError) as info:
            run(x)
        assert _where(iterate_scalar, "for v in s") in str(info.value), str(info.value)


def gen_rows(x):
    for i in range(x.shape[0]):
        yield x[i].reshape(7)


def iterate_generator(x):
    total = x[0]
    for v in gen_rows(x):
        total = total + v
    return total


def test_iterating_a_generator_names_the_generators_line_in_both_modes():
    x = sx.Tensor(np.ones((2, 3), np.float32))
    for run in (Calls(iterate_generator), sx.jit(iterate_generator)):
        with pytest.raises(ValueError) as info:
            run(x)
        assert _where(gen_rows, "yield") in str(info.value), str(info.value)


def reshapes_in_branch(x):
    if x.sum() > 0:
        x = x.reshape(7)
    return x


def test_library_argument_errors_in_a_traced_branch_keep_their_message():
    # Sporeling's own raises check Python arguments: they stay Python raises
    with pytest.raises(ValueError, match="cannot reshape") as info:
        sx.jit(reshapes_in_branch)(small(1.0))
    assert _where(reshapes_in_branch, "reshape(7)") in str(info.value)


def require_vector(x):
    if len(x.shape) != 1:
        raise ValueError(f"expected a vector, got shape {x.shape}")


def validates_in_branch(x):
    if x.sum() > 0:
        require_vector(x)
        x = x * 2
    return x


def test_a_validation_helper_returning_nothing_raises_while_compiling():
    with pytest.raises(ValueError, match=r"expected a vector, got shape \(2, 3\)"):
        sx.jit(validates_in_branch)(sx.Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_allclose(sx.jit(validates_in_branch)(small(1.0)).asnumpy(),
                               np.full(3, 2.0, np.float32))
