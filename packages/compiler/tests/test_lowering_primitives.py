"""Every primitive with a gradient case, lowered: the forward and backward graph of the case
runs as a planned program and equals the reference evaluator exactly (same kernels, arena
buffers of the abstract rule's shapes and dtypes, in-place reuse where the plan allows)."""
import numpy as np
import pytest

from sporeling.core import SporelingError

from sporeling.compiler import ops
from sporeling.compiler.autodiff import vjp
from sporeling.compiler.ir import evaluate, flatten, make_graph
from sporeling.compiler.lowering import lower

from grad_cases import all_cases
from test_lowering_plan import assert_sound

CASES = all_cases()


def _is_float(a) -> bool:
    return np.asarray(a).dtype.kind == "f"


def forward_backward(fn, args):
    """A graph giving ``fn``'s outputs (times one, so the primitive's own results are
    planned intermediates) and the vector-Jacobian product with fixed cotangents."""
    outs = flatten(fn(*args))[0]
    rng = np.random.default_rng(0)
    cts = [rng.standard_normal(np.shape(o)).astype(np.asarray(o).dtype) for o in outs]
    diff = [i for i, a in enumerate(args) if _is_float(a)]

    def step(*xs):
        out, back = vjp(fn, *xs)
        leaves, _ = flatten(out)
        grads = back(type(out)(cts) if isinstance(out, (tuple, list)) else cts[0])
        return ([ops.mul(o, 1.0) if _is_float(c) else o for o, c in zip(leaves, cts)] +
                [grads[i] for i in diff])
    return make_graph(step, *args)


@pytest.mark.parametrize("name, index", [(n, i) for n in sorted(CASES)
                                         for i in range(len(CASES[n]))])
def test_lowered_case_equals_evaluate(name, index):
    fn, args, *_ = CASES[name][index]
    args = [np.asarray(a, np.float64) if _is_float(a) else a for a in args]
    try:
        graph = forward_backward(fn, args)
    except SporelingError as exc:  # e.g. a boolean mask: a data-dependent shape
        pytest.skip(f"the case cannot be traced into a graph: {exc}")
    lowered = lower(graph)
    assert_sound(lowered)
    want = evaluate(graph, *args)
    for _ in range(2):
        got = lowered(*args)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            a, b = np.asarray(a), np.asarray(b)
            assert a.dtype == b.dtype and a.shape == b.shape, name
            np.testing.assert_array_equal(a, b, err_msg=name)
