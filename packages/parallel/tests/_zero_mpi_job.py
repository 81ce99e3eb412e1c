"""Run by test_zero_mpi.py under mpiexec: data parallel with a sharded Adam (ZeRO-1,
local gradients reduce-scattered) trains an MLP for 3 steps; parameters checked against
one device on every rank; prints 'rank R of N: ok' and the state bytes."""
import sys
from pathlib import Path

import numpy as np

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.expression import nn
from sporeling.expression.optim import Adam
from sporeling.parallel.zero import ShardedOptimizer, parallel_optimizer

sys.path.insert(0, str(Path(__file__).parent))
from _pipeline_models import data, mlp, params  # noqa: E402

sp.init()
n, rank = sp.get_group_size(), sp.get_rank()
assert sp.current().backend == "mpi"
x, y = data(batch=16)

one = mlp()
step1 = nn.TrainOneStepCell(nn.WithLossCell(one, nn.MSELoss()),
                            Adam(one.trainable_params(), 0.01))
for _ in range(3):
    step1(x, y)
want = params(one)

sp.set_auto_parallel_context(enable_parallel_optimizer=True)
net = mlp()
opt = parallel_optimizer(Adam(net.trainable_params(), 0.01), reduce_gradients="mean")
assert isinstance(opt, ShardedOptimizer)
vg = sx.value_and_grad(nn.WithLossCell(net, nn.MSELoss()), None, opt.parameters)
part = len(x) // n
for _ in range(3):
    _loss, grads = vg(x[rank * part:(rank + 1) * part], y[rank * part:(rank + 1) * part])
    opt(grads)
got = params(net)
for name, w in want.items():
    np.testing.assert_allclose(got[name], w, rtol=0, atol=1e-10, err_msg=name)
m = opt.memory_report()
assert m["ratio"] <= 1 / n + 0.05, m
print(f"rank {rank} of {n}: ok state_bytes={m['state_bytes']} "
      f"unsharded={m['unsharded_state_bytes']}", flush=True)
sp.reset_auto_parallel_context()
sp.release()
