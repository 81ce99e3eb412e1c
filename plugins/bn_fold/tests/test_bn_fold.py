"""The bn_fold pass plugin: picked up through the entry point, numerically faithful."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.passes import PassContext, freeze_inputs, optimize, registered_passes
from sporeling.core import get_plugin_host
from sporeling.core.testing import run_doctests

from sporeling.bn_fold import fold_batch_norm

rng = np.random.default_rng(0)
C_IN, C_OUT = 3, 4


def bn_params():
    return dict(running_mean=rng.standard_normal(C_OUT).astype(np.float32),
                running_var=rng.uniform(0.5, 2.0, C_OUT).astype(np.float32),
                weight=rng.standard_normal(C_OUT).astype(np.float32),
                bias=rng.standard_normal(C_OUT).astype(np.float32))


W = rng.standard_normal((C_OUT, C_IN, 3, 3)).astype(np.float32)
B = rng.standard_normal(C_OUT).astype(np.float32)
X = rng.standard_normal((2, C_IN, 8, 8)).astype(np.float32)


def test_the_plugin_is_loaded_and_the_manager_lists_its_pass():
    assert "bn_fold" in [p.name for p in get_plugin_host().loaded]
    passes = registered_passes()
    assert "bn_fold" in passes and passes.source_of("bn_fold") == "bn_fold"
    assert passes["bn_fold"].stage == "simplify"


@pytest.mark.parametrize("conv_bias", [None, B])
@pytest.mark.parametrize("affine", [True, False])
def test_conv_then_inference_batch_norm_folds_into_one_conv(conv_bias, affine):
    p = bn_params()
    if not affine:
        p.update(weight=None, bias=None)

    def net(x):
        y = ops.nn.conv2d(x, W, conv_bias, padding=1)
        return ops.relu(ops.nn.batch_norm(y, **p, training=False))
    g = make_graph(net, X)
    ctx = PassContext()
    out = optimize(g, "O1", ctx=ctx, verify_each=True)
    assert ctx.stats["bn_fold.folded"] == 1
    counts = out.primitive_counts()
    assert counts["conv2d"] == 1 and "mul" not in counts and "rsqrt_eps" not in counts
    np.testing.assert_allclose(evaluate(out, X)[0], evaluate(g, X)[0], rtol=1e-5, atol=1e-5)


def test_statistics_passed_as_inputs_fold_once_frozen():
    p = bn_params()
    names = ["running_mean", "running_var", "weight", "bias"]

    def net(x, w, mean, var, gamma, beta):
        return ops.nn.batch_norm(ops.nn.conv2d(x, w), mean, var, gamma, beta)
    args = [X, W] + [p[n] for n in names]
    g = make_graph(net, *args)
    assert "conv2d" in optimize(g, "O1").primitive_counts()
    assert "bn_fold.folded" not in _stats(g)  # inputs may change: nothing to fold
    frozen = freeze_inputs(g, {i: a for i, a in enumerate(args) if i > 0})
    out = optimize(frozen, "O1")
    assert out.primitive_counts() == {"conv2d": 1, "add": 1}
    np.testing.assert_allclose(evaluate(out, X)[0], evaluate(g, *args)[0],
                               rtol=1e-5, atol=1e-5)


def _stats(g):
    ctx = PassContext()
    optimize(g, "O1", ctx=ctx)
    return ctx.stats


def test_a_conv_output_used_elsewhere_is_left_alone():
    p = bn_params()

    def net(x):
        y = ops.nn.conv2d(x, W)
        return ops.add(ops.nn.batch_norm(y, **p), y)  # y itself is needed too
    g = make_graph(net, X)
    assert "bn_fold.folded" not in _stats(g)
    out = optimize(g, "O1")
    np.testing.assert_allclose(evaluate(out, X)[0], evaluate(g, X)[0], rtol=1e-5, atol=1e-5)


def test_non_per_channel_constants_do_not_fold():
    scale = rng.standard_normal((6, 6)).astype(np.float32)  # per pixel, not per channel
    g = make_graph(lambda x: ops.add(ops.mul(ops.nn.conv2d(x, W), scale), 1.0), X)
    assert fold_batch_norm(g, PassContext()) is g


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.bn_fold")
    assert failed == 0 and attempted > 0
