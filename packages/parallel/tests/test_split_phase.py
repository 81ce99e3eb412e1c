"""The split-phase all-reduce (``all_reduce_start`` / ``all_reduce_wait``): eagerly and
compiled, its value is ``all_reduce``'s; a wait without its start is a named error."""
import numpy as np
import pytest

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.parallel.split_phase import all_reduce_start, all_reduce_wait
from sporeling.parallel.testing import run_local


@pytest.mark.parametrize("op", ["sum", "mean", "max"])
def test_start_then_wait_equals_all_reduce_eagerly_and_compiled(op):
    def rank():
        x = np.arange(6.0).reshape(2, 3) * (sp.get_rank() + 1)
        eager = all_reduce_wait(all_reduce_start(x, op), x, op)

        @sx.jit
        def compiled(t):
            token = all_reduce_start(t * 2, op)
            return all_reduce_wait(token, t * 2, op)
        return eager, compiled(sx.Tensor(x)).asnumpy(), sp.all_reduce(x, op)
    for eager, compiled, want in run_local(2, rank):
        np.testing.assert_allclose(eager, want)
        np.testing.assert_allclose(compiled, 2 * want)


def test_waiting_for_a_token_never_started_names_it():
    def rank():
        with pytest.raises(sp.CommunicatorError, match="no all-reduce started"):
            all_reduce_wait(np.array(12345678, np.int64), np.zeros(2))
    run_local(2, rank)
