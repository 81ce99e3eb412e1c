"""Recurrent cells of ``ms.nn``: ``LSTM``/``GRU`` are sporeling.expression's; ``RNN`` (tanh or
relu) extends the same multi-layer base; the single-step ``RNNCell``, ``GRUCell`` and
``LSTMCell`` compute one step from sx ops. Gate order is PyTorch's and MindSpore's
(LSTM: i, f, g, o; GRU: r, z, n)."""
from __future__ import annotations

import math

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import GRU, LSTM
from sporeling.expression.nn.init import Uniform, initializer
from sporeling.expression.nn.layers.rnn import _RNNBase

from .cell import Cell

ops = sx.ops

__all__ = ["RNN", "RNNCell", "GRU", "GRUCell", "LSTM", "LSTMCell"]

_NONLINEAR = {"tanh": "tanh", "relu": "relu"}


def _check_nonlinearity(owner, nonlinearity):
    if nonlinearity not in _NONLINEAR:
        raise ValueError(f"{owner}: nonlinearity must be 'tanh' or 'relu', got "
                         f"{nonlinearity!r}")
    return getattr(ops, nonlinearity)


class RNN(_RNNBase):
    """Elman RNN over (T, N, input_size) (or batch-first): ``h' = act(W_ih x + b_ih + W_hh h
    + b_hh)``. ``RNN(input_size, hidden_size, num_layers=1, nonlinearity="tanh",
    has_bias=True, batch_first=False, dropout=0.0, bidirectional=False, dtype=ms.float32)``;
    ``construct(x, hx=None, seq_length=None)`` returns ``(output, h_n)``."""

    _gates, _states = 1, 1

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh",
                 has_bias=True, batch_first=False, dropout=0.0, bidirectional=False,
                 dtype=None):
        self._act = _check_nonlinearity("RNN", nonlinearity)
        super().__init__(input_size, hidden_size, num_layers, has_bias, batch_first, dropout,
                         bidirectional, dtype or "float32")
        self.nonlinearity = nonlinearity

    def _input_bias(self, xw, b_ih, b_hh):
        return xw if b_ih is None else ops.add(xw, ops.add(b_ih, b_hh))

    def _step(self, xw_t, state, w_hh_t, b_hh):
        (h,) = state
        return (self._act(ops.add(xw_t, ops.matmul(h, w_hh_t))),)


class _CellBase(Cell):
    _gates = 1

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size = int(input_size), int(hidden_size)
        self.has_bias = bool(has_bias)
        init = Uniform(1.0 / math.sqrt(self.hidden_size))
        g = self._gates * self.hidden_size
        dt = dtype or "float32"
        self.weight_ih = sx.Parameter(initializer(init, (g, self.input_size), dt),
                                      name="weight_ih")
        self.weight_hh = sx.Parameter(initializer(init, (g, self.hidden_size), dt),
                                      name="weight_hh")
        if self.has_bias:
            self.bias_ih = sx.Parameter(initializer(init, (g,), dt), name="bias_ih")
            self.bias_hh = sx.Parameter(initializer(init, (g,), dt), name="bias_hh")
        else:
            self.bias_ih = self.bias_hh = None

    def _linear(self, x, w, b):
        y = ops.matmul(x, ops.transpose(w, (1, 0)))
        return y if b is None else ops.add(y, b)

    def _check(self, x, h):
        if x.shape[-1] != self.input_size:
            raise ShapeError("wrong input size", op=type(self).__name__,
                             expected=f"(N, {self.input_size})", got=tuple(x.shape))
        if h is not None and h.shape[-1] != self.hidden_size:
            raise ShapeError("wrong hidden state size", op=type(self).__name__,
                             expected=f"(N, {self.hidden_size})", got=tuple(h.shape))

    def _zeros(self, x):
        lead = tuple(x.shape[:-1])
        return ops.broadcast_to(ops.mul(ops.sum(x, -1, keepdims=True), 0.0),
                                lead + (self.hidden_size,))


class RNNCell(_CellBase):
    """One Elman step: ``construct(x, hx)`` -> ``act(W_ih x + b_ih + W_hh h + b_hh)``."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh",
                 dtype=None):
        self._act = _check_nonlinearity("RNNCell", nonlinearity)
        super().__init__(input_size, hidden_size, has_bias, dtype)
        self.nonlinearity = nonlinearity

    def construct(self, x, hx=None):
        self._check(x, hx)
        hx = self._zeros(x) if hx is None else hx
        return self._act(ops.add(self._linear(x, self.weight_ih, self.bias_ih),
                                 self._linear(hx, self.weight_hh, self.bias_hh)))


class GRUCell(_CellBase):
    """One GRU step: ``construct(x, hx)`` -> ``h'``; ``n = tanh(W_in x + b_in + r (W_hn h +
    b_hn))``, ``h' = (1 - z) n + z h``."""
    _gates = 3

    def construct(self, x, hx=None):
        self._check(x, hx)
        hx = self._zeros(x) if hx is None else hx
        xr, xz, xn = ops.split(self._linear(x, self.weight_ih, self.bias_ih), 3, -1)
        hr, hz, hn = ops.split(self._linear(hx, self.weight_hh, self.bias_hh), 3, -1)
        r = ops.sigmoid(ops.add(xr, hr))
        z = ops.sigmoid(ops.add(xz, hz))
        n = ops.tanh(ops.add(xn, ops.mul(r, hn)))
        return ops.add(n, ops.mul(z, ops.sub(hx, n)))


class LSTMCell(_CellBase):
    """One LSTM step: ``construct(x, hx=(h, c))`` -> ``(h', c')``."""
    _gates = 4

    def construct(self, x, hx=None):
        h, c = (None, None) if hx is None else hx
        self._check(x, h)
        h = self._zeros(x) if h is None else h
        c = self._zeros(x) if c is None else c
        gates = ops.add(self._linear(x, self.weight_ih, self.bias_ih),
                        self._linear(h, self.weight_hh, self.bias_hh))
        i, f, g, o = ops.split(gates, 4, -1)
        c = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
        return ops.mul(ops.sigmoid(o), ops.tanh(c)), c
