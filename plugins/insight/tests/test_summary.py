"""SummaryRecord: scalars, histograms, images and the IR graph in TensorBoard event files,
read back with TensorBoard's own EventAccumulator."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph

from sporeling.insight import SummaryError, SummaryRecord

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402


def _read(log_dir):
    acc = EventAccumulator(str(log_dir), size_guidance={"scalars": 0, "histograms": 0,
                                                         "images": 0})
    acc.Reload()
    return acc


def test_scalars_histograms_and_images_read_back(tmp_path):
    rng = np.random.default_rng(0)
    weights = rng.standard_normal(1000)
    with SummaryRecord(tmp_path) as rec:
        for step in range(3):
            rec.add_value("scalar", "loss", sx.Tensor(np.float32(2.0 / (step + 1))))
            rec.add_value("histogram", "w", sx.Tensor(weights.astype(np.float32) + step))
            rec.add_value("image", "input", rng.random((2, 1, 8, 6)).astype(np.float32))
            assert rec.record(step)
    acc = _read(tmp_path)
    assert [(s.step, round(s.value, 5)) for s in acc.Scalars("loss")] == [
        (0, 2.0), (1, 1.0), (2, 0.66667)]
    histos = acc.Histograms("w")
    assert [h.step for h in histos] == [0, 1, 2]
    assert histos[2].histogram_value.num == 1000
    assert histos[2].histogram_value.sum == pytest.approx(weights.sum() + 2000, rel=1e-4)
    images = acc.Images("input")
    assert len(images) == 3 and images[0].height == 8  # N images side by side in one grid
    assert images[0].encoded_image_string[:4] == b"\x89PNG"


def test_values_wait_for_record(tmp_path):
    with SummaryRecord(tmp_path) as rec:
        rec.add_value("scalar", "a", 1.0)
        rec.add_value("scalar", "b", 2.0)
        rec.record(5, plugin_filter=lambda plugin: plugin != "scalar")
        rec.add_value("scalar", "a", 3.0)
        rec.record(6)
    acc = _read(tmp_path)
    assert [(s.step, s.value) for s in acc.Scalars("a")] == [(6, 3.0)]
    assert "b" not in acc.Tags()["scalars"]


def test_the_ir_graph_reads_back_as_a_graph_def(tmp_path):
    g = make_graph(lambda x, w: ops.sum(ops.relu(ops.matmul(x, w))),
                   np.ones((4, 3), np.float32), np.ones((3, 2), np.float32))
    with SummaryRecord(tmp_path) as rec:
        rec.add_value("graph", "net", g)
        rec.record(0)
    graph = _read(tmp_path).Graph()
    nodes = {n.name: n for n in graph.node}
    assert [n.op for n in graph.node] == ["Placeholder", "Placeholder", "matmul", "relu", "sum",
                                          "Identity"]
    assert list(nodes["matmul_0"].input) == ["input/0", "input/1"]
    assert list(nodes["relu_1"].input) == ["matmul_0"]
    shape = nodes["matmul_0"].attr["_output_shapes"].list.shape[0]
    assert [d.size for d in shape.dim] == [4, 2]
    assert nodes["matmul_0"].attr["dtype"].s == b"float32"
    assert b"test_summary.py" in nodes["matmul_0"].attr["source"].s  # the user's line


def test_sub_graphs_are_drawn_inside_their_equation(tmp_path):
    def f(x):
        return ops.cond(ops.greater(ops.sum(x), 0.0), ops.exp, ops.neg, x)
    g = make_graph(f, np.ones(3, np.float32))
    with SummaryRecord(tmp_path) as rec:
        rec.add_value("graph", "f", g)
        rec.record(0)
    names = [n.name for n in _read(tmp_path).Graph().node]
    cond = next(n for n in names if n.startswith("cond_") and "/" not in n)
    inner = [n for n in names if n.startswith(cond + "/")]
    assert any(n.endswith("exp_0") for n in inner) and any(n.endswith("neg_0") for n in inner)


def test_network_writes_the_compiled_graph_at_the_first_record_after_compiling(tmp_path,
                                                                              mlp_step):
    step, cell = mlp_step
    with SummaryRecord(tmp_path, network=cell) as rec:
        rec.record(0)  # not compiled yet: no graph
        step(sx.GRAPH_MODE)
        rec.record(1)
    ops_in_graph = {n.op for n in _read(tmp_path).Graph().node}
    assert {"matmul", "assign"} <= ops_in_graph  # the whole step: forward, grads, update


@pytest.mark.parametrize("plugin, name, value, match", [
    ("text", "t", 1.0, "unknown summary plugin 'text'.*'scalar' or 'histogram'"),
    ("scalar", "", 1.0, "needs a name"),
    ("scalar", "loss", np.ones(3), "more than one value.*shape \\(3,\\)"),
    ("image", "img", np.ones((2, 5, 4, 4)), "NCHW, CHW or HW.*shape \\(2, 5, 4, 4\\)"),
    ("graph", "g", object(), "no compiled graph.*object"),
])
def test_bad_values_say_what_was_expected(tmp_path, plugin, name, value, match):
    with SummaryRecord(tmp_path) as rec, pytest.raises(SummaryError, match=match):
        rec.add_value(plugin, name, value)


def test_a_closed_record_refuses_values_and_bad_steps_are_refused(tmp_path):
    rec = SummaryRecord(tmp_path)
    with pytest.raises(SummaryError, match="step.*int >= 0.*-1"):
        rec.record(-1)
    rec.close()
    rec.close()
    with pytest.raises(SummaryError, match="closed"):
        rec.add_value("scalar", "x", 1.0)
