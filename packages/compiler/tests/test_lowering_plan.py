"""Memory plans: buffers alive together never overlap, in-place reuse happens exactly where
it is safe, and the planned program computes what the reference evaluator does."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.lowering import Step, lower, plan_memory


def assert_sound(lowered):
    """Every pair of planned values alive at one instruction has disjoint bytes, unless the
    later one reuses the earlier in place exactly where the earlier dies."""
    plan = lowered.plan
    live = plan.liveness
    size = {ins.outputs[0]: ins.out.nbytes for ins in lowered.program.instructions if ins.out}
    assert set(size) == set(plan.offsets)

    def end(v):  # last read of v or of any view of it
        return max(t for w, t in live.last_use.items() if v in live.roots[w]) \
            if any(v in live.roots[w] for w in live.last_use) else live.defined[v]

    spans = {v: (live.defined[v], end(v)) for v in plan.offsets}
    reuses = {(a, b) for _, a, b in plan.in_place}
    values = sorted(plan.offsets)
    for i, u in enumerate(values):
        assert u not in live.escaping
        assert plan.offsets[u] % 64 == 0
        assert plan.offsets[u] + size[u] <= plan.arena_bytes
        for v in values[i + 1:]:
            (su, eu), (sv, ev) = spans[u], spans[v]
            if max(su, sv) > min(eu, ev):
                continue  # never alive together
            ou, ov = plan.offsets[u], plan.offsets[v]
            if ou < ov + size[v] and ov < ou + size[u]:
                first, second = (u, v) if su < sv else (v, u)
                assert (first, second) in reuses and spans[first][1] == spans[second][0]
    assert plan.lower_bound <= plan.arena_bytes


UNARY = [ops.tanh, ops.sin, ops.neg, ops.relu, ops.square, ops.cos]
BINARY = [ops.add, ops.mul, ops.sub, ops.maximum]


@st.composite
def programs(draw):
    """A random DAG over (4, 4) float64 values: elementwise ops, reductions that broadcast
    back, transposes and reshapes (views), with a random set of outputs."""
    n = draw(st.integers(1, 14))
    recipe = []
    for i in range(n):
        kind = draw(st.sampled_from(["unary", "binary", "binary", "view", "reduce"]))
        a = draw(st.integers(0, i + 1))  # values 0 and 1 are the graph inputs
        b = draw(st.integers(0, i + 1))
        fn = draw(st.sampled_from(UNARY if kind == "unary" else BINARY))
        recipe.append((kind, fn, a, b))
    outs = draw(st.lists(st.integers(0, n + 1), min_size=1, max_size=3))
    return recipe, outs


def build(recipe, outs):
    def f(x, y):
        values = [x, y]
        for kind, fn, a, b in recipe:
            va, vb = values[a], values[b]
            if kind == "unary":
                values.append(fn(va))
            elif kind == "binary":
                values.append(fn(va, vb))
            elif kind == "view":
                values.append(ops.transpose(va) if b % 2 else
                              ops.reshape(ops.reshape(va, (16,)), (4, 4)))
            else:
                values.append(ops.add(ops.sum(va, axis=b % 2, keepdims=True), vb))
        return [values[i] for i in outs]
    x = np.linspace(-1, 1, 16).reshape(4, 4)
    return make_graph(f, x, x), [x, np.cos(x) * 0.7]


@settings(max_examples=60, deadline=None)
@given(programs())
def test_random_graphs_plan_soundly_and_run_like_evaluate(case):
    graph, args = build(*case)
    lowered = lower(graph)
    assert_sound(lowered)
    want = evaluate(graph, *args)
    for _ in range(2):
        got = lowered(*args)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


def test_arena_is_reused_between_values_that_never_meet():
    x = np.ones((64, 64), np.float32)
    g = make_graph(lambda x: ops.sum(ops.exp(ops.sum(ops.exp(x), axis=0)), axis=0), x)
    lowered = lower(g)
    # exp(x) dies into the sum; the second exp reuses the first sum's bytes
    assert lowered.memory["arena_bytes"] == lowered.memory["lower_bound"] == 64 * 64 * 4 + 256
    assert_sound(lowered)


def reuses(fn, x):
    """Names of the instructions that reuse an input's buffer in ``sum(fn(x))`` (the sum
    is the output, so ``fn``'s result is planned); ``fn`` may give extra outputs."""
    def total(x):
        out = fn(x)
        return [ops.sum(out[0])] + out[1:] if isinstance(out, list) else ops.sum(out)
    graph = make_graph(total, x)
    lowered = lower(graph)
    assert_sound(lowered)
    for a, b in zip(lowered(x), evaluate(graph, x)):
        np.testing.assert_array_equal(a, b)
    return [lowered.program.instructions[t].name for t, _, _ in lowered.plan.in_place]


X = np.linspace(-2, 2, 12).reshape(3, 4)


@pytest.mark.parametrize("fn, expected", [
    (lambda x: ops.tanh(ops.exp(x)), ["tanh"]),                       # a chain
    (lambda x: ops.add(ops.exp(x), ops.exp(x)), ["add"]),             # first operand dies
    (lambda x: ops.tanh(x), []),                                      # x is a graph input
    (lambda x: (lambda e: [ops.tanh(e), e])(ops.exp(x)), []),         # e is an output
    (lambda x: (lambda e: ops.add(ops.tanh(e), e))(ops.exp(x)), ["add"]),  # e read later
    (lambda x: (lambda e: ops.add(e, ops.flip(e)))(ops.exp(x)), []),  # a view of e read here
    (lambda x: (lambda e: ops.mul(ops.sin(e), ops.sum(ops.reshape(e, (12,)))))(ops.exp(x)),
     ["mul"]),                                                        # e's view read later
    (lambda x: ops.add(ops.sum(ops.exp(x), axis=0, keepdims=True), x), []),  # broadcast
    (lambda x: ops.cast(ops.exp(x), np.float32), []),                 # another dtype
    (lambda x: (lambda e: ops.where(ops.greater(x, 0), x, e))(ops.exp(x)), ["where"]),
    (lambda x: (lambda e: ops.where(ops.greater(x, 0), e, x))(ops.exp(x)), []),
])
def test_in_place_only_where_safe(fn, expected):
    assert reuses(fn, X) == expected


def test_in_place_can_be_turned_off_and_planning_too():
    g = make_graph(lambda x: ops.sum(ops.tanh(ops.exp(ops.neg(x)))), X)
    on, off, none = lower(g), lower(g, in_place=False), lower(g, plan=False)
    assert len(on.plan.in_place) == 2 and not off.plan.in_place
    # 96-byte values in 128-byte slots: one shared buffer, or two alternating ones
    assert on.memory["arena_bytes"] == 128 and off.memory["arena_bytes"] == 2 * 128
    assert none.memory["arena_bytes"] == 0 and not any(i.out for i in none.program.instructions)
    for lowered in (on, off, none):
        np.testing.assert_array_equal(lowered(X)[0], evaluate(g, X)[0])


def test_plan_over_hand_built_steps():
    # 1 = f(0); 2 = view(1); 3 = g(2); 4 = h(3): 1 lives through 2's use at step 2
    steps = [Step((0,), (1,), "out"), Step((1,), (2,), "view"), Step((2,), (3,), "out"),
             Step((3,), (4,), "out", (0,))]
    plan = plan_memory(steps, {1: 100, 3: 100, 4: 100}, {3: "k", 4: "k"}, outputs=(4,))
    assert set(plan.offsets) == {1, 3}            # 4 is the output: its own buffer
    assert plan.offsets[1] != plan.offsets[3]     # 1 (through 2) and 3 meet at step 2
    assert plan.in_place == [] and plan.arena_bytes == plan.lower_bound == 256
    assert plan.liveness.end[1] == 2 and plan.liveness.escaping == {4}
