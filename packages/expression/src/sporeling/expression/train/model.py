"""``Model``: training, evaluation and prediction around a network (MindSpore's
``train.Model``).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> from sporeling.expression.optim import Adam
    >>> from sporeling.expression.train import Model
    >>> net = nn.Dense(2, 2)
    >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    >>> model = Model(net, loss, Adam(net.trainable_params(), 0.05), metrics={"acc"})
    >>> x = np.array([[1, 0], [0, 1]] * 8, np.float32); y = np.array([0, 1] * 8, np.int32)
    >>> data = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 16, 4)]
    >>> model.train(5, data)
    >>> model.eval(data)
    {'acc': 1.0}

A dataset is any iterable of batches -- tuples ``(data, label)``, dicts (columns in key
order) or single arrays -- iterated afresh each epoch; a callable returning an iterator
works too. ``dataset_sink_mode=True`` falls back to ordinary steps (as MindSpore does on
CPU). Training runs eagerly, step by step.
"""
from __future__ import annotations

import warnings

from .batches import (TrainError, as_inputs, check_dataset, dataset_size, epoch_batches,
                      skip_batches)
from .callbacks import CallbackList, CallbackParams, RunContext
from .callbacks._values import loss_value
from .cell_wrappers import TrainOneStepCell, WithEvalCell, WithLossCell
from .metrics import Loss, get_metrics

__all__ = ["Model"]


class Model:
    """Args:
        network: the network (returns predictions; or the loss when no ``loss_fn`` is given;
            or does a whole training step when neither ``loss_fn`` nor ``optimizer`` is).
        loss_fn: ``loss_fn(outputs, label)``.
        optimizer: an Optimizer over the network's parameters.
        metrics: a set of names (``{"acc", "loss", "top_5_accuracy", ...}``) or a dict
            ``{name: Metric}``, computed by ``eval``.
        eval_network: the network ``eval`` runs; with ``eval_indexes`` ``[loss, pred,
            label]`` saying which outputs feed ``Loss`` and the other metrics.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None,
                 eval_network=None, eval_indexes=None):
        if network is None:
            raise TypeError("Model: network must not be None")
        if eval_indexes is not None and (not isinstance(eval_indexes, (list, tuple)) or
                                         len(eval_indexes) != 3):
            raise ValueError(f"Model: eval_indexes must be [loss, prediction, label] "
                             f"indexes, got {eval_indexes!r}")
        self._network, self._loss_fn, self._optimizer = network, loss_fn, optimizer
        self._metric_fns = get_metrics(metrics)
        if optimizer is not None:
            with_loss = WithLossCell(network, loss_fn) if loss_fn is not None else network
            self._train_network = TrainOneStepCell(with_loss, optimizer)
        elif loss_fn is not None:
            self._train_network = None  # a loss without an optimizer cannot train
        else:
            self._train_network = network
        if eval_network is not None:
            self._eval_network, self._eval_indexes = eval_network, eval_indexes
        elif loss_fn is not None:
            self._eval_network, self._eval_indexes = WithEvalCell(network, loss_fn), [0, 1, 2]
        else:
            self._eval_network, self._eval_indexes = None, None

    train_network = property(lambda self: self._train_network,
                             doc="The cell one training step calls.")
    eval_network = property(lambda self: self._eval_network,
                            doc="The cell evaluation calls (None: the network itself).")
    predict_network = property(lambda self: self._network, doc="The network.")

    # ---- training -------------------------------------------------------------------------

    def train(self, epoch: int, train_dataset, callbacks=None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train for epochs ``initial_epoch + 1 .. epoch`` over ``train_dataset``."""
        self._run(epoch, train_dataset, callbacks, dataset_sink_mode, initial_epoch,
                  None, 1, None)

    def fit(self, epoch: int, train_dataset, valid_dataset=None, valid_frequency: int = 1,
            callbacks=None, dataset_sink_mode: bool = False, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs; the
        results reach callbacks as ``cb_params.eval_results`` before ``on_train_epoch_end``
        (what ``EarlyStopping`` monitors)."""
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, int) or \
                valid_frequency < 1:
            raise ValueError(f"Model.fit: valid_frequency must be an int >= 1, got "
                             f"{valid_frequency!r}")
        if valid_dataset is not None and not self._metric_fns:
            raise TrainError("evaluation needs metrics", op="Model.fit",
                             hint="pass metrics={'loss', 'acc', ...} to Model")
        self._run(epoch, train_dataset, callbacks, dataset_sink_mode, initial_epoch,
                  valid_dataset, valid_frequency, callbacks)

    def _run(self, epoch, dataset, callbacks, sink, initial_epoch, valid, valid_every,
             eval_callbacks):
        where = "Model.train"
        if self._train_network is None:
            raise TrainError("cannot train without an optimizer", op=where,
                             hint="pass optimizer= to Model")
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch < 1:
            raise ValueError(f"{where}: epoch must be an int >= 1, got {epoch!r}")
        if not 0 <= initial_epoch < epoch:
            raise ValueError(f"{where}: initial_epoch must be in [0, epoch), got "
                             f"{initial_epoch!r}")
        check_dataset(dataset, epoch - initial_epoch, where)
        if sink:
            warnings.warn("dataset_sink_mode is not supported; training step by step",
                          stacklevel=3)
        cbs = CallbackList(callbacks)
        net = self._train_network
        cb = CallbackParams(
            train_network=net, network=self._network, optimizer=self._optimizer,
            loss_fn=self._loss_fn, epoch_num=epoch, batch_num=dataset_size(dataset),
            cur_epoch_num=initial_epoch, cur_step_num=0, cur_step_in_epoch=0,
            net_outputs=None, train_dataset=dataset, mode="train", list_callback=cbs,
            dataset_sink_mode=False, train_loss=None, eval_results=None)
        ctx = RunContext(cb)
        net.set_train(True)
        cbs.on_train_begin(ctx)
        # a callback resuming a run (BackupAndRestore) has moved the position: go on after
        # step cur_step_in_epoch of epoch cur_epoch_num (0: after that whole epoch)
        done_epochs, done_steps = cb.cur_epoch_num, cb.cur_step_in_epoch
        if done_steps:
            done_epochs -= 1
        for e in range(done_epochs + 1, epoch + 1):
            cb.cur_epoch_num, cb.cur_step_in_epoch, cb.train_loss = e, 0, None
            cbs.on_train_epoch_begin(ctx)
            total, stop = 0.0, False
            batches = epoch_batches(dataset, e, where)
            if done_steps:
                skip_batches(batches, done_steps, e, where)
                cb.cur_step_in_epoch, done_steps = done_steps, 0
            trained = cb.cur_step_in_epoch
            for batch in batches:
                cb.cur_step_num += 1
                cb.cur_step_in_epoch += 1
                cb.train_dataset_element = batch
                cbs.on_train_step_begin(ctx)
                cb.net_outputs = net(*as_inputs(batch))
                total += loss_value(cb.net_outputs)
                cbs.on_train_step_end(ctx)
                if ctx.get_stop_requested():
                    stop = True
                    break
            if not stop and cb.batch_num is None:
                cb.batch_num = cb.cur_step_in_epoch
            cb.train_loss = total / max(cb.cur_step_in_epoch - trained, 1)
            if valid is not None and e % valid_every == 0:
                cb.eval_results = self.eval(valid, eval_callbacks)
                net.set_train(True)
            cbs.on_train_epoch_end(ctx)
            if stop or ctx.get_stop_requested():
                break
        cbs.on_train_end(ctx)

    # ---- evaluation -----------------------------------------------------------------------

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode: bool = False) -> dict:
        """``{metric name: value}`` over ``valid_dataset``."""
        where = "Model.eval"
        if not self._metric_fns:
            raise TrainError("no metrics to evaluate", op=where,
                             hint="pass metrics={'acc', 'loss', ...} to Model")
        check_dataset(valid_dataset, 1, where)
        uses_loss = any(isinstance(m, Loss) and m.indexes is None
                        for m in self._metric_fns.values())
        if self._eval_network is None and uses_loss:
            raise TrainError("the 'loss' metric needs a loss", op=where,
                             hint="pass loss_fn= or eval_network= to Model")
        network = self._eval_network or self._network
        cbs = CallbackList(callbacks)
        cb = CallbackParams(eval_network=network, network=self._network,
                            valid_dataset=valid_dataset, batch_num=dataset_size(valid_dataset),
                            cur_epoch_num=1, cur_step_num=0, net_outputs=None, mode="eval",
                            list_callback=cbs, metrics=None)
        ctx = RunContext(cb)
        for m in self._metric_fns.values():
            m.clear()
        network.set_train(False)
        cbs.on_eval_begin(ctx)
        cbs.on_eval_epoch_begin(ctx)
        for batch in epoch_batches(valid_dataset, 1, where):
            cb.cur_step_num += 1
            cbs.on_eval_step_begin(ctx)
            inputs = as_inputs(batch)
            if self._eval_network is None:
                outputs = (network(*inputs[:-1]), inputs[-1])
            else:
                outputs = network(*inputs)
                outputs = tuple(outputs) if isinstance(outputs, (tuple, list)) else (outputs,)
            cb.net_outputs = outputs
            self._update_metrics(outputs)
            cbs.on_eval_step_end(ctx)
        cb.metrics = {name: m.eval() for name, m in self._metric_fns.items()}
        cbs.on_eval_epoch_end(ctx)
        cbs.on_eval_end(ctx)
        return cb.metrics

    def _update_metrics(self, outputs: tuple) -> None:
        idx = self._eval_indexes
        for m in self._metric_fns.values():
            if m.indexes is not None:
                m.update(*m.select(outputs))
            elif idx is not None:
                if isinstance(m, Loss):
                    m.update(outputs[idx[0]])
                else:
                    m.update(outputs[idx[1]], outputs[idx[2]])
            else:
                m.update(*outputs)

    # ---- prediction -----------------------------------------------------------------------

    def predict(self, *predict_data):
        """The network's output for ``predict_data`` (in inference mode)."""
        self._network.set_train(False)
        return self._network(*as_inputs(predict_data))
