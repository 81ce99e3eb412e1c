"""``sporeling train``: the main job -- train a digits classifier, report test accuracy,
save a checkpoint.

    sporeling train                       # LeNet-5 style CNN, PyNative mode
    sporeling train --model mlp --epochs 20
    sporeling train --mode graph          # the same, each step one compiled graph
    sporeling train --backend numba       # kernels of an installed backend plugin
    sporeling train --backup-dir backup   # killed? the same command resumes the run

In Graph mode the loss and its gradients (forward and backward) are one compiled graph,
compiled once; the optimizer's update stays eager NumPy; evaluation compiles the network.
BLAS runs on one thread for the run (the matrices are too small to share).

Nothing is lost: the options and the output folder are checked before any work
(:mod:`.train_args`); a run whose loss or weights become non-finite saves nothing and exits
1; Ctrl-C stops with one line saying where, saves nothing and exits 130. In both cases a
previous checkpoint stays as it was. With ``--backup-dir`` the run is backed up as it goes
(``BackupAndRestore``: weights, optimizer state, position, random states, data order), and
the same command after a crash (``kill -9`` included) resumes it: it ends with the weights
of an uninterrupted run, bit for bit.
"""
from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from pathlib import Path

import numpy as np

from .train_args import MODELS, checkpoint_path, checkpoint_path_problem, configure

__all__ = ["MODELS", "configure", "run"]

INTERRUPTED = 130  # the shell's status for a command ended by SIGINT (128 + 2)


class _CtrlC:
    """Ctrl-C latched and acted on between steps. Python's own KeyboardInterrupt lands at
    any bytecode -- inside a tensor's finalizer it is printed and ignored, and training
    goes on -- so the first Ctrl-C only sets a flag that :meth:`check` turns into a
    KeyboardInterrupt at a safe point; a second one interrupts at once."""

    def __init__(self):
        self.count, self._previous = 0, None

    def __enter__(self):
        self._previous = None
        try:
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # e.g. under nohup
                self._previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: Python's default handling stays
            pass
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum, frame):
        self.count += 1
        if self.count > 1:
            raise KeyboardInterrupt

    def check(self) -> None:
        if self.count:
            raise KeyboardInterrupt


class _Where:
    """How far the run got, for the Ctrl-C message."""

    def __init__(self, epochs: int):
        self.stage, self.epoch, self.epochs, self.step, self.steps = "starting", 0, epochs, 0, 0
        self.saved = False

    def __str__(self) -> str:
        if self.stage == "training" and self.epoch:
            steps = f" of {self.steps}" if self.steps else ""
            return f"in epoch {self.epoch}/{self.epochs} (step {self.step}{steps})"
        if self.stage == "evaluating":
            return f"while evaluating, after {self.epochs} epochs"
        return f"while {self.stage}"


def _tracker(sx, where: _Where, ctrl_c: _CtrlC):
    """A callback that records the position, acts on Ctrl-C between steps and stops at the
    first non-finite loss."""
    class Tracker(sx.train.Callback):
        diverged_at = None

        def on_train_epoch_begin(self, run_context):
            cb = run_context.original_args()
            where.epoch, where.step, where.steps = cb.cur_epoch_num, 0, cb.get("batch_num") or 0

        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            where.step = cb.cur_step_in_epoch
            outputs = cb.net_outputs[0] if isinstance(cb.net_outputs, tuple) else cb.net_outputs
            value = outputs.asnumpy()  # one float: np.mean's machinery costs microseconds
            loss = float(value.item() if value.size == 1 else np.mean(value))
            if not math.isfinite(loss):
                self.diverged_at = (f"the loss became non-finite ({loss}) in epoch "
                                    f"{where.epoch}, step {where.step}")
                run_context.request_stop()  # every later step would be wasted
            ctrl_c.check()

        def on_eval_step_end(self, run_context):
            ctrl_c.check()

    return Tracker()


def run(args: argparse.Namespace) -> int:
    path = checkpoint_path(args)
    problem = checkpoint_path_problem(path)
    if problem:
        print(f"sporeling train: error: argument --output: {problem}", file=sys.stderr)
        return 2
    where = _Where(args.epochs)
    bars = []
    try:
        with _CtrlC() as ctrl_c:
            import sporeling.expression as sx

            from threadpoolctl import threadpool_limits  # scikit-learn's dependency

            mode = sx.GRAPH_MODE if args.mode == "graph" else sx.PYNATIVE_MODE
            chosen = {} if args.backend is None else {"backend": args.backend}
            from sporeling.runtime import get_backend

            # the job's tensors are tiny (32x400 @ 400x120, 32x32x4x4 convolutions): BLAS
            # and OpenMP (oneDNN) threads only wait for a core each call (4 LeNet epochs on
            # a busy machine: 39.8 s with BLAS's threads, 7.2 s on one; a 32x1x8x8 oneDNN
            # convolution 452 us on two OpenMP threads, 94 us on one), as in the zoo's recipes
            with sx.context(mode=mode, **chosen):
                get_backend()  # its libraries loaded, so that the limits reach them
                with threadpool_limits(limits=1):
                    return _train(args, sx, path, where, bars, ctrl_c)
    except KeyboardInterrupt:
        for bar in bars:
            bar.close()
        kept = f"{path} left as it was" if path.exists() else "no checkpoint written"
        saved = f"checkpoint saved: {path}" if where.saved else f"nothing saved ({kept})"
        resume = "" if where.saved or args.backup_dir is None else \
            f"; the same command resumes from the backup in {args.backup_dir}"
        print(f"sporeling train: interrupted {where}; {saved}{resume}", file=sys.stderr)
        return INTERRUPTED


def _non_finite(net) -> list[str]:
    return [p.name for _, p in net.parameters_and_names()
            if not np.isfinite(p.asnumpy()).all()]


def _train(args: argparse.Namespace, sx, path: Path, where: _Where, bars: list,
           ctrl_c: _CtrlC) -> int:
    from sporeling.core import set_seed

    import sporeling.data as sd

    from .datasets import load_digits_split
    from .registry import create_model

    where.stage = "loading the data"
    set_seed(args.seed)
    split = load_digits_split(seed=args.seed)
    net = create_model(MODELS[args.model])
    loss_fn = sx.nn.CrossEntropyLoss()
    steps_per_epoch = -(-len(split.train_y) // args.batch_size)
    schedule = sx.nn.cosine_decay_lr(0.02 * args.lr, args.lr, steps_per_epoch * args.epochs,
                                     steps_per_epoch, args.epochs)
    optimizer = sx.nn.Adam(net.trainable_params(), learning_rate=schedule)
    model = sx.Model(net, loss_fn=loss_fn, optimizer=optimizer, metrics={"acc"})
    tracker = _tracker(sx, where, ctrl_c)
    backup = [] if args.backup_dir is None else [
        # removed once the checkpoint is saved: a kill before that still resumes at the end
        sx.train.BackupAndRestore(str(args.backup_dir), delete_checkpoint=False,
                                  save_steps=args.backup_steps)]
    bars += [] if args.no_progress else [sx.train.ProgressBar()]
    # the input pipeline: shuffled anew every epoch (seeded by set_seed), batched
    train_data = sd.NumpySlicesDataset((split.train_x, split.train_y), ["image", "label"]) \
        .shuffle(len(split.train_y)).batch(args.batch_size)
    ctrl_c.check()
    where.stage = "training"
    start = time.perf_counter()
    # NumPy's overflow warnings would bury the one clear message a diverged run ends with
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        model.train(args.epochs, train_data, callbacks=backup + [tracker] + bars)
    seconds = time.perf_counter() - start
    bad = _non_finite(net)
    if tracker.diverged_at or bad:
        from sporeling.expression.train.batches import TrainError
        kept = f"{path} left as it was" if path.exists() else "no checkpoint written"
        what = "; ".join(filter(None, [
            tracker.diverged_at,
            bad and f"{len(bad)} parameters hold non-finite values ({', '.join(bad[:4])}"
                    f"{', ...' if len(bad) > 4 else ''})"]))
        raise TrainError(f"training diverged with --lr {args.lr:g}: {what}; nothing saved "
                         f"({kept})", hint="lower --lr (or check the data); a checkpoint of "
                                           "non-finite weights is never written")
    ctrl_c.check()
    where.stage = "evaluating"
    result = model.eval(sd.NumpySlicesDataset((split.test_x, split.test_y),
                                              ["image", "label"]).batch(256), [tracker])
    ctrl_c.check()
    where.stage = "saving the checkpoint"  # not interruptible: whole or not at all
    path.parent.mkdir(parents=True, exist_ok=True)
    sx.save_checkpoint(net, str(path))
    where.saved = True
    for b in backup:
        b.remove_backups()
    ctrl_c.check()
    where.stage = "reporting"
    from sporeling.runtime.backend import get_backend
    backend = get_backend().name
    if args.mode == "graph":  # at jit_level O2 (the default) Graph mode lowers on the native one
        from sporeling.compiler.jit_levels import native_backend
        from sporeling.core import get_context
        if get_context("jit_level") == "O2":
            backend = native_backend(asked=False) or backend
    print(f"model {args.model}: {args.epochs} epochs in {seconds:.1f} s "
          f"({len(split.train_y)} training images, {args.mode} mode, {backend} backend)")
    if backup and backup[0].resumed_step is not None:
        print(f"resumed after step {backup[0].resumed_step} from {args.backup_dir}")
    print(f"test accuracy: {100 * result['acc']:.2f}% on {len(split.test_y)} images")
    print(f"checkpoint: {path}")
    return 0
