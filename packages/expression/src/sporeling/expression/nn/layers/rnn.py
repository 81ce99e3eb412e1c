"""Recurrent layers: ``LSTM`` and ``GRU`` (multi-layer, bidirectional, batch_first,
``seq_length`` for padded batches).

Each binds one primitive for the whole network (``ops.lstm`` / ``ops.gru``: the compiler's
``lstm`` / ``gru``, whose kernels loop over the time steps and whose backward is one
``lstm_grad`` / ``gru_grad``), in PyNative and Graph mode alike; in training with
``dropout > 0`` it binds one per layer with the dropout in between. Parameter names and gate
order are PyTorch's and MindSpore 2.x's: ``weight_ih_l0`` (4H, input) with gates
``i, f, g, o`` for LSTM and ``r, z, n`` for GRU, ``weight_hh_l0``, ``bias_ih_l0``,
``bias_hh_l0``, and ``..._reverse`` for the backward direction; all initialised
``U(-1/sqrt(H), 1/sqrt(H))``.

The base class also runs a recurrence step by step from ops (per layer and direction the
input projection of every step is one matmul up front, then one matmul and elementwise ops
per step): ``sporeling.ms``'s Elman ``RNN`` is written that way.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> lstm = nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True)
    >>> out, (h, c) = lstm(np.zeros((3, 5, 4), np.float32))
    >>> out.shape, h.shape, c.shape
    ((3, 5, 16), (4, 3, 8), (4, 3, 8))
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.core import SporelingError
from sporeling.core.arguments import check_fits, check_int

from ..cell import Cell
from ..init import Uniform
from ._check import shape_error
from ._params import make_param
from .dropout import Dropout

__all__ = ["LSTM", "GRU"]


class _RNNBase(Cell):
    _gates = 1
    _states = 1  # 2 for LSTM: (h, c)

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, dtype="float32"):
        super().__init__()
        if not 0 <= dropout < 1:
            raise SporelingError("bad dropout", op=type(self).__name__,
                                 expected="0 <= dropout < 1", got=dropout)
        name = type(self).__name__
        self.input_size = check_int(input_size, "input_size", op=name, min=1)
        self.hidden_size = check_int(hidden_size, "hidden_size", op=name, min=1)
        self.num_layers = check_int(num_layers, "num_layers", op=name, min=1)
        self.has_bias = bool(has_bias)
        self.batch_first, self.bidirectional = bool(batch_first), bool(bidirectional)
        self.dropout = float(dropout)
        self.num_directions = 2 if bidirectional else 1
        rows = self._gates * self.hidden_size * self.num_directions  # (a lower bound)
        check_fits(4 * self.num_layers * rows * (self.input_size + self.hidden_size),
                   "the weights", op=name)
        init = Uniform(1.0 / math.sqrt(self.hidden_size))
        g, h = self._gates * self.hidden_size, self.hidden_size
        self._names = []
        for layer in range(self.num_layers):
            size = self.input_size if layer == 0 else h * self.num_directions
            for suffix in ("", "_reverse")[:self.num_directions]:
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                setattr(self, names[0], make_param(init, (g, size), names[0], dtype))
                setattr(self, names[1], make_param(init, (g, h), names[1], dtype))
                if self.has_bias:
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                    setattr(self, names[2], make_param(init, (g,), names[2], dtype))
                    setattr(self, names[3], make_param(init, (g,), names[3], dtype))
                self._names.append(tuple(names))
        self.dropout_layer = Dropout(p=self.dropout) if self.dropout > 0 else None

    def _weights(self, index):
        names = self._names[index]
        w_ih, w_hh = getattr(self, names[0]), getattr(self, names[1])
        if len(names) == 2:
            return w_ih, w_hh, None, None
        return w_ih, w_hh, getattr(self, names[2]), getattr(self, names[3])

    def _check(self, x, hx):
        shape = tuple(x.shape)
        layout = "(N, T, input_size)" if self.batch_first else "(T, N, input_size)"
        if len(shape) != 3 or shape[2] != self.input_size:
            raise shape_error(self, "wrong input shape",
                              layout.replace("input_size", str(self.input_size)), shape)
        n = shape[0] if self.batch_first else shape[1]
        want = (self.num_layers * self.num_directions, n, self.hidden_size)
        states = (hx,) if self._states == 1 else (hx if hx is not None else ())
        for s in states:
            if s is not None and tuple(s.shape) != want:
                raise shape_error(self, "wrong initial state shape", want, tuple(s.shape))
        return n

    def _run(self, x, hx, seq_length):
        """``x`` time-major; returns output (T, N, D*H) and the final states per layer."""
        steps, n = x.shape[0], x.shape[1]
        zeros = np.zeros((n, self.hidden_size), x.dtype)
        masks = None
        if seq_length is not None:
            lengths = np.asarray(seq_length).reshape(1, -1, 1)
            masks = np.arange(steps).reshape(-1, 1, 1) < lengths  # (T, N, 1)
        finals = []
        for layer in range(self.num_layers):
            if layer and self.dropout_layer is not None:
                x = self.dropout_layer(x)
            outs = []
            for direction in range(self.num_directions):
                index = layer * self.num_directions + direction
                state = tuple(zeros if s is None else ops.getitem(s, index) for s in hx)
                out, state = self._direction(x, state, self._weights(index), direction == 1,
                                             masks)
                outs.append(out)
                finals.append(state)
            x = outs[0] if len(outs) == 1 else ops.concat(outs, -1)
        return x, finals

    def _direction(self, x, state, weights, reverse, masks):
        w_ih, w_hh, b_ih, b_hh = weights
        xw = ops.matmul(x, ops.swap_last_axes(w_ih))  # every step's input projection at once
        xw = self._input_bias(xw, b_ih, b_hh)
        w_hh_t = ops.swap_last_axes(w_hh)
        outputs = [None] * x.shape[0]
        order = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
        for t in order:
            new = self._step(ops.getitem(xw, t), state, w_hh_t, b_hh)
            if masks is not None:  # padded steps keep the state and output zeros
                mask = masks[t]
                new = tuple(ops.where(mask, a, b) for a, b in zip(new, state))
                outputs[t] = ops.where(mask, new[0], 0.0)
            else:
                outputs[t] = new[0]
            state = new
        return ops.stack(outputs, 0), state

    def construct(self, x, hx=None, seq_length=None):
        return self._construct_steps(x, hx, seq_length)

    def _construct_steps(self, x, hx=None, seq_length=None):
        """The recurrence step by step from ops (subclasses with a fused op override
        ``construct``)."""
        self._check(x, hx)
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        states = (hx,) if self._states == 1 else (hx if hx is not None else (None, None))
        out, finals = self._run(x, states, seq_length)
        if self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        stacked = tuple(ops.stack([f[i] for f in finals], 0) for i in range(self._states))
        return out, (stacked[0] if self._states == 1 else stacked)

    def _fused(self, op, x, hx, seq_length):
        """``op`` (``ops.lstm`` / ``ops.gru``) over every layer at once, or, in training
        with dropout between layers, once per layer."""
        self._check(x, hx)
        flat = [w for i in range(len(self._names)) for w in self._weights(i)
                if w is not None]
        common = dict(bidirectional=self.bidirectional, has_bias=self.has_bias,
                      seq_length=seq_length)
        if self.dropout_layer is None or not self.training or self.num_layers == 1:
            return op(x, flat, hx, num_layers=self.num_layers, batch_first=self.batch_first,
                      **common)
        if self.batch_first:  # time-major between layers: the dropout masks as before
            x = ops.transpose(x, (1, 0, 2))
        per, rows = len(flat) // self.num_layers, self.num_directions
        finals = []
        for layer in range(self.num_layers):
            if layer:
                x = self.dropout_layer(x)
            part = None if hx is None else _rows(hx, layer * rows, (layer + 1) * rows)
            x, final = op(x, flat[layer * per:(layer + 1) * per], part, num_layers=1,
                          **common)
            finals.append(final)
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        if self._states == 1:
            return x, ops.concat(finals, 0)
        return x, tuple(ops.concat([f[i] for f in finals], 0) for i in range(self._states))

    def extend_repr(self) -> str:
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, "
                f"num_layers={self.num_layers}, has_bias={self.has_bias}, "
                f"batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


def _rows(hx, lo, hi):
    """The initial states of some layers (rows ``lo:hi``), keeping None entries."""
    if isinstance(hx, (tuple, list)):
        return tuple(None if s is None else ops.getitem(s, slice(lo, hi)) for s in hx)
    return ops.getitem(hx, slice(lo, hi))


class LSTM(_RNNBase):
    """Long short-term memory over (T, N, input_size), or (N, T, input_size) with
    ``batch_first``. ``construct(x, hx=None, seq_length=None)`` with ``hx = (h0, c0)``, each
    (num_layers * num_directions, N, hidden_size), zeros if omitted; returns
    ``(output, (h_n, c_n))``, output (T, N, num_directions * hidden_size). ``seq_length``
    (N,) holds each sequence's length: later steps keep the state and output zeros."""

    _gates, _states = 4, 2

    def construct(self, x, hx=None, seq_length=None):
        return self._fused(ops.lstm, x, hx, seq_length)


class GRU(_RNNBase):
    """Gated recurrent unit over (T, N, input_size), or (N, T, input_size) with
    ``batch_first``. ``construct(x, hx=None, seq_length=None)`` with ``hx`` (num_layers *
    num_directions, N, hidden_size); returns ``(output, h_n)``. The candidate is
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))`` as in PyTorch and MindSpore."""

    _gates, _states = 3, 1

    def construct(self, x, hx=None, seq_length=None):
        return self._fused(ops.gru, x, hx, seq_length)
