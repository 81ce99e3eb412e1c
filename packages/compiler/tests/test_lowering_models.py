"""Lowering real training steps (MLP 784-512-512-10, a LeNet with pooling): the planned
program equals the reference evaluator bit for bit, and its arena is within 5% of the
liveness lower bound. The builders are shared with the other lowering tests and the
executor-overhead script (``python test_lowering_models.py``)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import value_and_grad
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.lowering import lower


def _step_graph(loss, params, data, name):
    n = len(params)

    def step(*args):
        return value_and_grad(loss, tuple(range(n)))(*args)
    return make_graph(step, *params, *data, name=name), list(params) + list(data)


def mlp_step(batch=64, sizes=(784, 512, 512, 10)):
    """The forward+backward graph of an MLP training step and its flat inputs."""
    rng = np.random.default_rng(0)
    params = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        params += [(rng.standard_normal((a, b)) * 0.05).astype(np.float32),
                   np.zeros(b, np.float32)]
    data = [rng.standard_normal((batch, sizes[0])).astype(np.float32),
            rng.integers(0, sizes[-1], batch)]
    n = len(params)

    def loss(*args):
        h = args[n]
        for i in range(0, n, 2):
            h = ops.add(ops.matmul(h, args[i]), args[i + 1])
            if i + 2 < n:
                h = ops.relu(h)
        return ops.cross_entropy(h, args[n + 1])
    return _step_graph(loss, params, data, "mlp_step")


def lenet_step(batch=32):
    """The forward+backward graph of a LeNet-5 training step (conv, max and avg pooling)."""
    rng = np.random.default_rng(1)
    shapes = [(6, 1, 5, 5), (6,), (16, 6, 5, 5), (16,), (256, 120), (120,), (120, 84), (84,),
              (84, 10), (10,)]
    params = [(rng.standard_normal(s) * 0.1).astype(np.float32) for s in shapes]
    data = [rng.standard_normal((batch, 1, 28, 28)).astype(np.float32),
            rng.integers(0, 10, batch)]

    def loss(*p):
        x, y = p[10], p[11]
        h = ops.max_pool2d(ops.relu(ops.conv2d(x, p[0], p[1])), 2)
        h = ops.avg_pool2d(ops.relu(ops.conv2d(h, p[2], p[3])), 2)
        h = ops.reshape(h, (batch, -1))
        h = ops.relu(ops.add(ops.matmul(h, p[4]), p[5]))
        h = ops.tanh(ops.add(ops.matmul(h, p[6]), p[7]))
        return ops.cross_entropy(ops.add(ops.matmul(h, p[8]), p[9]), y)
    return _step_graph(loss, params, data, "lenet_step")


MODELS = {"mlp": mlp_step, "lenet": lenet_step}


def assert_same(got, want):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_program_equals_evaluate_and_arena_is_near_lower_bound(model):
    graph, args = MODELS[model]()
    lowered = lower(graph)
    want = evaluate(graph, *args)
    assert_same(lowered(*args), want)
    assert_same(lowered(*args), want)  # the arena is reused across calls
    stats = lowered.memory
    assert stats["planned_values"] > 10 and stats["in_place_reuses"] > 3
    assert stats["lower_bound"] <= stats["arena_bytes"] <= 1.05 * stats["lower_bound"]


@pytest.mark.parametrize("model", sorted(MODELS))
def test_outputs_own_their_memory(model):
    graph, args = MODELS[model]()
    lowered = lower(graph)
    first = [np.array(a, copy=True) for a in lowered(*args)]
    kept = lowered(*args)
    args = [a * 2 if a.dtype.kind == "f" else a for a in args]
    lowered(*args)  # a second call must not write into the first call's outputs
    assert_same(kept, first)


def _time(fn, repeat=20):
    import time
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":  # the plans, and the planned program against evaluate
    for name, build in MODELS.items():
        graph, args = build()
        lowered = lower(graph)
        n = len(graph.equations)
        program, reference = _time(lambda: lowered(*args)), _time(lambda: evaluate(graph, *args))
        stats = lowered.memory
        print(f"{name}: {n} instructions; arena {stats['arena_bytes']} B, lower bound "
              f"{stats['lower_bound']} B (ratio {stats['ratio']:.3f}), "
              f"{stats['in_place_reuses']} in-place reuses; program {program * 1e3:.3f} ms, "
              f"evaluate {reference * 1e3:.3f} ms")
