"""Issue 22: ``ms.jit`` takes MindSpore 2.10's keywords, validated as 2.10 validates them."""
import inspect

import numpy as np
import pytest

import sporeling.ms as ms


def test_jit_signature_is_2_10s():
    # 2.10: (function=None, *, capture_mode='ast', jit_level='O0', dynamic=0,
    #        fullgraph=False, backend='', **options)
    params = inspect.signature(ms.jit).parameters
    assert [(p.name, p.default, p.kind.name) for p in params.values()] == [
        ("function", None, "POSITIONAL_OR_KEYWORD"), ("capture_mode", "ast", "KEYWORD_ONLY"),
        ("jit_level", "O0", "KEYWORD_ONLY"), ("dynamic", 0, "KEYWORD_ONLY"),
        ("fullgraph", False, "KEYWORD_ONLY"), ("backend", "", "KEYWORD_ONLY"),
        ("options", inspect.Parameter.empty, "VAR_KEYWORD")]


@pytest.mark.parametrize("kw", [{}, {"capture_mode": "bytecode"}, {"capture_mode": "trace"},
                                {"jit_level": "O1"}, {"backend": "ms_backend"},
                                {"backend": "GE"}, {"dynamic": 1}, {"fullgraph": True},
                                {"exec_order": "bfs"}, {"jit_config": None}])
def test_jit_keywords_accepted(kw):
    f = ms.jit(lambda x: x * 2, **kw)
    np.testing.assert_allclose(f(ms.Tensor([1.0, 2.0])).asnumpy(), [2.0, 4.0])

    @ms.jit(**kw)
    def g(x):
        return x + 1

    np.testing.assert_allclose(g(ms.Tensor([1.0])).asnumpy(), [2.0])


@pytest.mark.parametrize("kw,exc", [({"capture_mode": "x"}, ValueError),   # 2.10: ValueError
                                    ({"jit_level": "O3"}, ValueError),     # 2.10: ValueError
                                    ({"dynamic": 2}, ValueError),          # 2.10: ValueError
                                    ({"fullgraph": 1}, TypeError),         # 2.10: TypeError
                                    ({"backend": "foo"}, ValueError)])
def test_jit_keywords_validated(kw, exc):
    with pytest.raises(exc):
        ms.jit(lambda x: x, **kw)


def test_jit_on_cell_method():
    net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    out = ms.jit(net, jit_level="O1")(ms.Tensor([[1.0, 2.0]]))
    np.testing.assert_allclose(out.asnumpy(), [[3.0]])
