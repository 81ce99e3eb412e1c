"""Run by test_backup_mpi.py under mpiexec: ``BackupAndRestore`` on real MPI ranks in data
parallel mode (each rank its own backups, named by the ``sporeling_rank`` hook).

``kill BACKUP_DIR``: rank 1 SIGKILLs itself after step 6, before backing it up (rank 0
backs step 6 up), so mpiexec ends the job. ``check BACKUP_DIR``: PyNative -- every rank
resumes from that backup (the newest step both ranks saved, 4) and ends with the weights
of an uninterrupted run; Graph -- the same after a failure raised on every rank at step 7.
Prints 'rank R of N: ok'."""
import os
import signal
import sys

import numpy as np

import sporeling.parallel as sp
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, generator, set_context, set_seed
from sporeling.expression import Parameter, nn, ops
from sporeling.expression.train import BackupAndRestore, Callback, Model

EPOCHS, SAVE_STEPS = 3, 2


class Died(Exception):
    pass


class DieAt(Callback):
    def __init__(self, step, kill):
        self.step, self.kill = step, kill

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            if self.kill:
                os.kill(os.getpid(), signal.SIGKILL)
            raise Died


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = Parameter(rng.standard_normal((4, 6)) * 0.5, name="w")
        self.v = Parameter(rng.standard_normal((6, 1)) * 0.5, name="v")

    def construct(self, x):
        return ops.matmul(ops.tanh(ops.matmul(x, self.w)), self.v)


class Shard:
    """This rank's rows of each batch of 8, in a new order each epoch drawn from (seed,
    epoch), with the iteration state a sporeling.data pipeline keeps."""

    def __init__(self, x, y):
        self.x, self.y = x, y
        self.seed, self.epoch = int(generator("data").integers(1 << 62)), 0

    def __len__(self):
        return len(self.x) // 8

    def __iter__(self):
        order = np.random.default_rng([self.seed, self.epoch]).permutation(len(self.x))
        self.epoch += 1
        for i in range(0, len(order), 8):
            rows = order[i:i + 8][rank::n]
            yield self.x[rows], self.y[rows]

    def state_dict(self):
        return {"seed": self.seed, "epoch": self.epoch}

    def load_state_dict(self, state):
        self.seed, self.epoch = state["seed"], state["epoch"]


def train(callbacks=()):
    """3 epochs of 4 steps on this rank's shard (batch 4 of 8), Adam on a schedule."""
    set_seed(11)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((32, 4))
    y = np.cos(x.sum(axis=1, keepdims=True))
    data = Shard(x, y)
    net = Net()
    schedule = list(np.linspace(0.05, 0.01, 12))
    Model(net, lambda o, t: ops.mean((o - t) ** 2),
          nn.Adam(net.trainable_params(), schedule)).train(EPOCHS, data, list(callbacks))
    return [p.asnumpy().copy() for p in net.trainable_params()]


def check(want, got, what):
    for a, b in zip(want, got):
        assert np.array_equal(a, b), f"rank {rank}, {what}: the resumed weights differ"


action, folder = sys.argv[1], sys.argv[2]
sp.init()
rank, n = sp.get_rank(), sp.get_group_size()
assert sp.current().backend == "mpi" and n == 2, sp.current()
sp.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
if action == "kill":
    set_context(mode=PYNATIVE_MODE)
    dying = [DieAt(6, kill=True)] if rank == 1 else []
    train(dying + [BackupAndRestore(folder, save_steps=SAVE_STEPS)])
    raise SystemExit("rank 1 should have been killed")  # pragma: no cover
set_context(mode=PYNATIVE_MODE)
want = train()
backup = BackupAndRestore(folder, save_steps=SAVE_STEPS)
check(want, train([backup]), "PyNative after SIGKILL")
assert backup.resumed_step == 4, backup.resumed_step
set_context(mode=GRAPH_MODE)
want = train()
graph_dir = os.path.join(folder, "graph")
try:
    train([BackupAndRestore(graph_dir, save_steps=SAVE_STEPS), DieAt(7, kill=False)])
except Died:
    pass
backup = BackupAndRestore(graph_dir, save_steps=SAVE_STEPS)
check(want, train([backup]), "Graph after a failure")
assert backup.resumed_step == 6, backup.resumed_step
sys.stdout.write(f"rank {rank} of {n}: ok\n")
