"""Observers, per-channel weights, calibration and the post-training quantisation pass."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import IRError, evaluate, make_graph, verify
from sporeling.compiler.passes import PassContext
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.quant import (Calibrator, MinMaxObserver, MSEObserver,
                                      PercentileObserver, build_table, post_training_quantize,
                                      qparams_from_range,
                                      ptq_pass, quantizable_sites, quantize_graph,
                                      quantize_weight_per_channel)
from sporeling.core import SporelingError

rng = np.random.default_rng(0)
W1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
B1 = rng.standard_normal(8).astype(np.float32)
W2 = (rng.standard_normal((10, 8 * 16)) * 0.1).astype(np.float32)


def net(x):
    y = ops.relu(ops.add(ops.nn.conv2d(x, W1, padding=1), ops.reshape(B1, (8, 1, 1))))
    y = ops.reshape(y, (x.shape[0], -1))
    return ops.matmul(y, ops.transpose(W2, (1, 0)))   # a Dense layer's weight layout


def batch(n=16):
    return rng.standard_normal((n, 3, 4, 4)).astype(np.float32)


def test_minmax_observer_covers_the_range_and_keeps_zero_exact():
    obs = MinMaxObserver()
    for lo, hi in [(0.5, 2.0), (0.2, 3.0)]:
        obs.observe(np.float32([lo, hi]))
    scale, zp = obs.qparams()
    assert zp == -128 and scale == pytest.approx(3.0 / 255)  # [0, 3]: 0 joins the range
    x = np.float32([-2.0, 0.0, 1.0])
    obs = MinMaxObserver()
    obs.observe(x)
    scale, zp = obs.qparams()
    assert np.rint(0.0 / scale) + zp == zp  # zero is a code
    assert -2.0 / scale + zp == pytest.approx(-128, abs=0.5)


def test_percentile_observer_clips_a_rare_outlier():
    x = np.concatenate([rng.standard_normal(20000), [1000.0]]).astype(np.float32)
    wide, obs = MinMaxObserver(), PercentileObserver(99.9)
    wide.observe(x)
    obs.observe(x)
    assert obs.qparams()[0] < wide.qparams()[0] / 50


def test_mse_observer_picks_the_clipping_range_of_least_error():
    x = rng.standard_t(2, 50000).astype(np.float32)  # a long tail
    wide, obs = MinMaxObserver(), MSEObserver()
    wide.observe(x)
    obs.observe(x)

    def mse(scale, zp):
        return np.mean(((np.clip(np.rint(x / scale) + zp, -128, 127) - zp) * scale - x) ** 2)
    best = mse(*obs.qparams())
    assert obs.qparams()[0] < 0.95 * wide.qparams()[0] and best < mse(*wide.qparams())
    lo, hi = wide.range()
    for frac in (0.5, 0.2, 0.1):  # clipping harder costs more here
        assert best <= mse(*qparams_from_range(lo * frac, hi * frac))


def test_an_observer_that_saw_nothing_says_so():
    with pytest.raises(SporelingError, match="seen no finite values.*expected at least one"):
        MinMaxObserver().qparams()
    with pytest.raises(SporelingError, match="percentile is in"):
        PercentileObserver(20)


def test_weights_are_symmetric_int8_per_output_channel():
    q, scale = quantize_weight_per_channel(W1, axis=0)
    assert q.dtype == np.int8 and scale.shape == (8,) and np.abs(q).max() == 127
    assert (np.abs(q).reshape(8, -1).max(1) == 127).all()  # each channel uses its range
    err = np.abs(q * scale[:, None, None, None] - W1).max(axis=(1, 2, 3))
    assert (err <= scale / 2 + 1e-7).all()


def test_the_pass_finds_conv_and_dense_weights():
    g = make_graph(net, batch())
    assert [s.key for s in quantizable_sites(g)] == ["0.conv2d", "1.matmul"]
    assert quantizable_sites(g)[1].weight.shape == (128, 10)


def test_quantised_graph_is_int8_compute_close_to_float_and_compiles():
    g = make_graph(net, batch())
    q, table = post_training_quantize(g, [(batch(),) for _ in range(8)], num_batches=4)
    verify(q)
    counts = q.primitive_counts()
    assert counts["qconv2d"] == 1 and counts["qmatmul"] == 1 and counts["quantize"] == 2
    assert "conv2d" not in counts and "matmul" not in counts and "transpose" not in counts
    x = batch()
    ref, got = evaluate(g, x)[0], evaluate(q, x)[0]
    assert np.abs(got - ref).max() < 0.03 * np.abs(ref).max()
    assert (got.argmax(1) == ref.argmax(1)).mean() >= 0.9
    np.testing.assert_allclose(compile_graph(q)(x)[0], got, rtol=1e-5, atol=1e-5)
    assert table["0.conv2d"].weight.dtype == np.int8


def test_a_table_made_at_one_batch_size_quantises_the_graph_at_another():
    cal = Calibrator("percentile")
    for n in (16, 5):  # calibration batches of two sizes: two traces, one set of observers
        cal.observe(make_graph(net, batch(n)), batch(n))
    assert set(cal.qparams()) == {"0.conv2d", "1.matmul"}
    table = build_table(make_graph(net, batch(16)), cal.qparams())
    g1 = make_graph(net, batch(1))
    ctx = PassContext()
    q1 = ptq_pass(table).run(g1, ctx)
    assert ctx.stats["ptq.quantized"] == 2
    x = batch(1)
    assert np.abs(evaluate(q1, x)[0] - evaluate(g1, x)[0]).max() < 0.1


def test_sites_left_out_of_the_table_stay_float():
    g = make_graph(net, batch())
    cal = Calibrator()
    cal.observe(g, batch())
    table = build_table(g, {"1.matmul": cal.qparams()["1.matmul"]})
    counts = quantize_graph(g, table).primitive_counts()
    assert counts["conv2d"] == 1 and counts["qmatmul"] == 1


def test_a_table_that_does_not_fit_the_graph_is_refused_with_both_sides():
    g = make_graph(net, batch())
    cal = Calibrator()
    cal.observe(g, batch())
    table = build_table(g, cal.qparams())
    other = make_graph(lambda x: ops.matmul(ops.reshape(x, (x.shape[0], -1)),
                                            np.ones((48, 10), np.float32)), batch())
    with pytest.raises(IRError, match=r"names operations the graph does not have.*"
                                      r"expected \['0.matmul'\].*got \['0.conv2d', '1.matmul'\]"):
        quantize_graph(other, table)
    wrong = {"0.matmul": table["1.matmul"]}
    with pytest.raises(IRError, match=r"does not fit.*expected matmul weight \(48, 10\).*"
                                      r"got matmul weight \(128, 10\)"):
        quantize_graph(other, wrong)


def test_no_quantisable_operation_is_an_error_not_a_silent_float_graph():
    g = make_graph(lambda x: ops.relu(x), batch())
    with pytest.raises(IRError, match="no calibration batch reached a quantisable operation"):
        post_training_quantize(g, [(batch(),)])
