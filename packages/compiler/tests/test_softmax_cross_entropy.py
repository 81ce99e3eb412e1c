"""The fused softmax_cross_entropy primitive against the composed cross entropy, under vmap
and grad, and its class-range check (done by the kernel, so graph mode has it too)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.transforms import vmap
from sporeling.core import ShapeError

rng = np.random.default_rng(7)
ONES = np.ones(5)  # a class weight of ones takes the composed path: the reference


def composed(x, t, reduction):
    return ops.cross_entropy(x, t, weight=ONES.astype(x.dtype), reduction=reduction)


def fused(x, t, reduction):
    return ops.cross_entropy(x, t, reduction=reduction)


CASES = [(rng.standard_normal((3, 4, 5)), np.array([[0, 1, -100, 4], [2, 2, 2, 2],
                                                    [3, -100, 0, 1]])),
         (rng.standard_normal((3, 5)), np.array([1, 4, 3])),
         (rng.standard_normal((3, 2, 5, 3)), rng.integers(0, 5, (3, 2, 3)))]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_fused_matches_composed_per_example_and_under_vmap(reduction, case):
    xs, ts = CASES[case]
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(fused(x, t, reduction), composed(x, t, reduction),
                                   rtol=1e-12)
    f = lambda x, t: ops.sum(ops.mul(fused(x, t, reduction), 1.7))  # noqa: E731
    g = lambda x, t: ops.sum(ops.mul(composed(x, t, reduction), 1.7))  # noqa: E731
    np.testing.assert_allclose(vmap(f)(xs, ts), np.stack([g(x, t) for x, t in zip(xs, ts)]),
                               rtol=1e-12)
    np.testing.assert_allclose(vmap(grad(f))(xs, ts),
                               np.stack([grad(g)(x, t) for x, t in zip(xs, ts)]),
                               rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(vmap(grad(f), in_axes=(0, None))(xs, ts[0]),
                               np.stack([grad(g)(x, ts[0]) for x in xs]),
                               rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("target", [[0, 4, 1], [0, -1, 1]])
def test_class_out_of_range_is_an_error(target):
    with pytest.raises(ShapeError, match="out of range"):
        ops.cross_entropy(np.zeros((3, 4), np.float32), np.array(target))


def test_float32_stays_float32_and_large_logits_stay_finite():
    x = np.array([[1e4, -1e4, 0.0], [0.0, 0.0, 0.0]], np.float32)
    loss = ops.cross_entropy(x, np.array([0, 2]))
    assert loss.dtype == np.float32
    np.testing.assert_allclose(loss, np.log(3) / 2, rtol=1e-6)
    assert np.isfinite(grad(lambda x: ops.cross_entropy(x, np.array([1, 2])))(x)).all()
