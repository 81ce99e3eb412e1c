"""Issue 21: ``jit_level`` selects the path -- O0 no fusion, O1 fused, O2 fused and lowered
on the native code generator (O1, said once, when none is installed)."""
import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import jit_levels, ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.jit_levels import compile_at
from sporeling.core import ContextError, SporelingError, context, get_context, set_context
from sporeling.runtime import get_backends


def chain(x):
    return ops.sum(ops.exp(ops.mul(ops.add(x, 1.0), 0.5)))


X = np.linspace(-1.0, 1.0, 6).astype(np.float32)


def _backend(executable) -> str:
    return executable.program.program.backend.name


@pytest.fixture
def lowering_backends(monkeypatch):
    """The backend each compile lowered on: the one it was given, else the context's
    ``backend`` value (None: the device target's default)."""
    seen = []
    real = jit_levels.compile_graph

    def spy(graph, *, level=None, backend=None):
        seen.append(backend.name if backend is not None else get_context("backend"))
        return real(graph, level=level, backend=backend)
    monkeypatch.setattr(jit_levels, "compile_graph", spy)
    return seen


def _native_only(monkeypatch, name=None):
    """Make ``name``'s backend the only native one installed (None: no native one)."""
    for backend, factory in get_backends().items():
        if isinstance(factory, type):
            monkeypatch.setattr(factory, "native", backend == name)


def test_o0_runs_kernel_by_kernel_o1_fuses():
    g = make_graph(chain, X)
    assert "fused_elementwise" not in compile_at(g, "O0").graph.primitive_counts()
    assert compile_at(g, "O1").graph.primitive_counts() == {"fused_elementwise": 1,
                                                             "sum": 1}


def test_the_context_level_is_the_default_o2():
    g = make_graph(chain, X)
    assert get_context("jit_level") == "O2"
    # fused: the chain, or on TVM (where installed) the chain with its sum (fused_reduce)
    assert {"fused_elementwise", "fused_reduce"} & set(compile_at(g).graph.primitive_counts())
    with context(jit_level="O0"):
        assert "fused_elementwise" not in compile_at(g).graph.primitive_counts()
    with context(graph_opt_level="O0"):  # the old name of the same key
        assert get_context("jit_level") == "O0"
        assert "fused_elementwise" not in compile_at(g).graph.primitive_counts()


def test_o2_lowers_on_the_native_backend(monkeypatch, lowering_backends):
    _native_only(monkeypatch, "numpy")
    exe = compile_at(make_graph(chain, X), "O2")
    assert lowering_backends == ["numpy"] and _backend(exe) == "numpy"
    assert "fused_elementwise" in exe.graph.primitive_counts()
    assert get_context("backend") is None  # only the compile saw it


def test_o2_keeps_a_backend_chosen_by_name(monkeypatch, lowering_backends):
    _native_only(monkeypatch, "numpy")
    with context(backend="numpy"):
        compile_at(make_graph(chain, X), "O2")
    assert lowering_backends == ["numpy"]  # the user's, not a substitute


def test_o2_without_a_code_generator_says_so_once_and_runs_o1(monkeypatch, caplog,
                                                               lowering_backends):
    _native_only(monkeypatch)
    monkeypatch.setattr(jit_levels, "_SAID", set())
    g = make_graph(chain, X)
    with caplog.at_level(logging.INFO, logger="sporeling.compiler"):
        first = compile_at(g, "O2")
        compile_at(g, "O2")
    said = [r for r in caplog.records if "O2" in r.getMessage()]
    assert len(said) == 1 and "CPU" in said[0].getMessage()
    assert lowering_backends == [None, None]  # the context's choice: O1's backend
    assert first.graph.primitive_counts() == compile_at(g, "O1").graph.primitive_counts()


def test_unknown_levels_are_refused_naming_the_valid_ones():
    with pytest.raises(SporelingError, match="O0 or O1 or O2"):
        compile_at(make_graph(chain, X), "O3")
    for key in ("jit_level", "graph_opt_level"):
        with pytest.raises(ContextError, match='"O0", "O1" or "O2"'):
            set_context(**{key: "fast"})
    assert get_context("jit_level") == "O2"


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["O0", "O1", "O2"]),
       st.lists(st.floats(-3, 3, width=32), min_size=1, max_size=4))
def test_every_level_computes_the_same(level, values):
    x = np.array(values, np.float32)
    g = make_graph(chain, x)
    expected = evaluate(g, x)[0]
    np.testing.assert_allclose(compile_at(g, level)(x)[0], expected, rtol=1e-5, atol=1e-6)

