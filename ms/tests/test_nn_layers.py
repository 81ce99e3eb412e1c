"""``ms.nn`` basic, normalization, embedding, recurrent and transformer cells."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import ShapeError
from sporeling.ms import nn

from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(2)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_dense_and_bidense():
    dense = nn.Dense(3, 2, activation="relu")
    x = RNG.normal(size=(4, 3)).astype(np.float32)
    np.testing.assert_allclose(np_of(dense(t(x))),
                               np.maximum(x @ np_of(dense.weight).T + np_of(dense.bias), 0),
                               rtol=1e-5, atol=1e-6)
    bi = nn.BiDense(3, 4, 2)
    x1, x2 = RNG.normal(size=(5, 3)), RNG.normal(size=(5, 4))
    expected = np.einsum("ni,oij,nj->no", x1, np_of(bi.weight), x2) + np_of(bi.bias)
    np.testing.assert_allclose(np_of(bi(t(x1), t(x2))), expected, rtol=1e-5, atol=1e-5)
    assert np_of(bi(t(RNG.normal(size=(2, 5, 3))), t(RNG.normal(size=(2, 5, 4))))).shape == \
        (2, 5, 2)
    with pytest.raises(ShapeError, match="input2"):
        bi(t(x1), t(x1))


def test_flatten_identity_unflatten_channel_shuffle():
    x = np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3)
    assert np_of(nn.Flatten()(t(x))).shape == (2, 12)
    np.testing.assert_array_equal(np_of(nn.Identity()(t(x))), x)
    np.testing.assert_array_equal(np_of(nn.Unflatten(1, (2, 2))(t(x))), x.reshape(2, 2, 2, 3))
    shuffled = np_of(nn.ChannelShuffle(2)(t(x)))
    np.testing.assert_array_equal(shuffled, x.reshape(2, 2, 2, 3).transpose(0, 2, 1, 3)
                                  .reshape(2, 4, 3))
    # documented example: 4 channels, 2 groups -> channel order 0, 2, 1, 3
    np.testing.assert_array_equal(shuffled[:, :, 0], x[:, [0, 2, 1, 3], 0])


@pytest.mark.parametrize("make, shape", [(lambda: nn.Dropout1d(0.5), (4, 64, 6)),
                                         (lambda: nn.Dropout2d(0.5), (4, 64, 3, 3)),
                                         (lambda: nn.Dropout3d(0.5), (4, 64, 2, 2, 2))])
def test_channel_dropout_zeroes_whole_channels(make, shape):
    ms.set_seed(0)
    cell = make()
    x = np.ones(shape, np.float32)
    np.testing.assert_array_equal(np_of(cell(t(x))), x)          # not training: identity
    out = np_of(cell.set_train()(t(x))).reshape(shape[0], shape[1], -1)
    per_channel = out.max(-1)
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert np.all(out.min(-1) == per_channel)                    # a channel is all or nothing
    assert 0.3 < (per_channel > 0).mean() < 0.7


def test_dropout_keep_prob():
    ms.set_seed(0)
    out = np_of(nn.Dropout(p=0.25).set_train()(t(np.ones(4000))))
    assert abs((out > 0).mean() - 0.75) < 0.05 and np.allclose(out[out > 0], 1 / 0.75)


def _bn_reference(x, axes, eps=1e-5):
    mean = x.mean(axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axes, keepdims=True) + eps)


def test_batch_norm_3d_sync_and_instance_norms():
    x = RNG.normal(size=(3, 4, 2, 3, 2)).astype(np.float32)
    bn = nn.BatchNorm3d(4).set_train()
    np.testing.assert_allclose(np_of(bn(t(x))), _bn_reference(x, (0, 2, 3, 4)), rtol=1e-4,
                               atol=1e-5)
    # MindSpore's momentum 0.9 is the weight of the old moving mean
    np.testing.assert_allclose(np_of(bn.moving_mean), 0.1 * x.mean((0, 2, 3, 4)), rtol=1e-4,
                               atol=1e-6)
    sync = nn.SyncBatchNorm(4).set_train()
    x2 = RNG.normal(size=(6, 4)).astype(np.float32)
    np.testing.assert_allclose(np_of(sync(t(x2))), _bn_reference(x2, (0,)), rtol=1e-4,
                               atol=1e-5)
    for cell, shape in ((nn.InstanceNorm1d(4), (2, 4, 5)), (nn.InstanceNorm2d(4), (2, 4, 3, 3)),
                        (nn.InstanceNorm3d(4), (2, 4, 2, 2, 3))):
        xi = RNG.normal(size=shape).astype(np.float32)
        axes = tuple(range(2, len(shape)))
        np.testing.assert_allclose(np_of(cell(t(xi))), _bn_reference(xi, axes), rtol=1e-4,
                                   atol=1e-5)
    with pytest.raises(ShapeError, match="C=4"):
        nn.InstanceNorm2d(4)(t(np.zeros((2, 3, 2, 2))))


def test_batchnorm_1d_2d_layernorm_groupnorm():
    x = RNG.normal(size=(5, 4, 3, 3)).astype(np.float32)
    np.testing.assert_allclose(np_of(nn.BatchNorm2d(4).set_train()(t(x))),
                               _bn_reference(x, (0, 2, 3)), rtol=1e-4, atol=1e-5)
    x1 = RNG.normal(size=(5, 4)).astype(np.float32)
    np.testing.assert_allclose(np_of(nn.BatchNorm1d(4).set_train()(t(x1))),
                               _bn_reference(x1, (0,)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np_of(nn.LayerNorm((3,), epsilon=1e-5)(t(x))),
                               _bn_reference(x, (3,)), rtol=1e-4, atol=1e-5)
    g = x.reshape(5, 2, 2, 3, 3)
    np.testing.assert_allclose(np_of(nn.GroupNorm(2, 4)(t(x))),
                               _bn_reference(g, (2, 3, 4)).reshape(x.shape), rtol=1e-4,
                               atol=1e-5)


def test_embedding_lookups():
    emb = nn.Embedding(10, 3)
    idx = np.array([[1, 4], [9, 0]])
    np.testing.assert_array_equal(np_of(emb(t(idx, np.int32))), np_of(emb.embedding_table)[idx])
    look = nn.EmbeddingLookup(10, 3, max_norm=0.5)
    table = np_of(look.embedding_table)[idx]
    norms = np.linalg.norm(table, axis=-1, keepdims=True)
    np.testing.assert_allclose(np_of(look(t(idx, np.int32))),
                               table * np.minimum(1, 0.5 / norms), rtol=1e-5)
    multi = nn.MultiFieldEmbeddingLookup(10, 3, field_size=2, operator="SUM")
    ids, vals, fields = (np.array([[1, 2, 3]]), np.array([[1.0, 2.0, 0.5]], np.float32),
                         np.array([[0, 1, 1]]))
    table = np_of(multi.embedding_table)
    expected = np.stack([table[1] * 1.0, table[2] * 2.0 + table[3] * 0.5])[None]
    np.testing.assert_allclose(np_of(multi(t(ids, np.int32), t(vals), t(fields, np.int32))),
                               expected, rtol=1e-5)
    mean = nn.MultiFieldEmbeddingLookup(10, 3, field_size=2, operator="MEAN")
    mean.embedding_table.set_data(multi.embedding_table)
    np.testing.assert_allclose(np_of(mean(t(ids, np.int32), t(vals), t(fields, np.int32)))[0, 1],
                               expected[0, 1] / 2, rtol=1e-5)
    mx = nn.MultiFieldEmbeddingLookup(10, 3, field_size=2, operator="MAX")
    mx.embedding_table.set_data(multi.embedding_table)
    np.testing.assert_allclose(np_of(mx(t(ids, np.int32), t(vals), t(fields, np.int32)))[0, 1],
                               np.maximum(table[2] * 2.0, table[3] * 0.5), rtol=1e-5)


def _rnn_reference(x, weights, act=np.tanh):
    w_ih, w_hh, b_ih, b_hh = weights
    h = np.zeros((x.shape[1], w_hh.shape[1]))
    outs = []
    for step in x:
        h = act(step @ w_ih.T + b_ih + h @ w_hh.T + b_hh)
        outs.append(h)
    return np.stack(outs), h


def test_rnn_and_cells():
    x = RNG.normal(size=(4, 2, 3)).astype(np.float32)
    rnn = nn.RNN(3, 5, nonlinearity="relu")
    w = [np_of(getattr(rnn, n)) for n in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0",
                                          "bias_hh_l0")]
    out, h = rnn(t(x))
    ref_out, ref_h = _rnn_reference(x, w, lambda v: np.maximum(v, 0))
    np.testing.assert_allclose(np_of(out), ref_out, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np_of(h)[0], ref_h, rtol=1e-5, atol=1e-5)

    cell = nn.RNNCell(3, 5)
    hx = RNG.normal(size=(2, 5)).astype(np.float32)
    cw = [np_of(p) for p in (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)]
    np.testing.assert_allclose(np_of(cell(t(x[0]), t(hx))),
                               np.tanh(x[0] @ cw[0].T + cw[2] + hx @ cw[1].T + cw[3]),
                               rtol=1e-5, atol=1e-5)

    gru = nn.GRUCell(3, 5)
    gw = [np_of(p) for p in (gru.weight_ih, gru.weight_hh, gru.bias_ih, gru.bias_hh)]
    gi, gh = x[0] @ gw[0].T + gw[2], hx @ gw[1].T + gw[3]
    r = sigmoid(gi[:, :5] + gh[:, :5])
    z = sigmoid(gi[:, 5:10] + gh[:, 5:10])
    n = np.tanh(gi[:, 10:] + r * gh[:, 10:])
    np.testing.assert_allclose(np_of(gru(t(x[0]), t(hx))), (1 - z) * n + z * hx, rtol=1e-5,
                               atol=1e-5)

    lstm = nn.LSTMCell(3, 5)
    lw = [np_of(p) for p in (lstm.weight_ih, lstm.weight_hh, lstm.bias_ih, lstm.bias_hh)]
    cx = RNG.normal(size=(2, 5)).astype(np.float32)
    gates = x[0] @ lw[0].T + lw[2] + hx @ lw[1].T + lw[3]
    i, f, g, o = np.split(gates, 4, -1)
    c_new = sigmoid(f) * cx + sigmoid(i) * np.tanh(g)
    h_new, c_out = lstm(t(x[0]), (t(hx), t(cx)))
    np.testing.assert_allclose(np_of(c_out), c_new, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np_of(h_new), sigmoid(o) * np.tanh(c_new), rtol=1e-5, atol=1e-5)


def test_gru_and_lstm_shapes_follow_mindspore():
    x = t(RNG.normal(size=(2, 4, 3)))
    out, h = nn.GRU(3, 5, num_layers=2, batch_first=True, bidirectional=True)(x)
    assert np_of(out).shape == (2, 4, 10) and np_of(h).shape == (4, 2, 5)
    out, (h, c) = nn.LSTM(3, 5, batch_first=True)(x)
    assert np_of(out).shape == (2, 4, 5) and np_of(c).shape == (1, 2, 5)


def test_transformer_stack():
    ms.set_seed(0)
    src, tgt = t(RNG.normal(size=(2, 5, 8))), t(RNG.normal(size=(2, 3, 8)))
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    memory = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True),
                                   2)(src)
    out = layer(tgt, memory)
    assert np_of(out).shape == (2, 3, 8)
    # post-norm: every position is layer-normalised
    np.testing.assert_allclose(np_of(out).mean(-1), 0, atol=1e-5)
    dec = nn.TransformerDecoder(layer, 2)
    assert np_of(dec(tgt, memory)).shape == (2, 3, 8)
    model = nn.Transformer(8, 2, 1, 1, 16, 0.0, batch_first=True)
    mask = np.triu(np.full((3, 3), -1e9, np.float32), 1)
    y = np_of(model(src, tgt, tgt_mask=t(mask)))
    assert y.shape == (2, 3, 8) and np.isfinite(y).all()
    # causal mask: the first target position ignores later ones
    tgt2 = np_of(tgt).copy()
    tgt2[:, 2] += 5.0
    y2 = np_of(model(src, t(tgt2), tgt_mask=t(mask)))
    np.testing.assert_allclose(y2[:, 0], y[:, 0], rtol=1e-4, atol=1e-5)
    attn = nn.MultiheadAttention(8, 2, batch_first=True)
    assert np_of(attn(src, src, src)[0]).shape == (2, 5, 8)


def test_layers_gradients_and_graph_mode():
    cell = nn.GRUCell(2, 3, dtype=ms.float64)
    check_grad(lambda x: cell(x), RNG.normal(size=(2, 2)))
    inorm = nn.InstanceNorm1d(2, dtype=ms.float64)
    check_grad(inorm, RNG.normal(size=(2, 2, 4)), rtol=1e-4, atol=1e-5)
    bi = nn.BiDense(2, 2, 1)
    x = t(RNG.normal(size=(3, 2)))
    graph_equals_pynative(lambda a: bi(a, a), x)
    graph_equals_pynative(lambda a: nn.ChannelShuffle(2)(a) * 2.0, t(RNG.normal(size=(1, 4, 3))))
    with pytest.raises(ShapeError, match="rank"):
        nn.ChannelShuffle(1)(x)
    lstm = nn.LSTMCell(2, 3)
    graph_equals_pynative(lambda a: lstm(a)[0], x)


def test_facade_cells_in_graph_mode_context_match_pynative():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.up = nn.Conv1dTranspose(2, 3, 3, stride=2)
            self.pool = nn.MaxPool1d(2, 2)
            self.norm = nn.InstanceNorm1d(3)
            self.act = nn.SeLU()

        def construct(self, x):
            return self.act(self.norm(self.pool(self.up(x))))

    ms.set_seed(0)
    net = Net()
    x = t(RNG.normal(size=(2, 2, 6)))
    eager = np_of(net(x))
    loss = lambda x: (net(x) ** 2).sum()  # noqa: E731
    eager_grad = np_of(ms.grad(loss)(x))
    before = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(np_of(net(x)), eager, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np_of(ms.jit(ms.grad(loss))(x)), eager_grad, rtol=1e-4,
                                   atol=1e-5)
    finally:
        ms.set_context(mode=before)
