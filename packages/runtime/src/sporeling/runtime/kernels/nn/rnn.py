"""Recurrent kernels: ``lstm``, ``gru`` and their gradients ``lstm_grad``, ``gru_grad``.

Operands, in order (the compiler's ``ops/nn/rnn.py`` defines the primitives):

* ``x`` (T, N, I), time-major;
* with ``has_state``: ``h0`` (L*D, N, H), and for LSTM ``c0`` (same shape); zeros without;
* per layer, per direction (forward, then reverse): ``w_ih`` (G*H, in), ``w_hh`` (G*H, H)
  and with ``has_bias`` ``b_ih``, ``b_hh`` (G*H,) -- G = 4 (LSTM gates i, f, g, o) or 3
  (GRU gates r, z, n), ``in`` = I for layer 0 and D*H above;
* with ``has_lengths``: ``lengths`` (N,) integers: steps ``t >= lengths[n]`` keep sample
  ``n``'s state and output zeros (a padded batch; the reverse direction starts at each
  sample's last valid step);

and for the gradients also ``y`` (the forward's first result) and the output cotangents
named by ``cts`` (one bool per forward result: ``y``, ``h_n``[, ``c_n``]; absent ones are
zero). Results: ``(y (T, N, D*H), h_n[, c_n])``; the gradients return one array per
floating operand (``x``, the states, every weight).

Each layer and direction projects every step's input with one matmul up front, then runs
one matmul per step for all gates. The gradient kernels **recompute** the forward (keeping
each step's gate activations) and run back-propagation through time; the forward returns
no workspace, so its results are the same for every backend (oneDNN keeps its own). ``y``
is accepted for such providers and unused here. Sixteen-bit inputs compute in float32.
"""
from __future__ import annotations

import numpy as np

from ...kernel_registry import KernelMemory
from ..table import define, output

_GATES = {"lstm": 4, "gru": 3}


class _Operands:
    """The operands of one call, split by role."""

    def __init__(self, kind, inputs, num_layers, bidirectional, has_bias, has_state,
                 has_lengths, grad_cts=None):
        inputs = list(inputs)
        self.kind, self.num_layers = kind, int(num_layers)
        self.dirs = 2 if bidirectional else 1
        self.x = inputs.pop(0)
        n_states = (2 if kind == "lstm" else 1) if has_state else 0
        self.states = [inputs.pop(0) for _ in range(n_states)]
        per = 4 if has_bias else 2
        count = self.num_layers * self.dirs * per
        flat, inputs = inputs[:count], inputs[count:]
        self.weights = [tuple(flat[k:k + per]) + ((None, None) if not has_bias else ())
                        for k in range(0, count, per)]
        self.has_bias = has_bias
        self.lengths = inputs.pop(0) if has_lengths else None
        self.y = self.cts = None
        if grad_cts is not None:
            self.y = inputs.pop(0)
            self.cts = [inputs.pop(0) if present else None for present in grad_cts]
        self.dtype = np.dtype(self.x.dtype)
        # 16-bit inputs: compute in float32
        self.work = np.dtype(np.float32) if self.dtype.itemsize < 4 else self.dtype
        self.hidden = int(self.weights[0][1].shape[1])
        self.gates = _GATES[kind] * self.hidden

    def float_operands(self):
        return [self.x, *self.states] + [w for ws in self.weights for w in ws if w is not None]

    def cast(self, a):
        return None if a is None else np.asarray(a, self.work)


def _sigmoid(x, out):
    """``1 / (1 + exp(-x))`` into ``out`` (exp overflows to inf for very negative x: 0)."""
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def _masks(lengths, steps):
    """``(T, N, 1)`` bools, True where a step is inside its sample's length."""
    if lengths is None:
        return None
    return np.arange(steps).reshape(-1, 1, 1) < np.asarray(lengths).reshape(1, -1, 1)


class _Cache:
    """What back-propagation reads of one layer and direction's forward."""
    __slots__ = ("acts", "hprev", "cprev", "tc", "hn")


def _lstm_direction(xw, h, c, w_hh_t, order, masks, y_part, cache):
    """One LSTM layer and direction: ``xw`` (T, N, 4H) input projections with biases,
    ``h``, ``c`` (N, H) initial states; writes each step's output into ``y_part`` (T, N, H)
    and returns the final ``(h, c)``."""
    n, g4 = xw.shape[1], xw.shape[2]
    hid = g4 // 4
    pre = np.empty((n, g4), xw.dtype)
    act = np.empty((n, g4), xw.dtype)
    if cache is not None:
        steps = xw.shape[0]
        cache.acts = np.empty_like(xw)
        cache.hprev = np.empty((steps, n, hid), xw.dtype)
        cache.cprev = np.empty_like(cache.hprev)
        cache.tc = np.empty_like(cache.hprev)
    for t in order:
        if cache is not None:
            act = cache.acts[t]
            cache.hprev[t] = h
            cache.cprev[t] = c
        np.matmul(h, w_hh_t, out=pre)
        pre += xw[t]
        _sigmoid(pre, act)                                   # i, f, o (and g, replaced)
        np.tanh(pre[:, 2 * hid:3 * hid], out=act[:, 2 * hid:3 * hid])
        c_new = act[:, hid:2 * hid] * c
        c_new += act[:, :hid] * act[:, 2 * hid:3 * hid]
        tc = np.tanh(c_new, out=cache.tc[t]) if cache is not None else np.tanh(c_new)
        h_new = act[:, 3 * hid:] * tc
        if masks is not None:  # padded steps keep the state and output zeros
            m = masks[t]
            y_part[t] = np.where(m, h_new, 0)
            h_new = np.where(m, h_new, h)
            c_new = np.where(m, c_new, c)
        else:
            y_part[t] = h_new
        h, c = h_new, c_new
    return h, c


def _lstm_direction_grad(cache, w_hh, order, masks, dy, dh, dc):
    """Back-propagation through one LSTM layer and direction: ``dy`` (T, N, H) or None,
    ``dh``, ``dc`` (N, H) the final states' cotangents. Returns the gate pre-activations'
    cotangents (T, N, 4H) and the initial states' ``(dh, dc)``."""
    acts = cache.acts
    hid = acts.shape[2] // 4
    deriv = acts * (1 - acts)                               # sigmoid' from the outputs
    g = acts[..., 2 * hid:3 * hid]
    deriv[..., 2 * hid:3 * hid] = 1 - g * g                 # tanh' for g
    dtanh_c = 1 - cache.tc * cache.tc
    dgates = np.zeros_like(acts)
    for t in reversed(order):
        a, dgt = acts[t], dgates[t]
        dh_c = dh if dy is None else dh + dy[t]
        dc_c = dc
        if masks is not None:
            m = masks[t]
            dh_c, dc_c = dh_c * m, dc * m
            keep_h, keep_c = dh * ~m, dc * ~m
        np.multiply(dh_c, cache.tc[t], out=dgt[:, 3 * hid:])           # d o
        dc_c = dc_c + dh_c * a[:, 3 * hid:] * dtanh_c[t]
        np.multiply(dc_c, a[:, 2 * hid:3 * hid], out=dgt[:, :hid])     # d i
        np.multiply(dc_c, cache.cprev[t], out=dgt[:, hid:2 * hid])     # d f
        np.multiply(dc_c, a[:, :hid], out=dgt[:, 2 * hid:3 * hid])     # d g
        dgt *= deriv[t]
        dh = dgt @ w_hh
        dc = dc_c * a[:, hid:2 * hid]
        if masks is not None:
            dh += keep_h
            dc += keep_c
    return dgates, dh, dc


def _gru_direction(xw, h, w_hh_t, b_hh, order, masks, y_part, cache):
    """One GRU layer and direction (``xw`` holds ``b_ih``; ``b_hh`` may be None)."""
    n, g3 = xw.shape[1], xw.shape[2]
    hid = g3 // 3
    hw = np.empty((n, g3), xw.dtype)
    act = np.empty((n, g3), xw.dtype)
    if cache is not None:
        steps = xw.shape[0]
        cache.acts = np.empty_like(xw)
        cache.hn = np.empty((steps, n, hid), xw.dtype)
        cache.hprev = np.empty_like(cache.hn)
    for t in order:
        if cache is not None:
            act = cache.acts[t]
            cache.hprev[t] = h
        np.matmul(h, w_hh_t, out=hw)
        if b_hh is not None:
            hw += b_hh
        xt = xw[t]
        np.add(xt[:, :2 * hid], hw[:, :2 * hid], out=act[:, :2 * hid])
        _sigmoid(act[:, :2 * hid], act[:, :2 * hid])        # r, z
        nn = act[:, 2 * hid:]
        if cache is not None:
            cache.hn[t] = hw[:, 2 * hid:]
        np.multiply(act[:, :hid], hw[:, 2 * hid:], out=nn)
        nn += xt[:, 2 * hid:]
        np.tanh(nn, out=nn)                                 # n
        h_new = h - nn
        h_new *= act[:, hid:2 * hid]
        h_new += nn                                         # (1 - z) n + z h
        if masks is not None:
            m = masks[t]
            y_part[t] = np.where(m, h_new, 0)
            h_new = np.where(m, h_new, h)
        else:
            y_part[t] = h_new
        h = h_new
    return h


def _gru_direction_grad(cache, w_hh, order, masks, dy, dh):
    """Back-propagation through one GRU layer and direction. Returns the cotangents of the
    input-side pre-activations (T, N, 3H), of the hidden-side ones (``W_hh h + b_hh``,
    T, N, 3H) and of the initial state."""
    acts = cache.acts
    hid = acts.shape[2] // 3
    r, z, nn = acts[..., :hid], acts[..., hid:2 * hid], acts[..., 2 * hid:]
    d_rz = acts[..., :2 * hid] * (1 - acts[..., :2 * hid])
    d_n = 1 - nn * nn
    one_minus_z = 1 - z
    h_minus_n = cache.hprev - nn
    dx_gates = np.zeros_like(acts)
    dh_gates = np.zeros_like(acts)
    for t in reversed(order):
        dxg, dhg = dx_gates[t], dh_gates[t]
        dh_c = dh if dy is None else dh + dy[t]
        if masks is not None:
            m = masks[t]
            keep_h = dh * ~m
            dh_c = dh_c * m
        np.multiply(dh_c, one_minus_z[t], out=dxg[:, 2 * hid:])
        dxg[:, 2 * hid:] *= d_n[t]                          # d n pre-activation
        np.multiply(dxg[:, 2 * hid:], cache.hn[t], out=dxg[:, :hid])
        np.multiply(dh_c, h_minus_n[t], out=dxg[:, hid:2 * hid])
        dxg[:, :2 * hid] *= d_rz[t]                         # d r, d z pre-activations
        dhg[:, :2 * hid] = dxg[:, :2 * hid]
        np.multiply(dxg[:, 2 * hid:], r[t], out=dhg[:, 2 * hid:])
        dh = dhg @ w_hh
        dh += dh_c * z[t]
        if masks is not None:
            dh += keep_h
    return dx_gates, dh_gates, dh


def _forward(ops: _Operands, caches=None):
    """The forward over every layer; ``caches`` (a list) collects what the gradient needs:
    per layer its input and per direction a :class:`_Cache`. Returns ``(y, finals)`` with
    ``finals[k]`` the final state(s) of layer/direction ``k``, in the work dtype."""
    x = ops.cast(ops.x)
    steps, n = x.shape[0], x.shape[1]
    hid, dirs = ops.hidden, ops.dirs
    states = [ops.cast(s) for s in ops.states]
    masks = _masks(ops.lengths, steps)
    zeros = np.zeros((n, hid), ops.work)
    finals = []
    layer_in = x
    for layer in range(ops.num_layers):
        y = np.empty((steps, n, dirs * hid), ops.work)
        if caches is not None:
            caches.append((layer_in, []))
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = (ops.cast(w) for w in ops.weights[k])
            xw = (layer_in.reshape(steps * n, layer_in.shape[2]) @ w_ih.T).reshape(
                steps, n, ops.gates)
            order = range(steps - 1, -1, -1) if d else range(steps)
            cache = _Cache() if caches is not None else None
            y_part = y[..., d * hid:(d + 1) * hid]
            if ops.kind == "lstm":
                if b_ih is not None:
                    xw += b_ih + b_hh
                h0, c0 = (states[0][k], states[1][k]) if states else (zeros, zeros)
                final = _lstm_direction(xw, h0, c0, np.ascontiguousarray(w_hh.T), order,
                                        masks, y_part, cache)
            else:
                if b_ih is not None:
                    xw += b_ih
                h0 = states[0][k] if states else zeros
                final = (_gru_direction(xw, h0, np.ascontiguousarray(w_hh.T), b_hh, order,
                                        masks, y_part, cache),)
            finals.append(final)
            if caches is not None:
                caches[-1][1].append(cache)
        layer_in = y
    return layer_in, finals


def _results(backend, out, ops, y, finals):
    """``(y, h_n[, c_n])`` in pool memory of the operands' dtype."""
    n_states = 2 if ops.kind == "lstm" else 1
    outs = list(out) if out is not None else [None] * (1 + n_states)
    y_out = output(backend, outs[0], y.shape, ops.dtype)
    y_out[...] = y
    results = [y_out]
    shape = (len(finals), y.shape[1], ops.hidden)
    for i in range(n_states):
        s = output(backend, outs[1 + i], shape, ops.dtype)
        for k, final in enumerate(finals):
            s[k] = final[i]
        results.append(s)
    return tuple(results)


def _run(kind, backend, inputs, out, params):
    ops = _Operands(kind, inputs, **params)
    with np.errstate(over="ignore"):
        y, finals = _forward(ops)
    return _results(backend, out, ops, y, finals)


def _run_grad(kind, backend, inputs, out, params):
    params = dict(params)
    cts = params.pop("cts")
    ops = _Operands(kind, inputs, grad_cts=cts, **params)
    caches = []
    with np.errstate(over="ignore"):
        y, finals = _forward(ops, caches)
        grads = _backward(ops, caches)
    outs = list(out) if out is not None else [None] * len(grads)
    results = []
    for g, ref, buf in zip(grads, ops.float_operands(), outs):
        r = output(backend, buf, tuple(ref.shape), ops.dtype)
        r[...] = g
        results.append(r)
    return tuple(results)


def _backward(ops: _Operands, caches):
    """Gradients of every floating operand, in :meth:`_Operands.float_operands` order."""
    steps, n = ops.x.shape[0], ops.x.shape[1]
    hid, dirs, work = ops.hidden, ops.dirs, ops.work
    masks = _masks(ops.lengths, steps)
    ct_y = ops.cast(ops.cts[0])
    ct_states = [ops.cast(c) for c in ops.cts[1:]]
    lstm = ops.kind == "lstm"
    n_layers = ops.num_layers
    d_weights = [None] * len(ops.weights)
    d_states = [np.zeros((n_layers * dirs, n, hid), work) for _ in ops.cts[1:]]
    d_out = ct_y  # cotangent of the current layer's output (None: zero)
    for layer in range(n_layers - 1, -1, -1):
        layer_in, layer_caches = caches[layer]
        d_in = np.zeros(layer_in.shape, work)
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = (ops.cast(w) for w in ops.weights[k])
            order = range(steps - 1, -1, -1) if d else range(steps)
            dy = None if d_out is None else d_out[..., d * hid:(d + 1) * hid]
            final_cts = [np.zeros((n, hid), work) if c is None else c[k] for c in ct_states]
            cache = layer_caches[d]
            if lstm:
                dgates, dh, dc = _lstm_direction_grad(cache, w_hh, order, masks, dy,
                                                      *final_cts)
                dx_gates = dh_gates = dgates
                d_states[0][k], d_states[1][k] = dh, dc
            else:
                dx_gates, dh_gates, dh = _gru_direction_grad(cache, w_hh, order, masks, dy,
                                                             final_cts[0])
                d_states[0][k] = dh
            flat_x = dx_gates.reshape(steps * n, ops.gates)
            flat_h = dh_gates.reshape(steps * n, ops.gates)
            grads = [flat_x.T @ layer_in.reshape(steps * n, layer_in.shape[2]),
                     flat_h.T @ cache.hprev.reshape(steps * n, hid)]
            if b_ih is not None:
                grads += [flat_x.sum(0), flat_h.sum(0)]
            d_weights[k] = grads
            d_in += (flat_x @ w_ih).reshape(layer_in.shape)
        d_out = d_in
    out = [d_out] + (d_states if ops.states else [])
    return out + [g for ws in d_weights for g in ws]


@define("lstm", memory=KernelMemory.FRESH)
def lstm(backend, *inputs, out=None, **params):
    """LSTM over every layer and direction: ``(y, h_n, c_n)`` (see the module doc)."""
    return _run("lstm", backend, inputs, out, params)


@define("gru", memory=KernelMemory.FRESH)
def gru(backend, *inputs, out=None, **params):
    """GRU over every layer and direction: ``(y, h_n)`` (see the module doc)."""
    return _run("gru", backend, inputs, out, params)


@define("lstm_grad", memory=KernelMemory.FRESH)
def lstm_grad(backend, *inputs, out=None, **params):
    """LSTM's gradients by recomputation and back-propagation through time."""
    return _run_grad("lstm", backend, inputs, out, params)


@define("gru_grad", memory=KernelMemory.FRESH)
def gru_grad(backend, *inputs, out=None, **params):
    """GRU's gradients by recomputation and back-propagation through time."""
    return _run_grad("gru", backend, inputs, out, params)
