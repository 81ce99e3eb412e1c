"""sx.export / sx.load in the SIR format: hand-built nets round-trip, a fresh process that
never imported the model's source runs the file, Graph mode and grad work on a GraphCell."""
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import sporeling.expression as sx
from export_nets import NETS, make
from sporeling.compiler.export import ExportError, SIRError
from sporeling.core import ShapeError


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("name", sorted(NETS))
def test_round_trip_matches_original(tmp_path, name):
    net, inputs = make(name)
    rng = np.random.default_rng(1)
    x = inputs(rng, 3)
    path = sx.export(net, x, file_name=str(tmp_path / name))
    assert path == tmp_path / f"{name}.sir"
    cell = sx.load(path)
    assert isinstance(cell, sx.GraphCell) and isinstance(cell, sx.nn.Cell)
    x2 = inputs(rng, 3)  # other values than the traced ones
    got, want = _tuple(cell(x2)), _tuple(net(x2))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # weights are folded into constants: equal up to float32 rounding of the folds
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6, atol=1e-6)


def test_export_keeps_training_flag_and_uses_inference_mode(tmp_path):
    net, inputs = make("conv_bn")
    net.set_train(True)
    x = inputs(np.random.default_rng(2), 2)
    cell = sx.load(sx.export(net, x, file_name=str(tmp_path / "m.sir")))
    assert net.training  # restored
    net.set_train(False)
    np.testing.assert_allclose(cell(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, atol=1e-6)


_CHILD = """
import sys, numpy as np
import sporeling.expression as sx
cell = sx.load(sys.argv[1])
x = np.load(sys.argv[2])
np.save(sys.argv[3], cell(x).asnumpy())
print(sorted(m for m in sys.modules if "export_nets" in m))
"""


def test_fresh_process_without_the_source_runs_the_file(tmp_path):
    net, inputs = make("conv_bn")
    x = inputs(np.random.default_rng(3), 2)
    path = sx.export(net, x, file_name=str(tmp_path / "m"))
    np.save(tmp_path / "x.npy", x.asnumpy())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(tmp_path / "x.npy"),
                           str(tmp_path / "y.npy")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"  # the model's module was never imported
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), net(x).asnumpy(),
                               rtol=1e-6, atol=1e-6)


def test_graph_mode_and_jit_inline_the_loaded_graph(tmp_path):
    net, inputs = make("attention")
    x = inputs(np.random.default_rng(4), 2)
    cell = sx.load(sx.export(net, x, file_name=str(tmp_path / "m")))
    want = cell(x).asnumpy()
    f = sx.jit(lambda t: cell(t) * 2.0)
    np.testing.assert_allclose(f(x).asnumpy(), want * 2.0, rtol=1e-6, atol=1e-6)
    sx.set_context(mode=sx.GRAPH_MODE)
    try:
        np.testing.assert_allclose(cell(x).asnumpy(), want, rtol=1e-6, atol=1e-6)
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)


def test_grad_through_a_loaded_graph(tmp_path):
    net, inputs = make("dense")
    x = inputs(np.random.default_rng(5), 2)
    cell = sx.load(sx.export(net, x, file_name=str(tmp_path / "m")))
    g_loaded = sx.grad(lambda t: (cell(t) * cell(t)).sum())(x)
    g_net = sx.grad(lambda t: (net(t) * net(t)).sum())(x)
    np.testing.assert_allclose(g_loaded.asnumpy(), g_net.asnumpy(), rtol=1e-5, atol=1e-6)


def test_wrong_input_shape_and_dtype_are_clear(tmp_path):
    net, inputs = make("dense")
    cell = sx.load(sx.export(net, inputs(np.random.default_rng(0), 2),
                             file_name=str(tmp_path / "m")))
    with pytest.raises(ShapeError, match=r"input 'input0'.*expected \(2, 6\), got \(5, 6\)"):
        cell(np.zeros((5, 6), np.float32))
    with pytest.raises(TypeError, match="expected float32, got float64"):
        cell(np.zeros((2, 6)))
    with pytest.raises(ShapeError, match="wrong number of inputs"):
        cell()


def test_export_refuses_bad_arguments(tmp_path):
    net, inputs = make("dense")
    with pytest.raises(ExportError, match="unknown export format.*got 'MINDIR'"):
        sx.export(net, inputs(np.random.default_rng(0), 2), file_name=str(tmp_path / "m"),
                  file_format="MINDIR")
    with pytest.raises(ExportError, match="needs example inputs"):
        sx.export(net, file_name=str(tmp_path / "m"))
    with pytest.raises(ExportError, match="input 0 is not a Tensor"):
        sx.export(net, [1.0, 2.0], file_name=str(tmp_path / "m"))


def test_load_refuses_a_damaged_file(tmp_path):
    net, inputs = make("dense")
    path = sx.export(net, inputs(np.random.default_rng(0), 2), file_name=str(tmp_path / "m"))
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(SIRError, match="damaged or foreign"):
        sx.load(path)


def test_nested_outputs_keep_their_structure(tmp_path):
    class Two(sx.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = sx.nn.Dense(3, 2)

        def construct(self, x):
            y = self.fc(x)
            return {"logits": y, "parts": [y * 2.0, (y + 1.0,)]}

    net = Two()
    x = sx.Tensor(np.ones((2, 3), np.float32))
    out = sx.load(sx.export(net, x, file_name=str(tmp_path / "m")))(x)
    assert set(out) == {"logits", "parts"} and isinstance(out["parts"], list)
    assert isinstance(out["parts"][1], tuple)
    np.testing.assert_allclose(out["parts"][1][0].asnumpy(), net(x)["logits"].asnumpy() + 1)


def test_run_time_checks_survive_the_round_trip(tmp_path):
    class Checked(sx.nn.Cell):
        def construct(self, x):
            if x.sum() > 100.0:
                raise ValueError("too big")
            return x * 2.0

    x = sx.Tensor(np.ones((2, 3), np.float32))
    cell = sx.load(sx.export(Checked(), x, file_name=str(tmp_path / "m")))
    assert "check" in cell.graph.primitive_counts()
    np.testing.assert_array_equal(cell(x).asnumpy(), 2 * np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="too big"):
        cell(sx.Tensor(np.full((2, 3), 50.0, np.float32)))


def test_a_user_exception_class_is_refused_by_name(tmp_path):
    class MyError(Exception):
        pass

    class Checked(sx.nn.Cell):
        def construct(self, x):
            if x.sum() > 100.0:
                raise MyError("too big")
            return x * 2.0

    with pytest.raises(SIRError, match="check.*parameter 'errors'.*MyError"):
        sx.export(Checked(), sx.Tensor(np.ones((2, 3), np.float32)),
                  file_name=str(tmp_path / "m"))


def _with_meta(path, change):
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    doc = json.loads(members["graph.json"])
    change(doc["meta"])
    members["graph.json"] = json.dumps(doc).encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)


@pytest.mark.parametrize("change, field, words", [
    (lambda m: m.update(input_names=5), "input_names", "malformed input names.*got 5"),
    (lambda m: m.update(input_names=["x", "x"]), "input_names",
     "expected a list of 2 distinct strings"),
    (lambda m: m.update(input_names=["x"]), "input_names", "malformed input names"),
    (lambda m: m.update(model=["x"]), "model", "malformed model name"),
    (lambda m: m.update(out_structure={"set": [None]}), "out_structure",
     "malformed output structure"),
    (lambda m: m.update(out_structure={"tuple": [None, None]}), "out_structure",
     "does not fit the graph in meta.out_structure; expected 1 tensors, got 2"),
    (lambda m: m.update(out_structure={"tuple": []}), "out_structure", "does not fit"),
])
def test_load_checks_the_meta_section(tmp_path, change, field, words):
    x = sx.Tensor(np.ones((2, 3), np.float32))
    path = sx.export(lambda a, b: a * b, x, x, file_name=str(tmp_path / "m"))
    _with_meta(path, change)
    with pytest.raises(SIRError, match=words) as info:
        sx.load(path)
    assert info.value.field == f"meta.{field}" and str(path) in str(info.value)


def test_load_passes_the_size_limits_on(tmp_path):
    x = sx.Tensor(np.ones((2, 3), np.float32))
    path = sx.export(sx.nn.Dense(3, 2), x, file_name=str(tmp_path / "m"))
    with pytest.raises(SIRError, match=r"larger than the limit in graph.json.*max_graph_bytes"):
        sx.load(path, max_graph_bytes=100)
    with pytest.raises(SIRError, match=r"in constants.safetensors.*max_constants_bytes"):
        sx.load(path, max_constants_bytes=10)
    assert sx.load(path, max_graph_bytes=10**6)(x).shape == (2, 2)
