"""sx.export(..., file_format="ONNX"): hand-built nets pass onnx.checker (opset 17) and
onnxruntime matches Sporeling within 1e-5 at batch sizes other than the exported one."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest

import sporeling.expression as sx
from export_nets import NETS, make
from sporeling.compiler.export import ExportError, ONNXExportError


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("name", sorted(NETS))
def test_onnxruntime_matches_with_a_dynamic_batch(tmp_path, name):
    net, inputs = make(name)
    rng = np.random.default_rng(7)
    path = sx.export(net, inputs(rng, 2), file_name=str(tmp_path / name), file_format="onnx")
    assert path.suffix == ".onnx"
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    assert model.opset_import[0].version >= 17
    assert all(i.type.tensor_type.shape.dim[0].dim_param == "batch" for i in model.graph.input)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for batch in (1, 2, 5):
        x = inputs(rng, batch)
        got, want = sess.run(None, {"input0": x.asnumpy()}), _tuple(net(x))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w.asnumpy(), rtol=1e-5, atol=1e-5)


def test_static_batch(tmp_path):
    net, inputs = make("conv_bn")
    x = inputs(np.random.default_rng(8), 3)
    path = sx.export(net, x, file_name=str(tmp_path / "m.onnx"), file_format="ONNX",
                     dynamic_batch=False)
    model = onnx.load(str(path))
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_value == 3
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        None, {"input0": x.asnumpy()})[0]
    np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-5)


def test_unmapped_primitive_is_named(tmp_path):
    class Sorts(sx.nn.Cell):
        def construct(self, x):
            return sx.ops.argsort(x, axis=-1)

    with pytest.raises(ONNXExportError, match="primitive 'argsort' has no ONNX mapping"):
        sx.export(Sorts(), sx.Tensor(np.ones((2, 3), np.float32)),
                  file_name=str(tmp_path / "m"), file_format="ONNX")
    assert not list(tmp_path.iterdir())


def test_inputs_of_different_batch_sizes_need_a_static_batch(tmp_path):
    class Two(sx.nn.Cell):
        def construct(self, a, b):
            return a.sum() + b.sum()

    a, b = np.ones((2, 3), np.float32), np.ones((4, 3), np.float32)
    with pytest.raises(ExportError, match="one batch size for all inputs"):
        sx.export(Two(), a, b, file_name=str(tmp_path / "m"), file_format="ONNX")
    path = sx.export(Two(), a, b, file_name=str(tmp_path / "m"), file_format="ONNX",
                     dynamic_batch=False)
    out = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        None, {"input0": a, "input1": b})[0]
    assert out == pytest.approx(18.0)
