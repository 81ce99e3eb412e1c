"""The fused recurrent primitives as ONNX ``LSTM`` / ``GRU`` nodes, one per layer.

ONNX orders the gates differently (LSTM ``i, o, f, c`` for Sporeling's ``i, f, g, o``; GRU
``z, r, h`` for ``r, z, n``) and stacks the directions: each layer's weights are gathered
into that order and concatenated by direction, in the graph (so weights may be inputs as
well as initializers). GRU's candidate ``tanh(W_in x + b_in + r * (W_hn h + b_hn))`` is
ONNX's ``linear_before_reset=1``. ``Y`` (T, D, N, H) becomes Sporeling's (T, N, D*H) by a
Transpose and a Reshape that keeps the batch dimension symbolic; lengths become
``sequence_lens`` (int32, clipped to [0, T]), whose padded steps ONNX also zeroes; a sample
of length 0 keeps its initial state (a Where: onnxruntime would end it on zeros).
"""
from __future__ import annotations

import numpy as np

from .table import def_onnx

_ORDER = {"lstm": (0, 3, 1, 2), "gru": (1, 0, 2)}  # ONNX's gates, as indices of ours
_STATES = {"lstm": 2, "gru": 1}


def _gate_index(kind, hidden):
    return np.concatenate([np.arange(g * hidden, (g + 1) * hidden) for g in _ORDER[kind]])


def _emit(kind):
    def emit(b, eq, ins, outs, *, num_layers, bidirectional, has_bias, has_state,
             has_lengths):
        dirs = 2 if bidirectional else 1
        per = 4 if has_bias else 2
        n_states = _STATES[kind] if has_state else 0
        states = ins[1:1 + n_states]
        flat = ins[1 + n_states:1 + n_states + num_layers * dirs * per]
        hidden = int(eq.inputs[1 + n_states + 1].aval.shape[1])  # w_hh (G*H, H)
        steps = int(eq.inputs[0].aval.shape[0])
        index = b.ints(_gate_index(kind, hidden))
        lengths = ""
        if has_lengths:
            lengths = b.one("Cast", [ins[-1]], to=b.onnx.TensorProto.INT32)
            lengths = b.one("Clip", [lengths, b.const(np.int32(0)), b.const(np.int32(steps))])

        empty = None  # (1, N, 1): the samples of length 0, which keep their initial state
        if has_lengths and has_state:
            empty = b.one("Unsqueeze", [b.one("Equal", [lengths, b.const(np.int32(0))]),
                                        b.ints([0, 2])])

        def stacked(parts):
            rows = [b.one("Unsqueeze", [p, b.ints([0])]) for p in parts]
            return rows[0] if len(rows) == 1 else b.one("Concat", rows, axis=0)

        def gathered(name):
            return b.one("Gather", [name, index], axis=0)

        x, finals = ins[0], [[] for _ in range(_STATES[kind])]
        for layer in range(num_layers):
            ws = [flat[(layer * dirs + d) * per:(layer * dirs + d + 1) * per]
                  for d in range(dirs)]
            inputs = [x, stacked([gathered(w[0]) for w in ws]),
                      stacked([gathered(w[1]) for w in ws])]
            inputs.append(stacked([b.one("Concat", [gathered(w[2]), gathered(w[3])], axis=0)
                                   for w in ws]) if has_bias else "")
            inputs.append(lengths)
            initial = [b.one("Slice", [s, b.ints([layer * dirs]), b.ints([(layer + 1) * dirs]),
                                       b.ints([0])]) for s in states]
            inputs += initial
            attrs = dict(hidden_size=hidden,
                         direction="bidirectional" if bidirectional else "forward")
            if kind == "gru":
                attrs["linear_before_reset"] = 1
            results = b.node(kind.upper(), inputs,
                             [b.fresh("y")] + [b.fresh("state") for _ in finals], **attrs)
            for k, (acc, r) in enumerate(zip(finals, results[1:])):
                if empty is not None:  # onnxruntime ends a 0-length sequence on zeros
                    r = b.one("Where", [empty, initial[k], r])
                acc.append(r)
            y = b.one("Transpose", [results[0]], perm=[0, 2, 1, 3])
            last = layer == num_layers - 1
            x = b.one("Reshape", [y, b.ints([0, 0, -1])], outs[0] if last else None)
        for out, acc in zip(outs[1:], finals):
            b.node("Concat" if len(acc) > 1 else "Identity", acc, [out],
                   **({"axis": 0} if len(acc) > 1 else {}))
    return emit


def_onnx("lstm")(_emit("lstm"))
def_onnx("gru")(_emit("gru"))
