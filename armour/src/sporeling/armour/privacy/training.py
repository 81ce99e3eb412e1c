"""A DP-SGD training loop (Poisson batches) and the callback reporting (ε, δ) per epoch.

``Model.train`` computes batch gradients, which DP-SGD cannot use, so private training runs
here; callbacks are ordinary ``sx.train`` callbacks (``on_train_epoch_end``/``epoch_end`` etc.), with
``cb_params`` carrying ``dp_optimizer`` and ``sampler`` besides the usual fields.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression.train.callbacks import Callback, CallbackParams, RunContext

from .accounting import compute_epsilon
from .errors import check_positive

__all__ = ["train_private", "PrivacyBudget"]


class PrivacyBudget(Callback):
    """After every epoch, ε for ``delta`` after the private steps taken so far; kept in
    ``history`` as ``(epoch, epsilon, delta)`` and printed when ``verbose``."""

    def __init__(self, delta: float = 1e-5, accountant: str = "rdp", verbose: bool = False):
        self.delta = check_positive(delta, "delta", "PrivacyBudget")
        self.accountant, self.verbose, self.history = accountant, verbose, []

    def epoch_end(self, run_context):
        cb = run_context.original_args()
        opt, sampler = cb.dp_optimizer, cb.sampler
        eps = compute_epsilon(opt.noise_multiplier, sampler.sample_rate, opt.steps,
                              self.delta, self.accountant, sampler.sampling)
        self.history.append((cb.cur_epoch_num, eps, self.delta))
        if self.verbose:
            print(f"epoch {cb.cur_epoch_num}: (ε, δ) = ({eps:.3f}, {self.delta:g})")


def train_private(dp_optimizer, sampler, x, y, epochs: int, callbacks=()) -> list:
    """``epochs`` epochs of DP-SGD on ``(x, y)`` with batches from ``sampler`` (a
    :class:`PoissonSampler` over ``len(x)``); returns the mean loss of each epoch."""
    x, y = np.asarray(x), np.asarray(y)
    cb = CallbackParams(epoch_num=epochs, batch_num=len(sampler), cur_epoch_num=0,
                        cur_step_num=0, dp_optimizer=dp_optimizer, sampler=sampler,
                        train_network=dp_optimizer.net, optimizer=dp_optimizer.optimizer,
                        net_outputs=None)
    ctx = RunContext(cb)
    for c in callbacks:
        c.on_train_begin(ctx)
    history = []
    for epoch in range(1, epochs + 1):
        cb.cur_epoch_num = epoch
        for c in callbacks:
            c.on_train_epoch_begin(ctx)
        losses = []
        for idx in sampler:
            loss = dp_optimizer.step(x[idx], y[idx])
            cb.cur_step_num += 1
            cb.net_outputs = loss
            for c in callbacks:
                c.on_train_step_end(ctx)
            if len(idx):
                losses.append(loss)
        history.append(float(np.mean(losses)) if losses else float("nan"))
        for c in callbacks:
            c.on_train_epoch_end(ctx)
        if ctx.get_stop_requested():
            break
    for c in callbacks:
        c.on_train_end(ctx)
    return history
