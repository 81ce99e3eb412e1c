"""The quantised graph in QDQ form and through ONNX (onnx.checker, onnxruntime)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.export.onnx import to_onnx
from sporeling.compiler.ir import evaluate, make_graph, verify
from sporeling.compiler.quant import post_training_quantize, quantize_graph, to_qdq

onnx = pytest.importorskip("onnx")  # the compiler's [onnx] extra
ort = pytest.importorskip("onnxruntime")

rng = np.random.default_rng(0)
W1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
W2 = (rng.standard_normal((10, 8 * 4)) * 0.1).astype(np.float32)


def net(x):
    y = ops.relu(ops.nn.conv2d(x, W1, stride=2, padding=1))
    return ops.matmul(ops.reshape(y, (x.shape[0], -1)), ops.transpose(W2, (1, 0)))


def graph(n):
    return make_graph(net, np.zeros((n, 3, 4, 4), np.float32))


CALIB = [(rng.standard_normal((4, 3, 4, 4)).astype(np.float32),) for _ in range(4)]
TABLES = {r: post_training_quantize(graph(4), CALIB, reduce_range=r)[1] for r in (False, True)}


def quantised(n, reduce_range=False):
    """The network at batch size ``n``, quantised with one table (calibrated once)."""
    return quantize_graph(graph(n), TABLES[reduce_range])


def session(model, optimise: bool):
    options = ort.SessionOptions()
    if not optimise:  # run each QDQ node as written: the format's reference semantics
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def test_qdq_form_has_only_quantize_dequantize_and_float_ops_with_the_same_values():
    q = quantised(6)
    qdq = to_qdq(q)
    verify(qdq)
    counts = qdq.primitive_counts()
    assert "qconv2d" not in counts and "qmatmul" not in counts
    assert counts["quantize"] == 2 and counts["dequantize"] == 4
    assert counts["conv2d"] == 1 and counts["matmul"] == 1
    weights = [eq.inputs[0].value for eq in qdq.equations
               if eq.prim.name == "dequantize" and not hasattr(eq.inputs[0], "id")]
    assert [w.dtype for w in weights] == [np.int8, np.int8]  # weights stay int8
    x = rng.standard_normal((6, 3, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(evaluate(qdq, x)[0], evaluate(q, x)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("reduce_range, optimise", [(False, False), (True, False),
                                                     (True, True)])
def test_onnxruntime_runs_the_qdq_model_with_a_dynamic_batch_axis(reduce_range, optimise):
    q4, q5 = (to_qdq(quantised(n, reduce_range)) for n in (4, 5))
    model = to_onnx(q4, batch_graph=q5, batch=4, input_names=["x"])
    onnx.checker.check_model(model, full_check=True)
    ops_used = [n.op_type for n in model.graph.node]
    assert ops_used.count("QuantizeLinear") == 2 and ops_used.count("DequantizeLinear") == 4
    int8 = [i for i in model.graph.initializer if i.data_type == onnx.TensorProto.INT8
            and len(i.dims) >= 2]
    assert len(int8) == 2   # the two weights
    sess = session(model, optimise)
    for n in (1, 4, 9):
        x = rng.standard_normal((n, 3, 4, 4)).astype(np.float32)
        got = sess.run(None, {"x": x})[0]
        want = evaluate(quantised(n, reduce_range), x)[0]
        assert got.shape == want.shape == (n, 10)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

