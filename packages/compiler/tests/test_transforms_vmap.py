"""vmap against a Python loop over the batch: each primitive family, batched indices and
weights, nesting, per-example gradients, and the errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import MissingRuleError, Primitive, bind, ops, primitives
from sporeling.compiler.autodiff import grad
from sporeling.compiler.core.batching import has_batching_rule
from sporeling.compiler.transforms import vmap
from sporeling.core import ShapeError, SporelingError

rng = np.random.default_rng(0)
B = 3


def loop(fn, args, in_axes, out_axis=0):
    """The reference: ``fn`` on each example, results stacked."""
    outs = []
    for b in range(B):
        ex = [a if ax is None else np.take(a, b, axis=ax) for a, ax in zip(args, in_axes)]
        outs.append(fn(*ex))
    if isinstance(outs[0], tuple):
        return tuple(np.stack([o[k] for o in outs], out_axis) for k in range(len(outs[0])))
    return np.stack(outs, out_axis)


def check(fn, args, in_axes, rtol=1e-6):
    got, want = vmap(fn, in_axes=in_axes)(*args), loop(fn, args, in_axes)
    for g, w in zip(*(((got,), (want,)) if not isinstance(got, tuple) else (got, want))):
        assert np.shape(g) == np.shape(w)
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                   rtol=rtol, atol=1e-6)


def batched(shape, axis, dtype=np.float64):
    """A random batch of ``shape`` examples with the batch on ``axis`` (None: one value)."""
    if axis is None:
        return rng.standard_normal(shape).astype(dtype)
    full = rng.standard_normal((B,) + shape).astype(dtype)
    return np.moveaxis(full, 0, axis)


axes3 = st.sampled_from([None, 0, 1, -1])


@settings(max_examples=25, deadline=None)
@given(axes3, axes3, st.sampled_from(["add", "maximum", "greater", "atan2"]))
def test_binary_elementwise_any_axes(ax, ay, name):
    if ax is None and ay is None:
        ay = 0
    x = batched((2, 4), ax)
    y = batched((4,), None if ay is None else ay % 2)
    check(getattr(ops, name), [x, y], (ax, None if ay is None else ay % 2))


@settings(max_examples=15, deadline=None)
@given(axes3, axes3)
def test_where_and_clip_any_axes(ac, ax):
    if ac is None and ax is None:
        ax = 0
    cond = batched((3, 1), ac) > 0
    x = batched((3, 4), ax)
    check(lambda c, v: ops.where(c, v, ops.clip(v, -0.5, 0.5)), [cond, x], (ac, ax))


@pytest.mark.parametrize("name", ["all", "any", "logical_not", "isnan", "isfinite",
                                  "isinf"])
def test_boolean_reductions_and_predicates(name):
    x = batched((3, 4), 1) > 0
    f = getattr(ops, name)
    check((lambda v: f(v, axis=1)) if name in ("all", "any") else f, [x], (1,))
    check(lambda v: ops.logical_xor(v, ops.not_equal(v, True)), [x], (1,))


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_arg_reductions(axis, keepdims):
    x = batched((3, 4), 2)
    check(lambda v: ops.argmax(v, axis, keepdims), [x], (2,))
    check(lambda v: ops.argmin(v, axis, keepdims), [x], (2,))


def test_cast_one_hot_cumsum():
    idx = np.moveaxis(rng.integers(0, 5, (B, 4)), 0, 1)
    check(lambda i: ops.one_hot(i, 5), [idx], (1,))
    check(lambda v: ops.cumsum(ops.cast(v, "float32"), 0, reverse=True), [idx], (1,))


def test_getitem_with_batched_index_arrays():
    g = ops.getitem
    x = batched((4, 5, 6), 1)
    i = np.moveaxis(rng.integers(-4, 4, (B, 2, 3)), 0, 2)
    j = rng.integers(0, 6, (3,))
    check(lambda v, a: g(v, a), [x, i], (1, 2))                          # one run, first
    check(lambda v, a: g(v, (slice(None), 1, g(a, 0))), [x, i], (1, 2))  # one run, later
    check(lambda v, a: g(v, (g(a, 0), slice(1, 3), j)), [x, i], (1, 2))  # two runs
    check(lambda v, a: g(v, (None, Ellipsis, g(a, (slice(None), slice(2))))), [x, i], (1, 2))
    check(lambda v, a: g(v, (Ellipsis, g(a, 0))), [x, i], (None, 2))
    mask = np.array([True, False, True, True, False])  # 3 positions, like j
    check(lambda v, a: g(v, (g(a, 0), mask)), [x, i], (1, 2))
    check(lambda v: g(v, (slice(None), mask, j)), [x], (1,))


def test_add_at_with_batched_indices_and_updates():
    x = batched((4, 5), 0)
    i = np.moveaxis(rng.integers(0, 4, (B, 3)), 0, 1)
    u = batched((3, 5), None)
    ub = batched((3,), 1)
    check(lambda v, a, w: ops.add_at(v, a, w), [x, i, u], (0, 1, None))
    check(lambda v, a, w: ops.add_at(v, (slice(None), ops.getitem(a, slice(2))),
                                     ops.getitem(w, slice(2))), [x[0], i, ub], (None, 1, 1))
    check(lambda v, w: ops.add_at(v, (1, slice(None), None), w), [x, batched((5, 1), 2)],
          (0, 2))
    check(lambda v, w: ops.add_at(v, (np.array([0, 2]), slice(None), np.array([1, 3])),
                                  ops.getitem(w, slice(1))), [batched((4, 3, 5), None), ub], (None, 1))


@pytest.mark.parametrize("axes", [(0, None), (None, 1), (2, 0)])
def test_gather_take_scatter(axes):
    x = batched((3, 6), axes[0])
    i = rng.integers(0, 6, (B, 2, 4) if axes[1] is not None else (2, 4))
    i = i if axes[1] is None else np.moveaxis(i, 0, axes[1])
    check(lambda v, a: ops.gather(v, a, axis=1), [x, i], axes)
    t = rng.integers(0, 6, (B, 3, 2) if axes[1] is not None else (3, 2))
    t = t if axes[1] is None else np.moveaxis(t, 0, axes[1])
    check(lambda v, a: ops.take_along_axis(v, a, 1), [x, t], axes)
    check(lambda v, a: ops.scatter_add(v, a, ops.mul(ops.take_along_axis(v, a, 1), 2.0), 1),
          [x, t], axes)


@pytest.mark.parametrize("axes", [(0, None), (None, 0), (1, 2)])
def test_embedding_and_its_gradient(axes):
    idx = rng.integers(0, 5, (B, 2, 3)) if axes[0] is not None else rng.integers(0, 5, (2, 3))
    idx = idx if axes[0] is None else np.moveaxis(idx, 0, axes[0])
    table = batched((5, 4), axes[1])
    check(lambda i, t: ops.embedding(i, t), [idx, table], axes)
    check(lambda i, t: grad(lambda w: ops.sum(ops.square(ops.embedding(i, w, padding_idx=1))))(t),
          [idx, table], axes)


@pytest.mark.parametrize("xs, ys, axes", [((3,), (3,), (0, 0)), ((3,), (3, 2), (0, None)),
                                          ((2, 3), (3,), (None, 1)),
                                          ((2, 2, 3), (3, 4), (1, 0)),
                                          ((3, 4), (2, 4, 5), (0, 2))])
def test_matmul_shapes(xs, ys, axes):
    check(ops.matmul, [batched(xs, axes[0]), batched(ys, axes[1])], axes)


def test_einsum_and_triangles():
    check(lambda a, b: ops.einsum("ij,jk->ik", a, b),
          [batched((2, 3), 1), batched((3, 4), None)], (1, None))
    check(lambda a, b: ops.einsum("...i,i", a, b), [batched((2, 3), 0), batched((3,), 0)],
          (0, 0))
    check(lambda a: ops.tril(a, -1), [batched((3, 3), 2)], (2,))


def test_softmax_normalisation_and_shapes():
    x = batched((2, 3, 4), 3)
    check(lambda v: ops.log_softmax(ops.softmax(v, 1), -1), [x], (3,))
    check(lambda v: ops.layer_norm(v, (3, 4)), [x], (3,))
    check(lambda v: ops.group_norm(v, 1), [x], (3,))
    check(lambda v: ops.concat([ops.reshape(v, (4, 6)), ops.ones((4, 2))
                                if hasattr(ops, "ones") else np.ones((4, 2))], 1), [x], (3,))
    check(lambda v: ops.split(ops.transpose(v), [1], 0), [x], (3,))
    check(lambda v: ops.pad(ops.roll(ops.flip(v, 1), 1, 2), 1, mode="reflect"), [x], (3,))
    check(lambda v: ops.repeat(ops.tile(v, (1, 2, 1)), 2, 0), [x], (3,))
    check(lambda v: ops.broadcast_to(ops.strided_slice(v, [0, 1], [2, 3]), (2, 2, 2, 4)),
          [x], (3,))


@pytest.mark.parametrize("axes", [(0, None), (None, 0), (0, 0)])
def test_convolutions_and_pooling(axes):
    x = batched((2, 4, 7, 7), axes[0])
    w = batched((6, 2, 3, 3), axes[1])
    check(lambda v, k: ops.conv2d(v, k, stride=2, padding=1, groups=2), [x, w], axes,
          rtol=1e-5)
    check(lambda v, k: ops.conv_transpose2d(v, k, stride=2, groups=2),
          [x, batched((4, 2, 3, 3), axes[1])], axes, rtol=1e-5)
    if axes[0] is not None:
        check(lambda v: ops.max_pool2d(ops.avg_pool2d(v, 2, 1), 2), [x], axes[:1])


def test_random_batches():
    probs = np.stack([np.zeros(4), np.ones(4), np.full(4, 0.5)])
    out = vmap(lambda p: ops.bernoulli(p, shape=(2, 4)))(probs)
    assert out.shape == (3, 2, 4)
    assert (out[0] == 0).all() and (out[1] == 1).all()
    x = batched((50,), 0).astype(np.float32)
    check(lambda v: ops.dropout(v, 0.5, seed=7), [x], (0,))  # the mask a loop would use


def test_in_out_axes_pytrees_nesting():
    xs = {"a": batched((2,), 0), "b": batched((2,), 1)}
    out = vmap(lambda d, s: (ops.add(d["a"], d["b"]), s), in_axes=({"a": 0, "b": 1}, None),
               out_axes=(1, None))(xs, np.float64(2.0))
    np.testing.assert_allclose(out[0], (xs["a"] + xs["b"].T).T)
    assert float(out[1]) == 2.0
    m = rng.standard_normal((4, 3, 5))
    nested = vmap(vmap(lambda r: ops.sum(ops.square(r))), in_axes=1)(m)
    np.testing.assert_allclose(nested, (m ** 2).sum(-1).T)
    const = vmap(lambda r: ops.add(np.ones(2), 1.0))(m)  # an output the batch never touches
    assert const.shape == (4, 2)


def test_mismatched_sizes_name_them():
    with pytest.raises(ShapeError) as err:
        vmap(ops.add)(np.ones((3, 2)), np.ones((4, 2)))
    assert "size 3" in str(err.value) and "size 4" in str(err.value)
    with pytest.raises(SporelingError, match="in_axes"):
        vmap(ops.add, in_axes=(0,))(np.ones(3), np.ones(3))
    with pytest.raises(SporelingError, match="out_axes None"):
        vmap(ops.neg, out_axes=None)(np.ones(3))


_lonely_p = Primitive("test_transforms_no_batching_rule")
_lonely_p.def_abstract_eval(lambda x: x)


def test_missing_rule_names_the_primitive_and_vmap():
    with pytest.raises(MissingRuleError) as err:
        vmap(lambda x: bind(_lonely_p, x))(np.ones((2, 3)))
    assert "test_transforms_no_batching_rule" in str(err.value)
    assert "vmap" in str(err.value)


def test_every_builtin_primitive_with_operands_has_a_rule():
    operandless = {"rng_seed"}  # never batched
    builtin = [p for n, p in primitives().items() if p.abstract_eval is not None and
               p.abstract_eval.__module__.startswith("sporeling.compiler.ops")]
    missing = [p.name for p in builtin if not has_batching_rule(p) and p.name not in operandless]
    assert missing == []
