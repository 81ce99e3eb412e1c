"""Operator parallel end to end: sharded MLP and Transformer block equal one device."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.parallel.operator import ShardingError, shard, strategy
from sporeling.parallel.testing import run_local

from _parallel_models import block, block_args, mlp


@pytest.mark.parametrize("n", [2, 4])
def test_megatron_mlp_equals_one_device(n):
    rng = np.random.default_rng(0)
    x, w1, w2 = rng.standard_normal((8, 16)), rng.standard_normal((16, 32)), \
        rng.standard_normal((32, 16))
    f = lambda x, w1, w2: mlp(x, w1, w2, col=((1, 1), (1, n)), row=((1, n), (n, 1)))
    ref = f(x, w1, w2)
    sharded = shard(f)
    for out in run_local(n, lambda: sharded(x, w1, w2)):
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
    table = sharded.table(x, w1, w2, device_num=n)
    assert [r["op"] for r in table] == ["matmul", "gelu", "matmul"]
    assert table[1]["strategy"] == ((1, n),)  # gelu follows the column split


@pytest.mark.parametrize("n", [2, 4])
def test_data_parallel_mlp_from_in_strategy(n):
    rng = np.random.default_rng(1)
    x, w1, w2 = rng.standard_normal((8, 6)), rng.standard_normal((6, 5)), \
        rng.standard_normal((5, 3))
    sharded = shard(mlp, in_strategy=((n, 1), (1, 1), (1, 1)))
    ref = mlp(x, w1, w2)
    for out in run_local(n, lambda: sharded(x, w1, w2)):
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
    assert all(r["strategy"][0][0] == n for r in sharded.table(x, w1, w2, device_num=n))


@pytest.mark.parametrize("n", [2, 4])
def test_transformer_block_equals_one_device(n):
    args = block_args(np.random.default_rng(2), D=8, F=16)
    f = lambda *a: block(*a, heads=4, annotate=n)
    ref = f(*args)
    sharded = shard(f, in_strategy=((1, 1, 1),) + (None,) * 8)
    for out in run_local(n, lambda: sharded(*args)):
        np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-10)
    table = sharded.table(*args, device_num=n)
    softmax = next(r for r in table if r["op"] == "softmax")
    assert softmax["strategy"] == ((1, n, 1, 1),)  # heads split, the softmax axis whole


def test_transformer_block_data_parallel_float32():
    args = block_args(np.random.default_rng(3), dtype=np.float32)
    sharded = shard(block, in_strategy=((2, 1, 1),) + (None,) * 8)
    ref = block(*args)
    for out in run_local(2, lambda: sharded(*args)):
        np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_embedding_rows_split_and_conv_channels():
    rng = np.random.default_rng(4)
    idx = rng.integers(0, 16, size=(4, 3))
    table = rng.standard_normal((16, 6))

    def emb(idx, table):
        with strategy(((1, 1), (4, 1))):
            return ops.embedding(idx, table)
    sharded = shard(emb)
    for out in run_local(4, lambda: sharded(idx, table)):
        np.testing.assert_allclose(out, table[idx])

    x, w = rng.standard_normal((4, 3, 6, 6)), rng.standard_normal((8, 3, 3, 3))

    def conv(x, w):
        with strategy(((2, 1, 1, 1), (2, 1, 1, 1))):
            return ops.relu(ops.conv2d(x, w, padding=1))
    ref = conv(x, w)
    sharded = shard(conv)
    for out in run_local(4, lambda: sharded(x, w)):
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)


def test_reductions_and_transpose_follow_the_split():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 8, 6))

    def f(x):
        with strategy(((2, 2, 1),)):
            y = ops.exp(x)
        t = ops.transpose(y, (1, 0, 2))
        return ops.mean(t, axis=(0,)), ops.max(y, axis=(1,)), ops.sum(t)
    ref = f(x)
    sharded = shard(f)
    for outs in run_local(4, lambda: sharded(x)):
        for o, r in zip(outs, ref):
            assert np.shape(o) == np.shape(r)
            np.testing.assert_allclose(o, r, rtol=1e-12)
    table = sharded.table(x, device_num=4)
    assert table[1]["strategy"] == ((2, 2, 1),)  # the transpose keeps the layout


def test_out_strategy_gives_each_rank_its_block():
    x = np.arange(16.0).reshape(4, 4)
    sharded = shard(lambda x: ops.mul(x, 2.0), in_strategy=((2, 1),), out_strategy=((1, 2),))
    outs = run_local(2, lambda: sharded(x))
    np.testing.assert_array_equal(np.concatenate(outs, axis=1), 2 * x)


def _bad(x, w):
    with strategy(((1, 3), (3, 1))):
        return ops.matmul(x, w)


def test_strategy_not_dividing_names_op_dim_strategy_and_line():
    x, w = np.ones((4, 6)), np.ones((6, 2))
    with pytest.raises(ShardingError) as info:
        shard(_bad).plan(x, w, device_num=4)
    msg = str(info.value)
    assert "matmul" in msg and "operand 0 dimension 1" in msg and "((1, 3), (3, 1))" in msg
    assert "test_operator_parallel.py:" in msg  # the user's line


def test_strategy_errors_divisibility_fixed_axis_and_device_count():
    def soft(x):
        with strategy(((1, 2),)):
            return ops.softmax(x, axis=-1)
    with pytest.raises(ShardingError, match="softmax.*cannot be split"):
        shard(soft).plan(np.ones((4, 4)), device_num=2)

    def mm(x, w):
        with strategy(((2, 2), (4, 1))):
            return ops.matmul(x, w)
    with pytest.raises(ShardingError, match="split like the dimension it meets"):
        shard(mm).plan(np.ones((4, 4)), np.ones((4, 4)), device_num=8)

    def big(x):
        with strategy(((4, 4),)):
            return ops.exp(x)
    with pytest.raises(ShardingError, match="more blocks than devices"):
        shard(big).plan(np.ones((8, 8)), device_num=4)
    with pytest.raises(ShardingError, match="input 0 .* dimension 0 \\(size 5\\)"):
        shard(ops.exp, in_strategy=((2,),)).plan(np.ones(5), device_num=2)
    with pytest.raises(ShardingError, match="power-of-two"):
        shard(ops.exp).plan(np.ones(6), device_num=3)


def test_each_rank_program_is_ir_with_the_collectives_inserted():
    from sporeling.compiler.ir import evaluate, verify
    from sporeling.compiler.pipeline import compile_graph
    from sporeling.parallel.operator.execute import local_block
    from sporeling.parallel import comm
    rng = np.random.default_rng(6)
    x, w1, w2 = rng.standard_normal((8, 16)), rng.standard_normal((16, 32)), \
        rng.standard_normal((32, 16))
    f = lambda x, w1, w2: mlp(x, w1, w2, col=((1, 1), (1, 2)), row=((1, 2), (2, 1)))
    sharded = shard(f)

    def rank():
        g = sharded.rank_graph(x, w1, w2)
        verify(g)
        sg = sharded.plan(x, w1, w2)[1]
        blocks = [local_block(a, lay, comm.current().rank)
                  for a, lay in zip((x, w1, w2), sg.input_layouts)]
        return g, evaluate(g, *blocks)[0], compile_graph(g)(*blocks)
    ref = f(x, w1, w2)
    for g, out, compiled in run_local(2, rank):
        # Megatron: the column-split matmul, gelu, the row-split matmul, one all-reduce
        assert [eq.prim.name for eq in g.equations] == ["matmul", "gelu", "matmul",
                                                        "all_reduce"]
        assert g.equations[-1].source == g.equations[-2].source  # the user's line
        assert "_parallel_models.py:16" in g.equations[-1].source
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(np.asarray(compiled[0] if isinstance(compiled, (list, tuple))
                                              else compiled), ref, rtol=1e-12, atol=1e-12)


def test_gather_and_a_primitive_without_rule_run_correctly():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((8, 6))
    idx = np.array([5, 0, 3])

    def f(x):
        with strategy(((4, 1),)):
            y = ops.exp(x)
        g = ops.gather(y, idx, axis=1)         # rows stay split, the gathered axis whole
        return ops.cumsum(g, axis=0)           # no rule: every rank computes it whole
    ref = f(x)
    sharded = shard(f)
    for out in run_local(4, lambda: sharded(x)):
        np.testing.assert_allclose(out, ref, rtol=1e-12)
    table = sharded.table(x, device_num=4)
    assert table[1]["op"] == "gather" and table[1]["strategy"][0] == (4, 1)
    assert table[2]["strategy"] == ((1, 1),)
