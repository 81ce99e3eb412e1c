"""The pass manager: registration through sporeling_add_passes, stages, levels, dumps."""
import types

import numpy as np
import pytest

from sporeling.compiler import ops, plugin as compiler_plugin
from sporeling.compiler.ir import IRError, Var, evaluate, make_graph
from sporeling.compiler.passes import (BUILTIN_PASSES, Pass, PassContext, PassRegistry,
                                       freeze_inputs, optimize, registered_passes)
from sporeling.compiler.pipeline import compile_graph
from sporeling.core import PluginError, PluginHost, PluginWarning, context, impl, get_context

X = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


def chain(x):
    return ops.exp(ops.mul(ops.add(x, 0.0), 2.0))


def test_builtin_passes_come_through_the_hook():
    registry = registered_passes()
    assert {p.name for p in BUILTIN_PASSES} <= set(registry)
    assert registry.source_of("cse") == "compiler"


def _host_with(*modules):
    host = PluginHost(load=False)
    host.add_plugins([("compiler", "sporeling-compiler", "0", compiler_plugin)] +
                     [(m.__name__, m.__name__, "0", m) for m in modules])
    return host


def _plugin(name, *passes_to_add):
    module = types.ModuleType(name)

    @impl
    def sporeling_add_passes(passes):
        for p in passes_to_add:
            passes.add_pass(p)
    module.sporeling_add_passes = sporeling_add_passes
    return module


def test_a_plugin_registers_a_pass_that_the_manager_runs():
    seen = []

    def spy(graph, ctx):
        seen.append(len(graph.equations))
        return graph
    host = _host_with(_plugin("spyplugin", Pass("spy", spy, stage="cleanup")))
    registry = registered_passes(host)
    assert registry.source_of("spy") == "spyplugin" and "fuse_elementwise" in registry
    optimize(make_graph(chain, X), "O1", passes=registry)
    assert seen == [1]  # cleanup runs after fusion: one fused equation left
    assert optimize(make_graph(chain, X), "O0", passes=registry) and seen == [1]  # O1 pass


def test_a_pass_name_registered_twice_drops_the_later_plugin_naming_both():
    host = _host_with(_plugin("dupe", Pass("cse", lambda g, c: g)))
    with pytest.warns(PluginWarning, match="pass 'cse'.*'compiler'.*'dupe'"):
        registry = registered_passes(host)
    assert registry.source_of("cse") == "compiler" and [f.name for f in host.failed] == ["dupe"]


def test_pass_values_are_checked():
    with pytest.raises(PluginError, match="stage"):
        Pass("bad", lambda g, c: g, stage="later")
    with pytest.raises(PluginError, match="level"):
        Pass("bad", lambda g, c: g, min_level="O3")
    with pytest.raises(PluginError, match="not a Pass"):
        PassRegistry().add_pass(lambda g, c: g)


def test_levels_o0_keeps_the_graph_o1_optimises():
    g = make_graph(chain, X)
    assert optimize(g, "O0").primitive_counts() == {"add": 1, "mul": 1, "exp": 1}
    assert optimize(g, "O1").primitive_counts() == {"fused_elementwise": 1}
    assert optimize(g, "O2").primitive_counts() == {"fused_elementwise": 1}  # O1's passes
    for key in ("jit_level", "graph_opt_level"):  # one knob, under its old name too
        with context(**{key: "O0"}):
            assert optimize(g).primitive_counts() == g.primitive_counts()
    with pytest.raises(Exception, match="level"):
        optimize(g, "O3")


def test_stages_run_in_order_and_simplify_repeats_to_a_fixpoint():
    order = []

    def recorder(name):
        def run(graph, ctx):
            order.append(name)
            return graph
        return run
    registry = PassRegistry()
    for name, stage, n in [("c", "cleanup", 0), ("a", "canonicalize", 5), ("f", "fusion", 0),
                           ("s2", "simplify", 2), ("s1", "simplify", 1)]:
        registry.add_pass(Pass(name, recorder(name), stage=stage, min_level="O0", order=n))
    optimize(make_graph(chain, X), "O1", passes=registry)
    assert order == ["a", "s1", "s2", "f", "c"]


def test_simplify_repeats_until_nothing_changes():
    calls = []

    def changes_once(graph, ctx):
        calls.append(1)
        if len(calls) == 1:
            return type(graph)(graph.inputs, list(graph.equations), graph.outputs, graph.name)
        return graph
    registry = PassRegistry()
    registry.add_pass(Pass("once", changes_once))
    optimize(make_graph(chain, X), "O1", passes=registry)
    assert len(calls) == 2


def test_folding_a_frozen_input_exposes_an_identity():
    g = make_graph(lambda x, c: ops.mul(x, ops.sqrt(c)), X, np.ones(3, np.float32))
    frozen = freeze_inputs(g, {1: np.ones(3, np.float32)})
    out = optimize(frozen, "O1")
    assert out.equations == [] and out.outputs == out.inputs


def test_only_restricts_and_ctx_collects_statistics():
    ctx = PassContext()
    g = make_graph(lambda x: ops.add(ops.exp(x), ops.exp(x)), X)
    out = optimize(g, "O1", only={"infer_types", "cse", "dce"}, ctx=ctx)
    assert out.primitive_counts() == {"exp": 1, "add": 1}
    assert ctx.stats["cse.merged"] == 1  # the duplicate is dropped where it stood: no dce


def test_a_pass_that_breaks_the_graph_is_named():
    def breaker(graph, ctx):
        eq = graph.equations[0]
        return type(graph)(graph.inputs, graph.equations,
                           [Var(eq.outputs[0].aval)], graph.name)
    registry = PassRegistry()
    registry.add_pass(Pass("breaker", breaker))
    with pytest.raises(IRError, match="breaker"):
        optimize(make_graph(chain, X), "O1", passes=registry, verify_each=True)


def _dumped(root):
    (folder,) = [p for p in root.iterdir() if p.is_dir()]
    return folder, sorted(p.name for p in folder.iterdir())


def test_dump_ir_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SPORELING_DUMP_IR", str(tmp_path))
    optimize(make_graph(chain, X, name="chain"), "O1")
    folder, names = _dumped(tmp_path)
    assert folder.name.endswith("_chain")
    assert "00_infer_types_before.ir" in names and "00_infer_types_after.ir" in names
    fusion = [n for n in names if "fuse_elementwise" in n]
    assert len(fusion) == 2
    before = (folder / fusion[1]).read_text()  # sorted: "after" < "before"
    after = (folder / fusion[0]).read_text()
    assert "exp(" in before and "fused_elementwise(" in after and "graph chain(" in after


def test_save_graphs_context_key(tmp_path, monkeypatch):
    monkeypatch.delenv("SPORELING_DUMP_IR", raising=False)
    assert get_context("save_graphs") is False
    with context(save_graphs=str(tmp_path)):
        compile_graph(make_graph(chain, X, name="viacompile"))
    folder, names = _dumped(tmp_path)
    assert folder.name.endswith("_viacompile") and any(n.endswith("_after.ir") for n in names)
    with pytest.raises(Exception, match="save_graphs"):
        with context(save_graphs=3):
            pass


def test_compile_graph_optimises_and_keeps_the_source_graph():
    g = make_graph(chain, X)
    exe = compile_graph(g)
    assert exe.source_graph is g and exe.graph.primitive_counts() == {"fused_elementwise": 1}
    np.testing.assert_allclose(exe(X)[0], evaluate(g, X)[0], rtol=1e-6)
    assert compile_graph(g, level="O0").graph.primitive_counts() == g.primitive_counts()
