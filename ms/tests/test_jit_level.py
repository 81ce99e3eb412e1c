"""Issue 21: the facade's ``jit_level`` (``ms.jit``, ``JitConfig``, ``Cell.set_jit_config``,
``set_context(jit_config=...)``, ``data_sink``) selects how Graph mode compiles: O0 kernel by
kernel (no fusion), O1 fused, O2 fused with native code where a generator is installed."""
import numpy as np
import pytest

import sporeling.core as sc
import sporeling.ms as ms
from sporeling.expression.graph.cell_call import cache_of


@pytest.fixture(autouse=True)
def _context_back():
    yield
    sc.reset_context()


def chain(x):
    return (ms.ops.exp(x * 0.5 + 1.0)).sum()


X = ms.Tensor(np.linspace(-1.0, 1.0, 4).astype(np.float32))


def _fused(executable) -> bool:
    """A fused chain (at O2 on TVM the chain and its sum are one ``fused_reduce``)."""
    counts = executable.graph.primitive_counts()
    return "fused_elementwise" in counts or "fused_reduce" in counts


@pytest.mark.parametrize("level, fused", [("O0", False), ("O1", True)])
def test_ms_jit_compiles_at_the_level_given(level, fused):
    f = ms.jit(chain, jit_level=level)
    g = ms.jit(jit_level=level)(chain)
    np.testing.assert_allclose(f(X).asnumpy(), chain(X).asnumpy(), rtol=1e-6)
    g(X)
    assert _fused(f.last_executable) is fused and _fused(g.last_executable) is fused


def test_ms_jit_without_a_level_follows_the_context_fused_by_default():
    f = ms.jit(chain)
    f(X)
    assert f.jit_level is None and _fused(f.last_executable)
    ms.set_context(jit_config={"jit_level": "O0"})  # 2.10's global knob
    assert sc.get_context("jit_level") == "O0"
    f(X)
    assert not _fused(f.last_executable)


class Chain(ms.nn.Cell):
    def construct(self, x):
        return chain(x)


@pytest.mark.parametrize("level, fused", [("O0", False), ("O1", True), ("", True)])
def test_set_jit_config_sets_the_cell_s_level(level, fused):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Chain()
    net.set_jit_config(ms.JitConfig(jit_level=level))
    net(X)
    assert net.jit_config_dict["jit_level"] == level
    assert _fused(cache_of(net).last_executable) is fused


def test_jit_config_o2_is_fused_native_code_or_o1(monkeypatch):
    from sporeling.runtime import get_backends
    for name, factory in get_backends().items():   # numpy's the only native backend
        if isinstance(factory, type):
            monkeypatch.setattr(factory, "native", name == "numpy")
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Chain()
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    net(X)
    executable = cache_of(net).last_executable
    assert _fused(executable) and executable.program.program.backend.name == "numpy"


def test_data_sink_compiles_at_the_config_s_level(monkeypatch):
    import sporeling.expression as sx
    made = []
    real = sx.jit
    monkeypatch.setattr(sx, "jit", lambda fn, **kw: made.append(real(fn, **kw)) or made[-1])
    dataset = ms.dataset.NumpySlicesDataset(
        {"x": np.ones((4, 3), np.float32)}, shuffle=False).batch(2)
    seen = []

    def step(x):
        seen.append(x)
        return chain(x)
    sink = ms.data_sink(step, dataset, sink_size=2, jit_config=ms.JitConfig(jit_level="O0"))
    out = sink()
    np.testing.assert_allclose(out.asnumpy(), chain(ms.Tensor(np.ones((2, 3), np.float32)))
                               .asnumpy(), rtol=1e-6)
    assert len(seen) == 1  # traced once, then run compiled
    assert made[0].jit_level == "O0" and not _fused(made[0].last_executable)


def test_levels_outside_2_10_s_are_refused():
    with pytest.raises(ValueError):
        ms.jit(chain, jit_level="O2")  # 2.10's jit takes O0 or O1
    with pytest.raises(ValueError):
        ms.JitConfig(jit_level="O3")
    with pytest.raises(sc.ContextError):
        ms.set_context(jit_config={"jit_level": "O3"})
