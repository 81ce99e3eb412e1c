"""``jit_level`` in Graph mode: the context's for every compile, or one function's own
(``jit(fn, jit_level=...)``), kept by methods bound from a jit function."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError, context


def chain(x):
    return (sx.ops.exp(x * 0.5 + 1.0)).sum()


X = sx.Tensor(np.linspace(-1.0, 1.0, 4).astype(np.float32))


def _fused(jitted) -> bool:
    """A fused chain (at O2 on TVM, where installed, the chain and its sum are one
    ``fused_reduce``)."""
    counts = jitted.last_executable.graph.primitive_counts()
    return "fused_elementwise" in counts or "fused_reduce" in counts


def test_the_context_level_decides_by_default():
    f = sx.jit(chain)
    f(X)
    assert f.jit_level is None and _fused(f)
    with context(jit_level="O0"):
        f(X)
        assert not _fused(f) and f.compile_count == 2


@pytest.mark.parametrize("level, fused", [("O0", False), ("O1", True)])
def test_a_function_has_its_own_level(level, fused):
    f = sx.jit(chain, jit_level=level)
    g = sx.jit(jit_level=level)(chain)  # as a decorator factory
    with context(jit_level="O1" if level == "O0" else "O0"):  # the other one
        np.testing.assert_allclose(f(X).asnumpy(), chain(X).asnumpy(), rtol=1e-6)
        g(X)
    assert _fused(f) is fused and _fused(g) is fused


def test_another_level_of_a_jit_function_compiles_apart():
    f = sx.jit(chain)
    f0 = sx.jit(f, jit_level="O0")
    f(X), f0(X)
    assert f0 is not f and _fused(f) and not _fused(f0)
    assert sx.jit(f0) is f0 and sx.jit(f0, jit_level="O0") is f0


class Net(sx.nn.Cell):
    @sx.jit(jit_level="O0")
    def forward(self, x):
        return chain(x)

    def construct(self, x):
        return self.forward(x)


def test_methods_bound_from_a_jit_function_keep_its_level():
    net = Net()
    net.forward(X)
    assert net.forward.jit_level == "O0" and not _fused(net.forward)


class Chain(sx.nn.Cell):
    def construct(self, x):
        return chain(x)


def test_changing_a_level_drops_the_graphs_compiled_at_the_other():
    from sporeling.expression.graph.cell_call import cache_of
    net = Chain()
    with context(mode=sx.GRAPH_MODE):
        net(X)
        cache = cache_of(net)
        assert _fused(cache)
        cache.set_jit_level("O0")
        assert cache.info()["entries"] == 0
        net(X)
    assert cache.compile_count == 2 and not _fused(cache)
    with pytest.raises(SporelingError, match="O0 or O1 or O2"):
        cache.set_jit_level("fast")


def test_explain_reports_the_latest_compiled_program():
    f = sx.jit(chain, jit_level="O1")
    with pytest.raises(SporelingError, match="nothing compiled yet"):
        f.explain()
    f(X)
    report = f.explain()
    assert report.startswith("program chain: jit_level O1, lowered on")
    assert "fused: 1 elementwise chain" in report and "(mul, add, exp)" in report
