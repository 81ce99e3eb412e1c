"""Random seeds are values of the graph: an ``rng_seed`` equation runs -- draws anew -- on
every execution of a compiled graph, reproducibly under ``set_seed``, and no pass merges or
folds it; control-flow bodies capture a seed drawn in the enclosing scope."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.passes import optimize
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.transforms import grad_graph, vmap
from sporeling.core import SporelingError, generator, set_seed

X = np.ones((40, 30), np.float32)


def names(graph):
    return [eq.prim.name for eq in graph.equations]


def test_a_traced_random_op_gets_an_rng_seed_equation():
    g = make_graph(lambda x: ops.add(ops.dropout(x, 0.5), ops.uniform((40, 30))), X)
    assert names(g).count("rng_seed") == 2
    assert "rng_seed" not in names(make_graph(lambda x: ops.dropout(x, 0.5, seed=3), X))


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_each_run_of_a_compiled_graph_draws_and_set_seed_replays_the_eager_sequence(level):
    exe = compile_graph(make_graph(lambda x: ops.dropout(x, 0.5), X), level=level)
    set_seed(7)
    runs = [exe(X)[0] for _ in range(3)]
    assert not np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[1], runs[2])
    set_seed(7)
    eager = [ops.dropout(X, 0.5) for _ in range(3)]
    for compiled, expected in zip(runs, eager):
        np.testing.assert_array_equal(compiled, expected)


def test_passes_never_merge_or_fold_rng_seed():
    def f(x):
        return ops.add(ops.mul(x, ops.uniform((40, 30))), ops.mul(x, ops.uniform((40, 30))))
    out = optimize(make_graph(f, X), "O1")
    assert names(out).count("rng_seed") == 2 and names(out).count("uniform") == 2
    exe = compile_graph(make_graph(lambda: ops.sub(ops.normal((5,)), ops.normal((5,)))),
                        level="O1")
    assert (exe()[0] != 0).all()  # two draws, not one merged or folded


def test_graph_grad_reuses_the_forward_seed_and_draws_per_run():
    g = make_graph(lambda x: ops.sum(ops.mul(ops.dropout(x, 0.5), 3.0)), X)
    gg = grad_graph(g)
    assert names(gg).count("rng_seed") == 1
    exe = compile_graph(gg)
    first, second = exe(X)[0], exe(X)[0]
    assert set(np.unique(first)) == {0.0, 6.0} and not np.array_equal(first, second)
    set_seed(3)
    via_graph = evaluate(gg, X)[0]
    set_seed(3)  # the eager gradient of the same program, drawing the same seed
    np.testing.assert_array_equal(
        via_graph, grad(lambda x: ops.sum(ops.mul(ops.dropout(x, 0.5), 3.0)))(X))


def test_control_flow_bodies_capture_a_seed_of_the_enclosing_graph():
    def f(x):
        return ops.fori_loop(0, 3, lambda i, c: ops.add(c, ops.dropout(x, 0.5)),
                             ops.mul(x, 0.0))
    g = make_graph(f, X)
    assert names(g).count("rng_seed") == 1          # outside the loop, captured by it
    exe = compile_graph(g)
    a, b = exe(X)[0], exe(X)[0]
    assert set(np.unique(a)) == {0.0, 6.0} and not np.array_equal(a, b)
    # grad through the loop: the backward re-runs the body and must see the same mask
    gg = compile_graph(grad_graph(make_graph(lambda x: ops.sum(f(x)), X)))
    set_seed(11)
    dx = gg(X)[0]
    set_seed(11)
    mask = ops.dropout(X, 0.5) != 0
    np.testing.assert_array_equal(dx != 0, mask)


def test_eager_draws_are_unchanged():
    set_seed(5)
    seed = int(generator("ops").integers(0, 2 ** 63 - 1))
    set_seed(5)
    np.testing.assert_array_equal(ops.dropout(X, 0.3), ops.dropout(X, 0.3, seed=seed))
    set_seed(5)
    u = ops.uniform((4,))
    np.testing.assert_array_equal(u, np.random.default_rng(seed).random(4, np.float32))


def test_vmap_shares_an_unbatched_seed_and_refuses_a_batched_one():
    out = vmap(lambda v: ops.dropout(v, 0.5, seed=4))(np.ones((3, 50), np.float32))
    assert all(np.array_equal(out[0], row) for row in out)
    with pytest.raises(SporelingError, match="vmap over random seeds"):
        vmap(lambda s: ops.dropout(np.ones(5, np.float32), 0.5, seed=s))(
            np.arange(3, dtype=np.int64))
