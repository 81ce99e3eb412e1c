"""Run by test_operator_mpi.py under mpiexec: a Megatron MLP and a Transformer block split
over real MPI ranks, outputs and gradients checked on each rank against one device's;
prints 'rank R of N: ok' at the end."""
import sys
from pathlib import Path

import numpy as np

import sporeling.parallel as sp
from sporeling.compiler import ops
from sporeling.compiler.autodiff import vjp

sys.path.insert(0, str(Path(__file__).parent))
from _parallel_models import block, block_args, mlp  # noqa: E402

sp.init()
n, rank = sp.get_group_size(), sp.get_rank()
assert sp.current().backend == "mpi"
rng = np.random.default_rng(0)  # the same data on every rank
x, w1, w2 = (rng.standard_normal(s) for s in ((8, 16), (16, 32), (32, 16)))
cases = [
    (lambda x, w1, w2: ops.mean(ops.square(
        mlp(x, w1, w2, col=((1, 1), (1, n)), row=((1, n), (n, 1))))), [x, w1, w2]),
    (lambda *a: ops.mean(block(*a, heads=4, annotate=n)), block_args(rng)),
]
for f, args in cases:
    loss, back = vjp(f, *args)
    ref = back(np.ones(()))
    outs, grads, _ = sp.shard(f).value_and_grad(*args)
    np.testing.assert_allclose(outs[0], loss, rtol=1e-10)
    for g, r in zip(grads, ref):
        np.testing.assert_allclose(g, r, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(sp.shard(f)(*args), loss, rtol=1e-10)
# auto_parallel: every process searches for itself, with rank 0's measured rates
sp.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="dynamic_programming")
f, args = cases[0]
np.testing.assert_allclose(sp.shard(f)(*args), f(*args), rtol=1e-10)
sp.reset_auto_parallel_context()
print(f"rank {rank} of {n}: ok", flush=True)
sp.release()
