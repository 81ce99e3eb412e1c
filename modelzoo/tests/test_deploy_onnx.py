"""The quantised digits LeNet exported to ONNX in QDQ form, run by onnxruntime."""
import numpy as np
import pytest

from sporeling.expression.deploy import quantize

from deploy_lenet import accuracy, digits, trained_lenet

onnx = pytest.importorskip("onnx")  # sporeling-compiler[onnx]
ort = pytest.importorskip("onnxruntime")


def test_quantised_lenet_runs_in_onnxruntime_with_the_same_accuracy(tmp_path):
    split = digits()
    net = trained_lenet()
    float_acc = accuracy(net, split.test_x, split.test_y)
    # 7-bit weights: onnxruntime's fused int8 kernels are exact on any x86 CPU then
    qnet = quantize(net, split.train_x, num_batches=8, reduce_range=True)
    q_acc = accuracy(qnet, split.test_x, split.test_y)
    assert q_acc >= float_acc - 0.01
    path = qnet.export_onnx(tmp_path / "lenet_int8.onnx", split.test_x[:16])
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    used = [n.op_type for n in model.graph.node]
    assert used.count("QuantizeLinear") == 5 and used.count("DequantizeLinear") == 10
    assert {"Conv", "MatMul"} <= set(used)
    int8 = [i for i in model.graph.initializer if i.data_type == onnx.TensorProto.INT8
            and len(i.dims) >= 2]
    assert len(int8) == 5  # every weight ships as int8
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    logits = sess.run(None, {"input": split.test_x})[0]   # 359 rows: the batch is dynamic
    assert logits.shape == (len(split.test_y), 10)
    onnx_acc = float((logits.argmax(1) == split.test_y).mean())
    assert onnx_acc == q_acc
    ours = qnet(split.test_x).asnumpy()
    # the same int8 values; onnxruntime's fused kernels requantise a conv's output straight
    # to int8, so a value on a rounding boundary can land one step away in a few rows
    same = np.isclose(logits, ours, rtol=1e-4, atol=1e-4).all(1)
    print(f"rows equal to Sporeling's: {same.mean():.3f}, largest difference "
          f"{np.abs(logits - ours).max():.4f} of logits up to {np.abs(ours).max():.1f}")
    assert same.mean() >= 0.9
    assert np.abs(logits - ours).max() < 0.01 * np.abs(ours).max()
