"""A generated function checks its arguments with one loop (entry.declare): what TVM's
per-argument checks refused, it refuses, with the same errors, and its code does not grow
with the arguments."""
import re

import numpy as np
import pytest

from sporeling.tvm_backend import kernels, subnormals
from sporeling.tvm_backend.elementwise import GENERIC, prim_func
from sporeling.tvm_backend.normalize import NORM_WORK, NormSpec
from sporeling.tvm_backend.tir_text import parsed

F4 = np.dtype(np.float32).str


def _compiled(expr, specs):
    return kernels._build({"main": prim_func(expr, specs)["main"]})


def _sum(n, shape):
    """A chain adding ``n`` inputs of ``shape`` (float32), and its compiled function."""
    expr = [("add", (("in", 0), ("in", 1)), (), shape, "float32")]
    for k in range(2, n):
        expr.append(("add", (("node", k - 2), ("in", k)), (), shape, "float32"))
    return _compiled(tuple(expr), ((shape, F4),) * n)


def test_compact_arrays_of_the_declared_shapes_pass():
    library = _sum(3, (4, 6))
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    out = np.empty((4, 6), np.float32)
    library["main"](x, x, x, out)
    np.testing.assert_array_equal(out, 3 * x)
    # an axis of one element may have any stride: NumPy's x[:, None] gives it 0
    column = np.arange(4, dtype=np.float32)[:, None]
    one = _compiled((("neg", (("in", 0),), (), (4, 1), "float32"),), (((4, 1), F4),))
    got = np.empty((4, 1), np.float32)
    one["main"](column, got)
    np.testing.assert_array_equal(got, -column)


@pytest.mark.parametrize("wrong", ["strided", "shape", "dtype", "rank", "none"])
def test_arrays_that_do_not_fit_raise_a_value_error_and_keep_the_callers_register(wrong):
    library = _sum(2, (4, 6))
    x = np.ones((4, 6), np.float32)
    bad = {"strided": np.ones((4, 12), np.float32)[:, ::2],
           "shape": np.ones((4, 7), np.float32), "dtype": np.ones((4, 6), np.float64),
           "rank": np.ones(24, np.float32), "none": None}[wrong]
    out = np.zeros((4, 6), np.float32)
    with pytest.raises(ValueError, match="expected compact CPU arrays float32"):
        library["main"](x, bad, out)
    assert not out.any()  # refused before the loops
    # the assertion returns before the register is set: NumPy keeps its subnormals
    assert np.float32(2e-38) * np.float32(0.5) == np.float32(1e-38)


def test_a_function_written_as_text_checks_its_arrays_too():
    """Its header declares the arrays the same way (normalize: x, y, mean, var, work)."""
    spec = NormSpec(6, "float32", 1e-5)
    library = kernels._build({"main": parsed(spec.source())})
    x = np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32)
    args = [np.empty((4,), np.float32), np.empty((4,), np.float32), np.empty(NORM_WORK)]
    y = np.empty((4, 6), np.float32)
    library["main"](x, y, *args)
    np.testing.assert_allclose(y, (x - x.mean(1, keepdims=True)) /
                               np.sqrt(x.var(1, keepdims=True) + 1e-5), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="expected compact CPU arrays"):
        library["main"](np.ones((4, 12), np.float32)[:, ::2], y, *args)
    with pytest.raises(ValueError, match="one batch size"):
        library["main"](x, np.empty((5, 6), np.float32), *args)
    assert np.float32(2e-38) * np.float32(0.5) == np.float32(1e-38)


def test_a_python_number_is_a_type_error():
    library = _sum(2, (4, 6))
    with pytest.raises(TypeError):
        library["main"](np.ones((4, 6), np.float32), 1.0, np.zeros((4, 6), np.float32))


def test_a_variable_extent_is_the_first_arrays_and_every_other_must_match():
    expr = (("mul", (("in", 0), ("in", 1)), (), (GENERIC, 5), "float32"),)
    library = _compiled(expr, (((GENERIC, 5), F4), ((GENERIC, 5), F4)))
    for batch in (1, 3, 8):
        x = np.random.default_rng(batch).standard_normal((batch, 5)).astype(np.float32)
        out = np.empty((batch, 5), np.float32)
        library["main"](x, x, out)
        np.testing.assert_array_equal(out, x * x)
    with pytest.raises(ValueError, match="one batch size"):
        library["main"](np.ones((3, 5), np.float32), np.ones((4, 5), np.float32),
                        np.empty((3, 5), np.float32))


@pytest.mark.skipif(not subnormals.FLUSHES, reason="the count is of x86-64's code")
def test_the_checks_code_does_not_grow_with_the_arguments():
    """TVM's own checks wrote ~20 error paths per buffer argument (rank, dtype, each extent
    and stride...); the loop leaves TVM's one type check per handle and two assertions."""
    for n in (4, 40):
        llvm = _sum(n, (3, 5)).mod.inspect_source("ll")
        raised = len(re.findall(r"call fastcc void @__tvm_set_raised", llvm))
        assert raised <= (n + 1) + 4, (n, raised)
