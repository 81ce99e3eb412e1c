"""LSTM, GRU, MultiheadAttention and TransformerEncoderLayer against NumPy references."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn
from test_nn_layers import check_cell_grads

RNG = np.random.default_rng(1)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def params(cell):
    return {name: p.asnumpy().astype(np.float64) for name, p in cell.parameters_and_names()}


def lstm_ref(cell, x, h0, c0, lengths=None):
    """Time-major reference: PyTorch's equations, gates i, f, g, o."""
    p, hsz = params(cell), cell.hidden_size
    steps, n = x.shape[:2]
    lengths = np.full(n, steps) if lengths is None else np.asarray(lengths)
    hs, cs = [], []
    for layer in range(cell.num_layers):
        outs = []
        for d, suffix in enumerate(("", "_reverse")[:cell.num_directions]):
            k = layer * cell.num_directions + d
            h, c = h0[k], c0[k]
            w_ih, w_hh = p[f"weight_ih_l{layer}{suffix}"], p[f"weight_hh_l{layer}{suffix}"]
            b = p[f"bias_ih_l{layer}{suffix}"] + p[f"bias_hh_l{layer}{suffix}"]
            out = np.zeros((steps, n, hsz))
            for t in (range(steps - 1, -1, -1) if d else range(steps)):
                gates = x[t] @ w_ih.T + h @ w_hh.T + b
                i, f, g, o = np.split(gates, 4, -1)
                c_new = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
                h_new = sigmoid(o) * np.tanh(c_new)
                live = (t < lengths)[:, None]
                h, c = np.where(live, h_new, h), np.where(live, c_new, c)
                out[t] = np.where(live, h_new, 0)
            outs.append(out)
            hs.append(h)
            cs.append(c)
        x = np.concatenate(outs, -1)
    return x, np.stack(hs), np.stack(cs)


def gru_ref(cell, x, h0):
    p, steps = params(cell), x.shape[0]
    hs = []
    for layer in range(cell.num_layers):
        h = h0[layer]
        w_ih, w_hh = p[f"weight_ih_l{layer}"], p[f"weight_hh_l{layer}"]
        b_ih, b_hh = p[f"bias_ih_l{layer}"], p[f"bias_hh_l{layer}"]
        out = []
        for t in range(steps):
            xr, xz, xn = np.split(x[t] @ w_ih.T + b_ih, 3, -1)
            hr, hz, hn = np.split(h @ w_hh.T + b_hh, 3, -1)
            r, z = sigmoid(xr + hr), sigmoid(xz + hz)
            n = np.tanh(xn + r * hn)
            h = (1 - z) * n + z * h
            out.append(h)
        x = np.stack(out)
        hs.append(h)
    return x, np.stack(hs)


def test_lstm_bidirectional_two_layers_batch_first_with_states():
    lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True)
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    h0 = RNG.standard_normal((4, 2, 4)).astype(np.float32)
    c0 = RNG.standard_normal((4, 2, 4)).astype(np.float32)
    out, (h, c) = lstm(sx.Tensor(x), (sx.Tensor(h0), sx.Tensor(c0)))
    ref, ref_h, ref_c = lstm_ref(lstm, x.transpose(1, 0, 2), h0, c0)
    np.testing.assert_allclose(out.asnumpy(), ref.transpose(1, 0, 2), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), ref_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c.asnumpy(), ref_c, rtol=1e-4, atol=1e-5)


def test_lstm_seq_length_keeps_state_after_the_end():
    lstm = nn.LSTM(2, 3, bidirectional=True)
    x = RNG.standard_normal((4, 2, 2)).astype(np.float32)
    zeros = np.zeros((2, 2, 3))
    out, (h, c) = lstm(sx.Tensor(x), seq_length=np.array([4, 2]))
    ref, ref_h, ref_c = lstm_ref(lstm, x, zeros, zeros, lengths=[4, 2])
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), ref_h, rtol=1e-4, atol=1e-5)


def test_gru_two_layers():
    gru = nn.GRU(3, 4, num_layers=2)
    x = RNG.standard_normal((5, 2, 3)).astype(np.float32)
    h0 = RNG.standard_normal((2, 2, 4)).astype(np.float32)
    out, h = gru(sx.Tensor(x), sx.Tensor(h0))
    ref, ref_h = gru_ref(gru, x, h0)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), ref_h, rtol=1e-4, atol=1e-5)


def test_rnn_grads_names_and_errors():
    check_cell_grads(nn.LSTM(2, 3, bidirectional=True), RNG.standard_normal((3, 2, 2)))
    check_cell_grads(nn.GRU(2, 3), RNG.standard_normal((3, 2, 2)))
    names = [n for n, _ in nn.LSTM(2, 3, bidirectional=True).parameters_and_names()]
    assert names[:4] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    assert "weight_ih_l0_reverse" in names
    with pytest.raises(ShapeError, match="LSTM"):
        nn.LSTM(3, 4)(np.zeros((5, 2, 2), np.float32))


def mha_ref(mha, q, k, v, attn_mask=None, key_padding_mask=None):
    """Batch-first NumPy reference; boolean masks mark disallowed positions."""
    p, e, h = params(mha), mha.embed_dim, mha.num_heads
    w, b = p["in_proj_weight"], p["in_proj_bias"]
    qp, kp, vp = (t @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e]
                  for i, t in enumerate((q, k, v)))
    n, length, source, d = q.shape[0], q.shape[1], k.shape[1], e // h

    def heads(t):
        return t.reshape(n, -1, h, d).transpose(0, 2, 1, 3)

    scores = heads(qp) @ heads(kp).transpose(0, 1, 3, 2) / np.sqrt(d)
    if attn_mask is not None:
        scores = np.where(attn_mask, -np.inf, scores)
    if key_padding_mask is not None:
        scores = np.where(key_padding_mask[:, None, None, :], -np.inf, scores)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    out = (weights @ heads(vp)).transpose(0, 2, 1, 3).reshape(n, length, e)
    out = out @ p["out_proj.weight"].T + p["out_proj.bias"]
    return out, weights.mean(1)


def test_multihead_attention_with_masks_sequence_first():
    mha = nn.MultiheadAttention(8, 2)
    q = RNG.standard_normal((2, 3, 8)).astype(np.float32)  # batch-first copies
    kv = RNG.standard_normal((2, 4, 8)).astype(np.float32)
    causal = np.triu(np.ones((3, 4), bool), 1)
    padding = np.array([[False, False, False, True], [False, False, False, False]])
    out, weights = mha(sx.Tensor(q.transpose(1, 0, 2)), sx.Tensor(kv.transpose(1, 0, 2)),
                       sx.Tensor(kv.transpose(1, 0, 2)), key_padding_mask=padding,
                       attn_mask=causal)
    ref, ref_w = mha_ref(mha, q, kv, kv, causal, padding)
    np.testing.assert_allclose(out.asnumpy(), ref.transpose(1, 0, 2), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), ref_w, rtol=1e-4, atol=1e-6)


def test_self_attention_batch_first_and_grads():
    mha = nn.MultiheadAttention(4, 2, batch_first=True)
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    t = sx.Tensor(x)
    out, weights = mha(t, t, t, average_attn_weights=False)
    ref, _ = mha_ref(mha, x, x, x)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)
    assert weights.shape == (2, 2, 3, 3)

    class SelfAttention(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mha = nn.MultiheadAttention(4, 2, batch_first=True)

        def construct(self, x):
            return self.mha(x, x, x)[0]

    check_cell_grads(SelfAttention(), RNG.standard_normal((2, 3, 4)))
    with pytest.raises(ShapeError, match="MultiheadAttention"):
        mha(t, t, sx.Tensor(np.zeros((2, 3, 5), np.float32)))


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer_wiring(norm_first):
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True,
                                       norm_first=norm_first)
    x = sx.Tensor(RNG.standard_normal((2, 3, 8)).astype(np.float32))
    mask = np.triu(np.ones((3, 3), bool), 1)

    def attention(y):
        return layer.self_attn(y, y, y, attn_mask=mask)[0]

    def feed_forward(y):
        return layer.linear2(layer.activation(layer.linear1(y)))

    if norm_first:
        y = x + attention(layer.norm1(x))
        ref = y + feed_forward(layer.norm2(y))
    else:
        y = layer.norm1(x + attention(x))
        ref = layer.norm2(y + feed_forward(y))
    np.testing.assert_allclose(layer(x, src_mask=mask).asnumpy(), ref.asnumpy(), rtol=1e-5,
                               atol=1e-6)
    encoder = nn.TransformerEncoder(layer, 2)
    names = [n for n, _ in encoder.parameters_and_names()]
    assert "layers.1.self_attn.in_proj_weight" in names
    assert encoder.layers[0].linear1.weight is not encoder.layers[1].linear1.weight
    assert encoder(x).shape == (2, 3, 8)
