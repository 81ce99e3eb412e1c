"""Generators in Graph mode (issue 23 §12): an error inside a generator's body names the
generator's line and function, not the line of the loop that iterates it; a compiled
function or construct that *is* a generator returns its values, drawn while tracing, as a
tuple (MindSpore 2.10's graph mode)."""
import inspect

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn, ops


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def t(*shape):
    return sx.Tensor(np.ones(shape, np.float32))


def products(x, w):
    for _ in range(2):
        yield ops.matmul(x, w)


def sums_products(x, w):
    total = 0
    for v in products(x, w):
        total = total + v
    return total


def sums_a_generator_expression(x, w):
    total = 0
    for v in (ops.matmul(x, w)
              for _ in range(2)):
        total = total + v
    return total


class SumsProducts(nn.Cell):
    def rows(self, x, w):
        for _ in range(2):
            yield ops.matmul(x, w)

    def construct(self, x, w):
        total = 0
        for v in self.rows(x, w):
            if v.sum() > 0:  # converted control flow around the generator
                total = total + v
        return total


CASES = [
    (sx.jit(sums_products), products, "ops.matmul", "products"),
    (sx.jit(sums_a_generator_expression), sums_a_generator_expression, "ops.matmul",
     "sums_a_generator_expression.<locals>.<genexpr>"),
    (SumsProducts(), SumsProducts.rows, "ops.matmul", "SumsProducts.rows"),
]


@pytest.mark.parametrize("run, fn, text, function", CASES, ids=["jit", "genexpr", "cell"])
def test_an_error_in_a_generator_names_the_generators_line(run, fn, text, function):
    with sx.context(mode=sx.GRAPH_MODE), pytest.raises(ShapeError) as info:
        run(t(2, 3), t(4, 2))
    assert f"{__file__}:{_line(fn, text)} in {function})" in str(info.value), str(info.value)


def halves(x):
    for i in range(2):
        yield x[i] * 0.5


class YieldsHalves(nn.Cell):
    def construct(self, x):
        for i in range(2):
            yield x[i] * 0.5


@pytest.mark.parametrize("run, eager", [(sx.jit(halves), halves),
                                        (YieldsHalves(), YieldsHalves().construct)],
                         ids=["jit", "cell"])
def test_a_compiled_generator_returns_its_values(run, eager):
    x = t(2, 3)
    with sx.context(mode=sx.GRAPH_MODE):
        got = run(x)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, eager(x)):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy())
