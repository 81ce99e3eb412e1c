"""``explain``: the report of a compiled program -- what fused, who runs each call, shapes
and source lines."""
import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.explain import explain
from sporeling.compiler.ir import make_graph
from sporeling.compiler.pipeline import compile_graph
from sporeling.runtime import get_backend


def _program(x):
    return ops.sum(ops.tanh(ops.add(ops.mul(x, 2.0), 1.0)), axis=1)


def test_the_report_names_the_fused_chains_and_who_runs_each_call():
    x = np.ones((4, 3), np.float32)
    exe = compile_graph(make_graph(_program, x), level="O1", backend=get_backend("numpy"))
    report = explain(exe, level="O1")
    head, calls = report.split("\n\n")
    assert head.splitlines()[0].startswith("program _program: jit_level O1, lowered on numpy")
    assert "fused: 1 elementwise chain of 3 equations" in head
    assert "numpy: 2 (fused_elementwise, sum)" in head
    rows = calls.splitlines()[1:]
    assert len(rows) == 2
    assert "f32[4,3] -> f32[4,3]  (mul, add, tanh)" in rows[0]
    assert "sum" in rows[1] and "f32[4,3] -> f32[4]" in rows[1]
    assert all("test_explain.py:" in row for row in rows)  # the user's line


def test_nothing_fused_at_o0_and_the_backend_says_who_runs_a_call():
    x = np.ones(3, np.float32)
    exe = compile_graph(make_graph(_program, x.reshape(1, 3)), level="O0",
                        backend=get_backend("numpy"))
    assert "fused: nothing" in explain(exe, level="O0")
    report = get_backend("numpy").explain_call("add", {}, [((3,), np.float32)] * 2)
    assert report.provider == "numpy" and not report.generated and str(report) == "numpy"


def test_a_primitives_describe_rule_details_its_calls(monkeypatch):
    """A wrapper primitive says what it wraps (``def_describe``); the report shows it."""
    from sporeling.compiler import primitives
    x = np.ones((4, 3), np.float32)
    exe = compile_graph(make_graph(_program, x), level="O0", backend=get_backend("numpy"))
    monkeypatch.setattr(primitives()["sum"], "describe", lambda **params: f"axis {params['axis']}")
    row = [r for r in explain(exe, level="O0").splitlines() if " sum " in r][0]
    assert "f32[4,3] -> f32[4]  (axis (1,))" in row


def test_the_bodies_of_control_flow_are_reported_under_their_program():
    from sporeling.compiler.ops.control import fori_loop
    x = np.ones((4, 3), np.float32)
    graph = make_graph(lambda v: fori_loop(0, 3, lambda i, v: ops.tanh(ops.mul(v, 2.0)), v), x)
    report = explain(compile_graph(graph, level="O1", backend=get_backend("numpy")),
                     level="O1")
    main, _, sub = report.partition("\n\n    sub-program ")
    assert "fused: nothing" in main and "scan" in main  # fori_loop: a scan
    assert sub, report  # the loop's body, compiled once, has its own report
    assert "fused: 1 elementwise chain of 2 equations" in sub
    assert "(mul, tanh)" in sub
    assert all(line.startswith("    ") for line in sub.splitlines()[1:] if line)
