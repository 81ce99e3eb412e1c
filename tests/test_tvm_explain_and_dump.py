"""``jit(f).explain()`` on the TVM backend says what runs generated and what does not (and
why); ``SPORELING_DUMP=dir`` writes the IR and the generated TensorIR and LLVM."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_context

kernels = pytest.importorskip("sporeling.tvm_backend.kernels")
pytestmark = pytest.mark.usefixtures("fresh_home_and_context")


def _f(x):
    y = sx.ops.tanh(x * 1.5 + 0.5)
    z = sx.ops.erf(y * x)  # TVM has no expression for erf: NumPy's chain runs it
    return y, z


def test_explain_says_what_was_generated_and_what_fell_back():
    set_context(mode=sx.GRAPH_MODE, backend="tvm")
    f = sx.jit(_f)
    x = sx.Tensor(np.linspace(-1, 1, 12).astype(np.float32))
    try:
        f(x)
        report = f.explain()
    finally:
        kernels.forget()  # what it said once, other tests expect to hear
    assert "lowered on tvm (native)" in report
    assert "tvm: generated" in report                          # tanh's chain
    assert "not generated: no expression for 'erf'" in report  # erf's, with the reason
    fell_back = [row for row in report.splitlines() if "fused_elementwise" in row
                 and "erf" in row]
    assert fell_back and all(" numpy " in row for row in fell_back)


def test_sporeling_dump_writes_the_ir_and_the_generated_code(tmp_path, monkeypatch):
    monkeypatch.setenv("SPORELING_DUMP", str(tmp_path))
    kernels.forget()
    set_context(mode=sx.GRAPH_MODE, backend="tvm")
    f = sx.jit(lambda x: sx.ops.tanh(x * 2.0) + 1.0)
    try:
        f(sx.Tensor(np.ones(6, np.float32)))
    finally:
        kernels.forget()  # the next tests compile (or load) without dumping
    assert any(p.suffix == ".ir" for p in tmp_path.rglob("*"))       # the passes' IR
    tir, = (tmp_path / "tvm").glob("*.tir")
    llvm, = (tmp_path / "tvm").glob("*.ll")
    assert "# chain0" in tir.read_text() and "T.prim_func" in tir.read_text()
    assert "define" in llvm.read_text() and "@chain0" in llvm.read_text()
