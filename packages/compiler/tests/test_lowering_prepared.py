"""A backend's ``prepare_kernels`` sees a program's calls before it first runs, and may
return a kernel prepared for each (its params bound): the program calls that instead."""
import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower
from sporeling.runtime import NumpyBackend
from sporeling.runtime.executor import run


class PreparingBackend(NumpyBackend):
    """NumPy's kernels; a sum gets a kernel of its own, made for its call."""

    def __init__(self):
        super().__init__()
        self.seen, self.ran = [], []

    def prepare_kernels(self, calls):
        self.seen = list(calls)

        def prepare(primitive, params, specs):
            if primitive != "sum":
                return None

            def summed(backend, x, out=None):  # params bound: the call passes none
                self.ran.append((x.shape, specs))
                return np.sum(x, axis=params["axis"])
            return summed
        return [prepare(*call) for call in calls]


def test_a_prepared_kernel_runs_in_place_of_the_backends_with_its_params_bound():
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    graph = make_graph(lambda x: ops.sum(ops.exp(ops.mul(x, 0.5)), axis=1), x)
    backend = PreparingBackend()
    program = lower(graph, backend=backend).program
    assert [call[0] for call in backend.seen] == [ins.name for ins in program.instructions]
    bound = [ins for ins in program.instructions if ins.bound]
    assert [ins.name for ins in bound] == ["sum"]
    assert bound[0].params == {"axis": (1,), "keepdims": False}  # kept for reports
    (y,) = run(program, [x])
    np.testing.assert_allclose(y, np.exp(x * 0.5).sum(1), rtol=1e-6)
    assert backend.ran == [((2, 4), (((2, 4), np.dtype(np.float32)),))]


def test_a_backend_that_prepares_nothing_keeps_its_kernels():
    class Nothing(NumpyBackend):
        def prepare_kernels(self, calls):
            return None
    x = np.ones(3, np.float32)
    program = lower(make_graph(lambda x: ops.exp(x), x), backend=Nothing()).program
    assert not any(ins.bound for ins in program.instructions)
    np.testing.assert_allclose(run(program, [x])[0], np.exp(x))
