"""``BackupAndRestore``: nothing lost when a training job dies (MindSpore's callback).

At the end of every ``save_freq`` epochs (and, ours, every ``save_steps`` steps) the whole
state of the run -- parameters, optimizer state, epoch and step, random states, the
dataset's position (:mod:`..training_state`) -- is written atomically to
``<backup_dir>/backup-rank<r>-step<s>.safetensors``. When training starts and a backup is
there, it is loaded and ``Model`` goes on after the step it was made at, skipping the
batches already trained on: a run killed at any point (``kill -9`` included) and started
again with the same script ends with the weights of an uninterrupted run, bit for bit.

Several ranks (``sporeling run -n N``) each write their own files (the rank comes from the
``sporeling_rank`` hook, which ``sporeling.parallel`` answers). Each rank keeps its two
newest backups, and a restart resumes every rank from the newest step all ranks saved: a
job killed between two ranks' saves of one step still resumes in agreement.

    >>> import numpy as np, tempfile
    >>> from sporeling.expression import nn
    >>> from sporeling.expression.optim import SGD
    >>> from sporeling.expression.train import Model, BackupAndRestore
    >>> net = nn.Dense(2, 1)
    >>> model = Model(net, nn.MSELoss(), SGD(net.trainable_params(), 0.1))
    >>> data = [(np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32))] * 3
    >>> model.train(2, data, callbacks=BackupAndRestore(tempfile.mkdtemp(), save_steps=1))
"""
from __future__ import annotations

import json
import os
import re

from sporeling.core import get_plugin_host

from ...serialization import SUFFIX, load_checkpoint, save_checkpoint
from ..batches import TrainError
from ..training_state import capture, dataset_state, restore
from .callback import Callback

__all__ = ["BackupAndRestore"]

_INFO = "sporeling.backup"  # the JSON entry holding the position and the random states
_KEEP = 2  # backups kept per rank: the newest may be one the other ranks never finished


def _backup_rank() -> int:
    """This process's (thread-rank's) rank, from a plugin answering ``sporeling_rank``."""
    caller = getattr(get_plugin_host().hook, "sporeling_rank", None)
    rank = None if caller is None else caller()
    return 0 if rank is None else int(rank)


def _check_count(name: str, value, least: int) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or
                              value < least):
        raise ValueError(f"For 'BackupAndRestore', '{name}' must be None or an int >= "
                         f"{least}, but got {value!r}.")


class BackupAndRestore(Callback):
    """Args:
        backup_dir: the folder of the backups (created when needed).
        save_freq: ``"epoch"`` (back up at the end of each epoch) or an int ``n`` (every
            ``n`` epochs).
        delete_checkpoint: remove this rank's backups when training ends.
        save_steps: (ours) also back up every this many steps (None: at epoch ends only).
        rank: (ours) the rank naming the files (None: the ``sporeling_rank`` hook's answer,
            0 without one).
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint: bool = True, *,
                 save_steps: int | None = None, rank: int | None = None):
        if not isinstance(backup_dir, (str, os.PathLike)):
            raise ValueError(f"For 'BackupAndRestore', 'backup_dir' must be a str, but got "
                             f"{type(backup_dir).__name__}.")
        if save_freq != "epoch" and (isinstance(save_freq, bool) or
                                     not isinstance(save_freq, int) or save_freq < 1):
            raise ValueError(f"For 'BackupAndRestore', 'save_freq' must be 'epoch' or an int "
                             f">= 1, but got {save_freq!r}.")
        if not isinstance(delete_checkpoint, bool):
            raise ValueError(f"For 'BackupAndRestore', 'delete_checkpoint' must be bool, but "
                             f"got {type(delete_checkpoint).__name__}.")
        _check_count("save_steps", save_steps, 1)
        _check_count("rank", rank, 0)
        self.backup_dir = os.path.abspath(os.fspath(backup_dir))
        self.save_freq = 1 if save_freq == "epoch" else save_freq
        self.delete_checkpoint = delete_checkpoint
        self.save_steps = save_steps
        self._rank = rank
        self._epoch_start_data = None  # the dataset's position where this epoch began
        self.resumed_step = None  # (ours) the step a run resumed after, None: from scratch

    @property
    def rank(self) -> int:
        return _backup_rank() if self._rank is None else self._rank

    # ---- files ---------------------------------------------------------------------------

    def _path(self, rank: int, step: int) -> str:
        return os.path.join(self.backup_dir, f"backup-rank{rank}-step{step}{SUFFIX}")

    def backups(self) -> dict[int, list[int]]:
        """``{rank: [steps backed up, oldest first]}`` of the files in ``backup_dir``."""
        pattern = re.compile(rf"backup-rank(\d+)-step(\d+){re.escape(SUFFIX)}\Z")
        found: dict[int, list[int]] = {}
        for name in os.listdir(self.backup_dir) if os.path.isdir(self.backup_dir) else ():
            match = pattern.match(name)
            if match:
                found.setdefault(int(match.group(1)), []).append(int(match.group(2)))
        return {rank: sorted(steps) for rank, steps in found.items()}

    def _resume_step(self, rank: int) -> int | None:
        """The newest step every rank backed up (None: no backup of this rank)."""
        found = self.backups()
        if rank not in found:
            if found:
                raise TrainError(f"rank {rank} has no backup but ranks {sorted(found)} do",
                                 op="BackupAndRestore", where=self.backup_dir,
                                 hint="resume with the ranks that made the backups, or "
                                      "remove them to start afresh")
            return None
        common = set.intersection(*(set(steps) for steps in found.values()))
        if not common:
            raise TrainError("the ranks' backups share no step", op="BackupAndRestore",
                             where=self.backup_dir,
                             got=", ".join(f"rank {r}: steps {s}" for r, s in found.items()),
                             hint="remove the backups to start afresh")
        return max(common)

    # ---- restoring -----------------------------------------------------------------------

    def on_train_begin(self, run_context):
        cb = run_context.original_args()
        rank = self.rank
        step = self._resume_step(rank)
        self.resumed_step = None
        self._epoch_start_data = dataset_state(cb.train_dataset)
        if step is None:
            return
        path = self._path(rank, step)
        saved = load_checkpoint(path)
        try:
            info = json.loads(saved.pop(_INFO))
            position = {k: int(info["position"][k]) for k in ("epoch", "step_in_epoch", "step")}
        except (KeyError, TypeError, ValueError) as exc:
            raise TrainError("not a backup of a training run", op="BackupAndRestore",
                             where=path, expected=f"a JSON {_INFO!r} entry with the position",
                             got=f"{type(exc).__name__}: {exc}") from None
        arrays = {name: p.asnumpy() for name, p in saved.items()}
        restore(cb.train_network, cb.optimizer, cb.train_dataset, arrays, info, path)
        cb.cur_epoch_num = position["epoch"]
        cb.cur_step_in_epoch = position["step_in_epoch"]
        cb.cur_step_num = position["step"]
        self._epoch_start_data = info["dataset"]
        self.resumed_step = position["step"]

    # ---- saving --------------------------------------------------------------------------

    def on_train_epoch_begin(self, run_context):
        self._epoch_start_data = dataset_state(run_context.original_args().train_dataset)

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if self.save_steps and cb.cur_step_num % self.save_steps == 0:
            # resuming from here replays this epoch from its start, skipping the steps done
            self._save(cb, cb.cur_epoch_num, cb.cur_step_in_epoch, self._epoch_start_data)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        if cb.cur_epoch_num % self.save_freq == 0:
            self._save(cb, cb.cur_epoch_num, 0, dataset_state(cb.train_dataset))

    def _save(self, cb, epoch: int, step_in_epoch: int, data) -> None:
        position = {"epoch": int(epoch), "step_in_epoch": int(step_in_epoch),
                    "step": int(cb.cur_step_num)}
        arrays, info = capture(cb.train_network, cb.optimizer, data, position)
        rank = self.rank
        os.makedirs(self.backup_dir, exist_ok=True)
        save_checkpoint(arrays, self._path(rank, position["step"]),
                        append_dict={_INFO: json.dumps(info)})
        for old in self.backups().get(rank, [])[:-_KEEP]:
            self._remove(rank, old)

    def _remove(self, rank: int, step: int) -> None:
        try:
            os.remove(self._path(rank, step))
        except FileNotFoundError:
            pass

    def on_train_end(self, run_context):
        if self.delete_checkpoint:
            self.remove_backups()

    def remove_backups(self) -> None:
        """(ours) Remove this rank's backups: what ``delete_checkpoint`` does when training
        ends, for a script that removes them only once its own results are saved."""
        rank = self.rank
        for step in self.backups().get(rank, []):
            self._remove(rank, step)
