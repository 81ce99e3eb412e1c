"""Run by test_pipeline_mpi.py under mpiexec: a 2-stage 1F1B pipeline trains an MLP for 3
SGD-momentum steps; each rank checks its stage's parameters and the losses against one
device (computed on every rank); prints 'rank R of N: ok' and its bubble figures."""
import sys
from pathlib import Path

import numpy as np

import sporeling.parallel as sp
from sporeling.expression import nn
from sporeling.expression.optim import SGD
from sporeling.parallel.pipeline import PipelineCell, PipelineTrainOneStepCell

sys.path.insert(0, str(Path(__file__).parent))
from _pipeline_models import data, mlp, params  # noqa: E402

sp.init()
n, rank = sp.get_group_size(), sp.get_rank()
assert sp.current().backend == "mpi"
x, y = data()

one = mlp()
step1 = nn.TrainOneStepCell(nn.WithLossCell(one, nn.MSELoss()),
                            SGD(one.trainable_params(), 0.1, momentum=0.9))
want_losses = [float(step1(x, y)) for _ in range(3)]
want = params(one)

sp.set_auto_parallel_context(pipeline_stages=n)
net = mlp(stages=[0, 0, 1, 1, 1] if n == 2 else [0, 1, 2, 3, 3])
pipe = PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro_size=4)
step = PipelineTrainOneStepCell(pipe, SGD(net.trainable_params(), 0.1, momentum=0.9))
losses = [float(step(x, y)) for _ in range(3)]
np.testing.assert_allclose(losses, want_losses, rtol=0, atol=1e-10)
layers = [i for i, s in enumerate([0, 0, 1, 1, 1] if n == 2 else [0, 1, 2, 3, 3]) if s == rank]
got = params(net)
for name, w in want.items():
    if int(name.split(".")[0]) in layers:
        np.testing.assert_allclose(got[name], w, rtol=0, atol=1e-10, err_msg=name)
r = pipe.last_report
print(f"rank {rank} of {n}: ok stage={r.stage} bubble={r.bubble_fraction:.3f} "
      f"idle={r.idle_fraction:.3f}", flush=True)
sp.reset_auto_parallel_context()
sp.release()
