"""The fused recurrent networks: first order only (``lstm_grad`` / ``gru_grad`` have no
backward rule), multi-layer, bidirectional, with and without biases, states and lengths."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(7)


def weights(kind, layers, dirs, size, hidden, bias):
    g = (4 if kind == "lstm" else 3) * hidden
    out = []
    for layer in range(layers):
        for _ in range(dirs):
            out += [rng.standard_normal((g, size if layer == 0 else dirs * hidden)) * 0.5,
                    rng.standard_normal((g, hidden)) * 0.5]
            if bias:
                out += [rng.standard_normal(g) * 0.5, rng.standard_normal(g) * 0.5]
    return out


def _lstm(states, **kw):
    def f(x, *rest):
        hx, w = (rest[:2], rest[2:]) if states else (None, rest)
        y, (h, c) = ops.lstm(x, w, hx, **kw)
        return y, h, c
    return f


def _lstm_lengths(**kw):
    def f(x, lengths, *w):
        y, (h, c) = ops.lstm(x, w, seq_length=lengths, **kw)
        return y, h, c
    return f


def _gru(states, **kw):
    def f(x, *rest):
        hx, w = (rest[0], rest[1:]) if states else (None, rest)
        return ops.gru(x, w, hx, **kw)
    return f


def _gru_lengths(**kw):
    def f(x, lengths, h0, *w):
        return ops.gru(x, w, h0, seq_length=lengths, **kw)
    return f


T, N, I, H = 3, 2, 3, 2
X = rng.standard_normal((T, N, I))
S2 = rng.standard_normal((2 * 2, N, H))      # 2 layers x 2 directions
S1 = rng.standard_normal((2, N, H))          # 1 layer x 2 directions
LENGTHS = np.array([2, 3])
FIRST = {"order": 1}

CASES = {
    "lstm": [
        (_lstm(True, bidirectional=True), [X, S2, S2 * 0.5]
         + weights("lstm", 2, 2, I, H, True), FIRST),
        (_lstm(False, bidirectional=False, has_bias=False), [X]
         + weights("lstm", 2, 1, I, H, False), FIRST),
        (_lstm(True, bidirectional=True, has_bias=False), [X, S1, S1 * 0.5]
         + weights("lstm", 1, 2, I, H, False), FIRST),
        (_lstm_lengths(bidirectional=True, batch_first=True),
         [X.transpose(1, 0, 2), LENGTHS] + weights("lstm", 2, 2, I, H, True), FIRST),
    ],
    "gru": [
        (_gru(True, bidirectional=True), [X, S2] + weights("gru", 2, 2, I, H, True), FIRST),
        (_gru(False, has_bias=False), [X] + weights("gru", 2, 1, I, H, False), FIRST),
        (_gru(True, bidirectional=True, has_bias=False), [X, S1]
         + weights("gru", 1, 2, I, H, False), FIRST),
        (_gru_lengths(bidirectional=True), [X, LENGTHS, S2]
         + weights("gru", 2, 2, I, H, True), FIRST),
    ],
}
