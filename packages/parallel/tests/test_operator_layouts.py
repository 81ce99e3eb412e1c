"""Layouts, sharding rules and redistribution plans (no communication)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.parallel.operator import Layout, redistribution_plan, sharding_rule
from sporeling.parallel.operator.redistribution import PairGroups, apply_plan
from sporeling.parallel.testing import run_local
from sporeling.parallel import comm as _comm


def test_layout_blocks_cover_the_tensor_once_per_replica():
    lay = Layout(3, ((2, 0), ()))  # 8 devices; rows in 4 (axis 2 outer, 0 inner), 2 replicas
    shape = (8, 3)
    seen = np.zeros(shape, int)
    for r in range(8):
        seen[lay.block(r, shape)] += 1
    assert (seen == 2).all()
    assert lay.splits == (4, 1) and lay.local_shape(shape) == (2, 3)
    assert lay.block(0b001, shape)[0] == slice(4, 6) and lay.block(0b100, shape)[0] == slice(2, 4)


def kinds(src, dst, shape=(8, 8)):
    return [(s.kind, s.bytes) for s in redistribution_plan(src, dst, shape, 8)]


def test_plans_move_the_fewest_bytes():
    rows, cols, rep = Layout(1, ((0,), ())), Layout(1, ((), (0,))), Layout(1, ((), ()))
    block = 4 * 8 * 8  # one rank's half of an 8x8 float64
    assert kinds(rows, rows) == []
    assert kinds(rep, rows) == [("split", 0)]
    assert kinds(rows, rep) == [("all_gather", block)]
    assert kinds(rows, cols) == [("all_to_all", block // 2)]  # never gather-then-split
    partial = Layout(1, ((), ()), ((0, "sum"),))
    assert kinds(partial, rows) == [("reduce_scatter", 2 * block // 2)]
    assert kinds(partial, rep) == [("all_reduce", 2 * block)]
    # axes both layouts share stay put: only the inner axis moves
    a, b = Layout(2, ((0, 1), ())), Layout(2, ((0,), (1,)))
    assert kinds(a, b) == [("all_to_all", 8 * 2 * 8 // 2)]


def test_rules_label_matmul_broadcast_reshape():
    g = make_graph(lambda x, w, b: ops.reshape(ops.add(ops.matmul(x, w), b), (2, 4, 2, 3)),
                   np.ones((2, 4, 5)), np.ones((5, 6)), np.ones(6))
    mm, add, rs = (sharding_rule(eq) for eq in g.equations)
    assert mm.inputs[0][-2:] == ("m", "k") and mm.inputs[1] == ("k", "n")
    assert mm.reduce == {"k": "sum"}
    assert mm.outputs[0][-2:] == ("m", "n")
    assert add.inputs[1] == (add.outputs[0][-1],)
    assert rs.inputs[0][-1] == rs.outputs[0][-2] and rs.outputs[0][-1] in rs.fixed


@pytest.mark.parametrize("src,dst", [
    (((0,), (1,)), ((1,), (0,))),     # both axes swap dimensions
    (((0, 1), ()), ((), (1, 0))),     # rows split twice -> columns split twice, other order
    (((), ()), ((1, 0), ())),
    (((1,), ()), ((), ())),
])
def test_apply_plan_matches_the_target_blocks(src, dst):
    full = np.arange(64.0).reshape(8, 8)
    a, b = Layout(2, src), Layout(2, dst)
    steps = redistribution_plan(a, b, full.shape, 8)

    def rank():
        c = _comm.current()
        mine = full[a.block(c.rank, full.shape)]
        return apply_plan(steps, mine, PairGroups(c, 2)), b.block(c.rank, full.shape)
    for got, where in run_local(4, rank):
        np.testing.assert_array_equal(got, full[where])


def test_partial_sum_reduce_scatter_on_ranks():
    parts = [np.full((4, 2), r + 1.0) for r in range(2)]
    steps = redistribution_plan(Layout(1, ((), ()), ((0, "sum"),)), Layout(1, ((0,), ())),
                                (4, 2), 8)
    outs = run_local(2, lambda: apply_plan(steps, parts[_comm.current().rank],
                                           PairGroups(_comm.current(), 1)))
    assert [o.shape for o in outs] == [(2, 2), (2, 2)] and (outs[0] == 3).all()
