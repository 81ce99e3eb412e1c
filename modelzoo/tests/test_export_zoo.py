"""Every zoo model exports: to ONNX (onnx.checker, onnxruntime within 1e-5 at batch sizes
other than the exported one) and to SIR (sx.load equal to the model); and the
``sporeling export NAME --format sir|onnx`` command."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest

import sporeling.expression as sx
from sporeling.core.cli import main
from sporeling.zoo import create_model, list_models
from sporeling.zoo.export_cli import export_target
from sporeling.zoo.registry import get_model_entry

MODELS = [n for n in list_models() if "alias of" not in get_model_entry(n).description]


def _outputs(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _model(name):
    sx.set_seed(0)
    net = create_model(name)
    net.set_train(False)
    return net


def _deterministic(path) -> list[bool]:
    """Per ONNX output: False when a random op (the VAE's sampling) reaches it."""
    model = onnx.load(str(path))
    random = set()
    for node in model.graph.node:
        if node.op_type.startswith("Random") or any(i in random for i in node.input):
            random.update(node.output)
    return [o.name not in random for o in model.graph.output]


@pytest.mark.parametrize("name", MODELS)
def test_onnx_export_matches_onnxruntime(tmp_path, name):
    net = _model(name)
    cell, inputs = export_target(name, net, 2)
    path = sx.export(cell, *inputs, file_name=str(tmp_path / name), file_format="ONNX")
    onnx.checker.check_model(onnx.load(str(path)), full_check=True)
    keep = _deterministic(path)
    assert any(keep)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for batch in (1, 3):
        _, xs = export_target(name, net, batch, seed=batch)
        got = sess.run(None, {f"input{i}": x.asnumpy() for i, x in enumerate(xs)})
        want = _outputs(cell(*xs))
        assert len(got) == len(want)
        for g, w, k in zip(got, want, keep):
            assert g.shape == w.shape
            if k:
                np.testing.assert_allclose(g, w.asnumpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_sir_export_loads_equal(tmp_path, name):
    net = _model(name)
    cell, inputs = export_target(name, net, 2)
    loaded = sx.load(sx.export(cell, *inputs, file_name=str(tmp_path / name)))
    _, xs = export_target(name, net, 2, seed=5)
    sx.set_seed(1)
    want = _outputs(cell(*xs))
    sx.set_seed(1)
    got = _outputs(loaded(*xs))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fmt", ["sir", "onnx"])
def test_export_command(tmp_path, capsys, fmt):
    out = tmp_path / "lenet"
    assert main(["export", "lenet5", "--format", fmt, "--out", str(out), "--batch", "2",
                 "--random"]) == 0
    printed = capsys.readouterr().out
    assert f"lenet.{fmt}" in printed and "random weights" in printed
    diff = float(printed.rsplit("= ", 1)[1])
    assert diff <= 1e-5
    assert (tmp_path / f"lenet.{fmt}").stat().st_size > 10_000


def test_export_command_unknown_model(capsys):
    assert main(["export", "lenet_six", "--format", "onnx"]) == 1
    assert "no model named 'lenet_six'" in capsys.readouterr().err
