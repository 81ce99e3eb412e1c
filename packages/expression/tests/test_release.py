"""Ref-count release: grad frees each saved forward value once its last backward user ran,
and nothing keeps pool memory alive after the call."""
import gc

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.runtime import get_default_pool

ops = sx.ops


def mlp(layers=4, width=96, seed=0):
    rng = np.random.default_rng(seed)
    return [sx.Parameter(rng.standard_normal((width, width)).astype(np.float32) / 10,
                         name=f"w{i}") for i in range(layers)]


def loss(params, x):
    h = x
    for w in params:
        h = ops.relu(h @ w)
    return (h * h).mean()


def peak_of_step(params, x, release):
    pool = get_default_pool()
    step = sx.value_and_grad(lambda x: loss(params, x), None, params)
    with sx.context(grad_release=release):
        step(x)  # warm up
        gc.collect()
        pool.reset_peak()
        base = pool.stats().in_use
        _, grads = step(x)
        peak = pool.stats().peak
    return peak - base, grads


def test_release_lowers_the_peak_and_gives_the_same_gradients():
    """The peak of a step comes at the end of backward, when the weight gradients are all
    there: with release, the activations are gone by then; without, they are all kept."""
    params = mlp(6, 128)
    x = sx.Tensor(np.random.default_rng(1).standard_normal((64, 128)).astype(np.float32))
    on, g_on = peak_of_step(params, x, True)
    off, g_off = peak_of_step(params, x, False)
    for a, b in zip(g_on, g_off):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    activation = 64 * 128 * 4
    assert on < off and off - on >= 4 * activation, (on, off)


@pytest.mark.parametrize("release", [True, False])
def test_after_grad_only_the_results_hold_pool_memory(release):
    params = mlp(3, 64)
    x = sx.Tensor(np.ones((256, 64), np.float32))
    pool = get_default_pool()
    step = sx.value_and_grad(lambda x: (loss(params, x), x * 2.0), None, params, has_aux=True)
    with sx.context(grad_release=release):
        step(x)
        gc.collect()
        base = pool.stats().in_use
        gc.disable()  # reference counting alone must free everything (no cycles)
        try:
            (value, aux), grads = step(x)
            held = sum(g.nbytes for g in grads) + aux.nbytes + value.nbytes
            assert pool.stats().in_use - base <= held + 64 * (len(grads) + 2)
            del value, aux, grads
            assert pool.stats().in_use == base
        finally:
            gc.enable()


def test_nested_grad_memory_is_freed_without_the_garbage_collector():
    x = sx.Tensor(np.ones((128, 64), np.float32))
    f = lambda x: sx.grad(lambda y: (ops.tanh(y) * y).sum())(x).sum()
    pool = get_default_pool()
    sx.grad(f)(x)
    gc.collect()
    base = pool.stats().in_use
    g = sx.grad(f)(x)
    del g
    gc.collect()
    assert pool.stats().in_use == base


def test_saved_values_are_released_as_backward_goes():
    """During backward, a layer's saved activation is gone once its rule ran."""
    params = mlp(4, 64)
    x = sx.Tensor(np.ones((256, 64), np.float32))
    seen = []

    def probe_bprop(h, out, dout):
        seen.append(get_default_pool().stats().in_use)
        return (dout,)
    probe = sx.custom_bprop(probe_bprop)(lambda h: h * 1.0)

    def f(x):
        h = x
        for w in params:
            h = probe(ops.relu(h @ w))
        return h.sum()
    with sx.context(grad_release=True):
        sx.grad(f, None, params)(x)
    on = list(seen)
    seen.clear()
    with sx.context(grad_release=False):
        sx.grad(f, None, params)(x)
    # with release, memory in use falls layer by layer; without, it only grows
    assert on[-1] < seen[-1]
