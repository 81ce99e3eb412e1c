"""Fused recurrent layers on oneDNN's RNN primitives: ``lstm``, ``gru`` and their gradients.

The operands are the primitives' (NumPy's ``kernels/nn/rnn.py`` documents them): ``x``
(T, N, I), optional ``h0``/``c0`` (L*D, N, H), per layer and direction ``w_ih`` (G*H, in),
``w_hh`` (G*H, H) and optional biases, in PyTorch's and MindSpore's gate order. oneDNN wants
per layer ``(1, D, in, G, H)`` weights (``ldigo``, then reordered into its own layout), one
bias per gate, and -- for GRU -- gates ``u, r, o`` of its linear-before-reset cell with a
fourth bias (our ``b_hn``): the kernel converts on the way in and out. Each layer is one
oneDNN primitive (both directions concatenated, as PyTorch stacks them), so stacked layers
of any width work.

The gradient recomputes the forward in training mode (oneDNN keeps its workspace in the
plan, per layer) and runs the backward primitives from the top layer down. oneDNN
accumulates weight gradients, so they start from zero. Padded batches (``lengths``) are
NumPy's: oneDNN has no per-sample lengths.
"""
from __future__ import annotations

import numpy as np

from .. import constants as C
from ..memory import Desc
from ..plan import PrimitiveDesc, cached_plan
from ._serve import NotServed, onednn_kernel, output

_GATES = {"lstm": 4, "gru": 3}
_ORDER = {"lstm": [0, 1, 2, 3], "gru": [1, 0, 2]}  # ours -> oneDNN's (GRU: r,z,n -> u,r,o)
_PLAIN, _ANY = Desc.plain, Desc.any
_F32 = np.float32


class _Call:
    """One call's operands split by role, with the shapes oneDNN needs."""

    def __init__(self, kind, inputs, num_layers, bidirectional, has_bias, has_state,
                 has_lengths, cts=None):
        if has_lengths:
            raise NotServed(kind, "per-sample lengths (oneDNN has none)")
        inputs = list(inputs)
        self.kind, self.layers, self.dirs = kind, int(num_layers), 2 if bidirectional else 1
        self.x = inputs.pop(0)
        self.t, self.n = self.x.shape[:2]
        self.n_states = 2 if kind == "lstm" else 1
        self.states = [inputs.pop(0) for _ in range(self.n_states)] if has_state else None
        per = 4 if has_bias else 2
        count = self.layers * self.dirs * per
        self.weights = [inputs[k:k + per] for k in range(0, count, per)]
        inputs = inputs[count:]
        self.has_bias, self.has_state = has_bias, has_state
        self.hidden = self.weights[0][1].shape[1]
        self.g = _GATES[kind]
        if cts is not None:
            self.y = inputs.pop(0)
            self.cts = [inputs.pop(0) if present else None for present in cts]

    def width(self, layer):
        return self.x.shape[2] if layer == 0 else self.dirs * self.hidden

    def state(self, i, layer):
        """Initial state ``i`` (h, c) of ``layer``: (1, D, N, H)."""
        shape = (1, self.dirs, self.n, self.hidden)
        if self.states is None:
            return np.zeros(shape, _F32)
        return np.ascontiguousarray(
            self.states[i][layer * self.dirs:(layer + 1) * self.dirs]).reshape(shape)

    def layer_weights(self, layer):
        """``(w_layer, w_iter, bias)`` of ``layer`` in oneDNN's plain layouts."""
        order, g, h = _ORDER[self.kind], self.g, self.hidden
        ws = self.weights[layer * self.dirs:(layer + 1) * self.dirs]

        def ldigo(w):  # (G*H, in) -> (in, G, H), gates in oneDNN's order
            return w.reshape(g, h, -1)[order].transpose(2, 0, 1)

        w_layer = np.stack([ldigo(w[0]) for w in ws])[None]
        w_iter = np.stack([ldigo(w[1]) for w in ws])[None]
        extra = 1 if self.kind == "gru" else 0
        bias = np.zeros((1, self.dirs, g + extra, h), _F32)
        if self.has_bias:
            for d, w in enumerate(ws):
                b_ih, b_hh = w[2].reshape(g, h), w[3].reshape(g, h)
                if self.kind == "lstm":
                    bias[0, d] = b_ih + b_hh
                else:  # u, r: both biases; o: the input's; the extra: b_hn
                    bias[0, d, :2] = (b_ih + b_hh)[order[:2]]
                    bias[0, d, 2], bias[0, d, 3] = b_ih[2], b_hh[2]
        return (np.ascontiguousarray(w_layer, _F32), np.ascontiguousarray(w_iter, _F32),
                bias)

    def torch_grads(self, layer, dw_layer, dw_iter, dbias):
        """oneDNN's weight gradients of ``layer`` back in our layout, per direction."""
        order, g, h = _ORDER[self.kind], self.g, self.hidden
        inverse = np.argsort(order)
        out = []
        for d in range(self.dirs):
            grads = [dw[0, d][:, inverse].transpose(1, 2, 0).reshape(g * h, -1)
                     for dw in (dw_layer, dw_iter)]
            if self.has_bias:
                db = dbias[0, d]
                if self.kind == "lstm":
                    grads += [db.reshape(-1), db.reshape(-1)]
                else:
                    ur = db[:2][inverse[:2]]  # r, z
                    grads += [np.concatenate([ur, db[2:3]]).reshape(-1),
                              np.concatenate([ur, db[3:4]]).reshape(-1)]
            out.append(grads)
        return out


def _descs(call, layer):
    """Plain descriptors of one layer's operands."""
    t, n, h, dirs = call.t, call.n, call.hidden, call.dirs
    g = call.g + (1 if call.kind == "gru" else 0)
    width = call.width(layer)
    return dict(src_layer=_PLAIN((t, n, width), _F32),
                state=_PLAIN((1, dirs, n, h), _F32),
                w_layer=_PLAIN((1, dirs, width, call.g, h), _F32),
                w_iter=_PLAIN((1, dirs, h, call.g, h), _F32),
                bias=_PLAIN((1, dirs, g, h), _F32),
                dst_layer=_PLAIN((t, n, dirs * h), _F32))


def _direction(call):
    return C.dnnl_bidirectional_concat if call.dirs == 2 else \
        C.dnnl_unidirectional_left2right


def _forward_pd(call, layer, prop):
    d = _descs(call, layer)
    w_layer = _ANY((1, call.dirs, call.width(layer), call.g, call.hidden), _F32)
    w_iter = _ANY((1, call.dirs, call.hidden, call.g, call.hidden), _F32)
    if call.kind == "lstm":
        return PrimitiveDesc("lstm_forward", prop, _direction(call), d["src_layer"],
                             d["state"], d["state"], w_layer, w_iter, None, None, d["bias"],
                             d["dst_layer"], d["state"], d["state"], C.dnnl_rnn_flags_undef)
    return PrimitiveDesc("lbr_gru_forward", prop, _direction(call), d["src_layer"],
                         d["state"], w_layer, w_iter, d["bias"], d["dst_layer"], d["state"],
                         C.dnnl_rnn_flags_undef)


def _forward_steps(b, call, layer, prop):
    """Users: src_layer, states, w_layer, w_iter, bias, dst_layer, final states."""
    d = _descs(call, layer)
    pd = _forward_pd(call, layer, prop)
    src = b.user(d["src_layer"])
    states = [b.user(d["state"]) for _ in range(call.n_states)]
    w_layer = b.into(b.user(d["w_layer"]), pd.md(C.dnnl_query_weights_md, 0))
    w_iter = b.into(b.user(d["w_iter"]), pd.md(C.dnnl_query_weights_md, 1))
    bias = b.user(d["bias"])
    dst = b.user(d["dst_layer"])
    finals = [b.user(d["state"]) for _ in range(call.n_states)]
    args = {C.DNNL_ARG_SRC_LAYER: src, C.DNNL_ARG_SRC_ITER: states[0],
            C.DNNL_ARG_WEIGHTS_LAYER: w_layer, C.DNNL_ARG_WEIGHTS_ITER: w_iter,
            C.DNNL_ARG_BIAS: bias, C.DNNL_ARG_DST_LAYER: dst, C.DNNL_ARG_DST_ITER: finals[0]}
    if call.kind == "lstm":
        args[C.DNNL_ARG_SRC_ITER_C], args[C.DNNL_ARG_DST_ITER_C] = states[1], finals[1]
    workspace = None
    if prop == C.dnnl_forward_training:
        workspace = b.internal(pd.md(C.dnnl_query_workspace_md))
        args[C.DNNL_ARG_WORKSPACE] = workspace
    b.execute(pd, args)
    return pd, args, workspace


def _key(kind, call, layer, what):
    return (kind, what, layer, call.t, call.n, call.width(layer), call.hidden, call.dirs)


def _forward(kind, backend, inputs, out, params):
    call = _Call(kind, inputs, **params)
    layer_in = np.ascontiguousarray(call.x)
    finals = [[] for _ in range(call.n_states)]
    for layer in range(call.layers):
        plan = cached_plan(_key(kind, call, layer, "forward"), lambda b, l=layer:
                           _forward_steps(b, call, l, C.dnnl_forward_inference))
        y = np.empty((call.t, call.n, call.dirs * call.hidden), _F32)
        ends = [np.empty((1, call.dirs, call.n, call.hidden), _F32)
                for _ in range(call.n_states)]
        plan.run(layer_in, *(call.state(i, layer) for i in range(call.n_states)),
                 *call.layer_weights(layer), y, *ends)
        for i, end in enumerate(ends):
            finals[i].append(end[0])
        layer_in = y
    outs = list(out) if out is not None else [None] * (1 + call.n_states)
    results = [output(backend, outs[0], layer_in.shape, _F32)]
    results[0][...] = layer_in
    for i in range(call.n_states):
        s = output(backend, outs[1 + i], (call.layers * call.dirs, call.n, call.hidden), _F32)
        s[...] = np.concatenate(finals[i])
        results.append(s)
    return tuple(results)


def _grad_steps(b, call, layer):
    """Forward (training) then backward of one layer, sharing the workspace. Users: the
    forward's, then diff_src_layer, diff states, diff w_layer, diff w_iter, diff bias,
    diff_dst_layer, diff final states. ``b.extra``: where the backward's steps begin."""
    d = _descs(call, layer)
    fwd_pd, args, workspace = _forward_steps(b, call, layer, C.dnnl_forward_training)
    first_backward = len(b.steps)
    w_layer_any = _ANY((1, call.dirs, call.width(layer), call.g, call.hidden), _F32)
    w_iter_any = _ANY((1, call.dirs, call.hidden, call.g, call.hidden), _F32)
    state, lstm = d["state"], call.kind == "lstm"
    if lstm:
        pd = PrimitiveDesc("lstm_backward", C.dnnl_backward, _direction(call),
                           d["src_layer"], state, state, w_layer_any, w_iter_any, None, None,
                           d["bias"], d["dst_layer"], state, state,
                           d["src_layer"], state, state, d["w_layer"], d["w_iter"], None,
                           None, d["bias"], d["dst_layer"], state, state,
                           C.dnnl_rnn_flags_undef, fwd_pd)
    else:
        pd = PrimitiveDesc("lbr_gru_backward", C.dnnl_backward, _direction(call),
                           d["src_layer"], state, w_layer_any, w_iter_any, d["bias"],
                           d["dst_layer"], state, d["src_layer"], state, d["w_layer"],
                           d["w_iter"], d["bias"], d["dst_layer"], state,
                           C.dnnl_rnn_flags_undef, fwd_pd)
    b.keep.append(fwd_pd)
    users = b.users[:]  # the forward's, in order
    w_layer_user, w_iter_user = users[1 + call.n_states], users[2 + call.n_states]
    bwd = dict(args)
    bwd.pop(C.DNNL_ARG_WEIGHTS_LAYER)
    bwd.pop(C.DNNL_ARG_WEIGHTS_ITER)
    bwd[C.DNNL_ARG_WEIGHTS_LAYER] = b.into(w_layer_user, pd.md(C.dnnl_query_weights_md, 0))
    bwd[C.DNNL_ARG_WEIGHTS_ITER] = b.into(w_iter_user, pd.md(C.dnnl_query_weights_md, 1))
    diff = {C.DNNL_ARG_DIFF_SRC_LAYER: b.user(d["src_layer"]),
            C.DNNL_ARG_DIFF_SRC_ITER: b.user(state)}
    if lstm:
        diff[C.DNNL_ARG_DIFF_SRC_ITER_C] = b.user(state)
    diff[C.DNNL_ARG_DIFF_WEIGHTS_LAYER] = b.user(d["w_layer"])
    diff[C.DNNL_ARG_DIFF_WEIGHTS_ITER] = b.user(d["w_iter"])
    diff[C.DNNL_ARG_DIFF_BIAS] = b.user(d["bias"])
    diff[C.DNNL_ARG_DIFF_DST_LAYER] = b.user(d["dst_layer"])
    diff[C.DNNL_ARG_DIFF_DST_ITER] = b.user(state)
    if lstm:
        diff[C.DNNL_ARG_DIFF_DST_ITER_C] = b.user(state)
    bwd.update(diff)
    bwd[C.DNNL_ARG_WORKSPACE] = workspace
    b.execute(pd, bwd)
    b.extra = first_backward


def _grad(kind, backend, inputs, out, params):
    params = dict(params)
    call = _Call(kind, inputs, cts=params.pop("cts"), **params)
    n_states, dirs, shape = call.n_states, call.dirs, (1, call.dirs, call.n, call.hidden)
    layer_in = np.ascontiguousarray(call.x)
    layers = []
    for layer in range(call.layers):   # forward, training: each layer keeps its workspace
        plan = cached_plan(_key(kind, call, layer, "grad"),
                           lambda b, l=layer: _grad_steps(b, call, l))
        w_layer, w_iter, bias = call.layer_weights(layer)
        y = np.empty((call.t, call.n, dirs * call.hidden), _F32)
        buffers = dict(
            src=layer_in, states=[call.state(i, layer) for i in range(n_states)],
            weights=(w_layer, w_iter, bias), y=y,
            finals=[np.empty(shape, _F32) for _ in range(n_states)],
            d_src=np.empty_like(layer_in), d_states=[np.empty(shape, _F32)
                                                     for _ in range(n_states)],
            d_weights=(np.zeros_like(w_layer), np.zeros_like(w_iter), np.zeros_like(bias)),
            d_y=np.empty_like(y), d_finals=[np.empty(shape, _F32) for _ in range(n_states)])
        plan.bind(buffers["src"], *buffers["states"], *buffers["weights"], y,
                  *buffers["finals"], buffers["d_src"], *buffers["d_states"],
                  *buffers["d_weights"], buffers["d_y"], *buffers["d_finals"])
        plan.execute(plan.steps[:plan.extra])
        layers.append((plan, buffers))
        layer_in = y
    ct_y, ct_states = call.cts[0], call.cts[1:]
    d_out = np.zeros_like(layer_in) if ct_y is None else ct_y
    d_states = [np.zeros((call.layers * dirs, call.n, call.hidden), _F32)
                for _ in range(n_states)]
    d_weights = [None] * call.layers
    for layer in range(call.layers - 1, -1, -1):
        plan, buf = layers[layer]
        buf["d_y"][...] = d_out
        for i, ct in enumerate(ct_states):
            buf["d_finals"][i][...] = 0 if ct is None else \
                ct[layer * dirs:(layer + 1) * dirs].reshape(shape)
        plan.execute(plan.steps[plan.extra:])
        for i in range(n_states):
            d_states[i][layer * dirs:(layer + 1) * dirs] = buf["d_states"][i][0]
        d_weights[layer] = call.torch_grads(layer, *buf["d_weights"])
        d_out = buf["d_src"]
    grads = [d_out] + (d_states if call.has_state else []) + \
        [g for per_layer in d_weights for per_dir in per_layer for g in per_dir]
    outs = list(out) if out is not None else [None] * len(grads)
    results = []
    for g, buf in zip(grads, outs):
        r = output(backend, buf, g.shape, _F32)
        r[...] = g
        results.append(r)
    return tuple(results)


@onednn_kernel("lstm")
def lstm(backend, *inputs, out=None, **params):
    return _forward("lstm", backend, inputs, out, params)


@onednn_kernel("gru")
def gru(backend, *inputs, out=None, **params):
    return _forward("gru", backend, inputs, out, params)


@onednn_kernel("lstm_grad")
def lstm_grad(backend, *inputs, out=None, **params):
    return _grad("lstm", backend, inputs, out, params)


@onednn_kernel("gru_grad")
def gru_grad(backend, *inputs, out=None, **params):
    return _grad("gru", backend, inputs, out, params)
