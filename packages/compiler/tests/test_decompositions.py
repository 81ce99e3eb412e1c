"""Issue 21: how a primitive lowers lives on its record. A backend implements the core set;
lowering replaces every other primitive it has no kernel for by the primitive's
decomposition (traced into the graph), and gives the same numbers as NumPy's kernels."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sporeling.compiler import ops, primitives
from sporeling.compiler.core import Aval, MissingRuleError, Primitive, bind
from sporeling.compiler.core.core_set import core_primitives, is_core
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.lowering import decompose, lower
from sporeling.compiler.passes import optimize
from sporeling.compiler.testing import core_only_backend
from sporeling.core import SporelingError
from sporeling.runtime import get_backend
from sporeling.runtime.kernels import NUMPY_KERNELS

LABELS = np.array([0, 2, 4, 1, 4, 3])  # 6 targets of 5 classes

CASES = {
    "relu": lambda x: ops.relu(x),
    "leaky_relu": lambda x: ops.leaky_relu(x, 0.1),
    "sigmoid": lambda x: ops.sigmoid(x),
    "silu": lambda x: ops.silu(x),
    "softplus": lambda x: ops.softplus(x, 2.0, 3.0),
    "gelu": lambda x: ops.gelu(x),
    "gelu_tanh": lambda x: ops.gelu(x, "tanh"),
    "square": lambda x: ops.square(x),
    "reciprocal": lambda x: ops.reciprocal(ops.add(ops.abs(x), 1.0)),
    "rsqrt": lambda x: ops.rsqrt(ops.add(ops.abs(x), 1.0)),
    "pow_scalar": lambda x: ops.pow(x, 3),
    "clip_scalar": lambda x: ops.clip(x, -0.5, 0.7),
    "clip": lambda x: ops.clip(x, ops.mul(x, 0.5), 0.7 * np.ones(5, x.dtype)),
    "mean": lambda x: ops.mean(x, 0),
    "var": lambda x: ops.var(x, 1, ddof=1, keepdims=True),
    "std": lambda x: ops.std(x),
    "logsumexp": lambda x: ops.logsumexp(x, 1),
    "softmax": lambda x: ops.softmax(x, 0),
    "log_softmax": lambda x: ops.log_softmax(x),
    "normalize": lambda x: ops.layer_norm(x, (5,)),
    "softmax_cross_entropy": lambda x: ops.cross_entropy(x, LABELS),
    "softmax_cross_entropy_none": lambda x: ops.cross_entropy(x, LABELS, reduction="none"),
    "softmax_cross_entropy_ignored": lambda x: ops.cross_entropy(x, LABELS, reduction="sum",
                                                                 ignore_index=4),
}


def _grad_of(f):
    """f's value and its gradient (relu_grad, sigmoid_grad, tanh_grad, the cross-entropy
    gradient kernel...)."""
    from sporeling.compiler.autodiff import value_and_grad
    return lambda x: value_and_grad(lambda v: ops.sum(ops.tanh(f(v))))(x)


@pytest.fixture(scope="module")
def core():
    with core_only_backend() as backend:
        yield backend


def _values(draw_shape=(6, 5)):
    return st.sampled_from([np.float32, np.float64]).flatmap(
        lambda dtype: st.lists(st.floats(-30, 30, allow_nan=False, width=32),
                               min_size=30, max_size=30).map(
            lambda v: np.asarray(v, dtype).reshape(draw_shape)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # std's gradient at 0, in both
@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=15, deadline=None)
@given(x=_values())
def test_on_the_core_set_a_decomposed_graph_gives_numpys_numbers(core, name, x):
    for f in (CASES[name], _grad_of(CASES[name])):
        graph = make_graph(f, x)
        lowered = lower(graph, backend=core)
        assert {i.name for i in lowered.program.instructions} <= core_primitives()
        want = lower(graph, backend=get_backend("numpy"))(x)
        tol = 2e-5 if x.dtype == np.float32 else 1e-12
        for w, g in zip(want, lowered(x)):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_fused_chains_decompose_into_their_nodes(core):
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    graph = optimize(make_graph(lambda v: ops.sum(ops.sigmoid(ops.add(ops.mul(v, 2.0), 1.0))),
                                x))
    assert "fused_elementwise" in [eq.prim.name for eq in graph.equations]
    lowered = lower(graph, backend=core)
    assert "fused_elementwise" not in {i.name for i in lowered.program.instructions}
    np.testing.assert_allclose(lowered(x)[0], evaluate(graph, x)[0], rtol=1e-6)


def test_a_backends_own_kernel_wins_over_the_decomposition():
    graph = make_graph(lambda v: ops.softmax(ops.sigmoid(v)), np.ones((2, 3), np.float32))
    assert decompose(graph, get_backend("numpy")) is graph
    assert [i.name for i in lower(graph).program.instructions] == ["sigmoid", "softmax"]


def test_decomposed_equations_keep_the_users_line(core):
    graph = make_graph(lambda v: ops.softmax(v), np.ones((2, 3), np.float32))
    (source,) = {eq.source for eq in graph.equations}
    assert {eq.source for eq in decompose(graph, core).equations} == {source}
    assert source and "test_decompositions.py" in source


def test_no_kernel_and_no_decomposition_is_a_missing_rule_error(core):
    graph = make_graph(lambda a, b: ops.einsum("ij,jk->ik", a, b), np.ones((2, 3)),
                       np.ones((3, 2)))
    assert not is_core("einsum") and primitives()["einsum"].decomposition is None
    with pytest.raises(MissingRuleError, match="einsum.*core_only") as info:
        lower(graph, backend=core)
    assert "def_decomposition" in str(info.value)


def test_a_decomposition_using_a_primitive_the_backend_lacks_names_that_one(core):
    prim = Primitive("test_decomposes_into_einsum")
    prim.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))
    prim.def_decomposition(lambda x: ops.einsum("ij->ij", x))
    graph = make_graph(lambda v: bind(prim, v), np.ones((2, 2)))
    with pytest.raises(MissingRuleError, match="einsum"):
        lower(graph, backend=core)


def test_a_decomposition_disagreeing_with_the_abstract_rule_is_refused(core):
    prim = Primitive("test_bad_decomposition")
    prim.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))
    prim.def_decomposition(lambda x: ops.sum(x))  # a scalar, not x's shape
    graph = make_graph(lambda v: bind(prim, v), np.ones((2, 2), np.float32))
    with pytest.raises(SporelingError, match="test_bad_decomposition.*abstract rule") as info:
        lower(graph, backend=core)
    assert "float32[2, 2]" in str(info.value) and "float32[]" in str(info.value)


def test_a_decomposition_returning_an_operand_passes_it_through(core):
    prim = Primitive("test_identity_decomposition", multiple_results=True)
    prim.def_abstract_eval(lambda x: (Aval(tuple(x.shape), x.dtype),) * 2)
    prim.def_decomposition(lambda x: (x, ops.mul(x, 2.0)))
    x = np.arange(3, dtype=np.float32)
    graph = make_graph(lambda v: [ops.add(out, 1.0) for out in bind(prim, v)], x)
    got = lower(graph, backend=core)(x)
    np.testing.assert_array_equal(got[0], x + 1)
    np.testing.assert_array_equal(got[1], 2 * x + 1)


def test_the_core_set_is_a_trait_of_the_record():
    """Declared where a primitive is defined, not listed elsewhere: a new one may join."""
    mine = Primitive("test_core_member", core=True)
    assert is_core(mine) and not is_core(Primitive("test_not_core"))
    assert is_core("add") and not is_core("softmax") and not is_core("no_such_primitive")
    assert "test_core_member" not in core_primitives()  # registered primitives only


def test_the_core_set_is_defined_primitives_with_numpy_kernels():
    prims = primitives()
    core = core_primitives()
    assert len(core) >= 80 and core <= set(NUMPY_KERNELS)
    assert all(name in prims for name in core)
    for name, prim in prims.items():  # a core primitive is never decomposed
        assert not (is_core(prim) and prim.decomposition is not None), name


def test_lowering_and_fresh_values_are_traits_of_the_record():
    prim = Primitive("test_fresh_tick", fresh_per_run=True, nondeterministic=True)
    prim.def_abstract_eval(lambda: Aval((), np.dtype(np.int64)))
    counter = iter(range(100))
    prim.def_impl(lambda: np.int64(next(counter)))
    assert prim.fresh_per_run and not primitives()["add"].fresh_per_run
    graph = make_graph(lambda v: ops.add(v, bind(prim)), np.int64(0))
    assert [eq.prim.name for eq in graph.equations] == ["test_fresh_tick", "add"]
    lowered = lower(graph)
    assert [int(lowered(np.int64(0))[0]) for _ in range(3)] == [0, 1, 2]  # new each run
    assert primitives()["cond"].lowering is not None and prim.lowering is None


def test_control_flow_bodies_decompose_too(core):
    from sporeling.compiler.ops.control import fori_loop
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    graph = make_graph(lambda v: fori_loop(0, 3, lambda i, a: ops.softmax(ops.sigmoid(a)), v), x)
    lowered = lower(graph, backend=core)
    body = {i.name for sub in lowered.sub_programs for i in sub.program.instructions}
    assert body and body <= core_primitives()
    np.testing.assert_allclose(lowered(x)[0], evaluate(graph, x)[0], rtol=1e-6)
