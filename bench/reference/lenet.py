"""LeNet-5 (1x28x28: conv 6@5x5 pad 2, relu, maxpool 2, conv 16@5x5, relu, maxpool 2,
dense 400-120-84-10) forward and backward by hand, with im2col convolutions."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .common import cross_entropy, sgd_momentum


def conv_forward(x, w, b, pad):
    """x (N,C,H,W), w (O,C,k,k) -> (N,O,H',W'); returns the output and the im2col patches."""
    if pad:
        x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[-1]
    patches = sliding_window_view(x, (k, k), axis=(2, 3))          # N,C,H',W',k,k
    n, c, ho, wo = patches.shape[:4]
    cols = patches.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, c * k * k)
    out = cols @ w.reshape(w.shape[0], -1).T + b                    # N*H'*W', O
    return out.reshape(n, ho, wo, -1).transpose(0, 3, 1, 2), cols


def conv_backward(g, cols, x_shape, w, pad):
    """Gradients of input, weight and bias from the output gradient g (N,O,H',W')."""
    n, o, ho, wo = g.shape
    k = w.shape[-1]
    g2 = g.transpose(0, 2, 3, 1).reshape(-1, o)
    gw = (g2.T @ cols).reshape(w.shape)
    gb = g2.sum(axis=0)
    gcols = (g2 @ w.reshape(o, -1)).reshape(n, ho, wo, -1, k, k)    # N,H',W',C,k,k
    c = x_shape[1]
    gx = np.zeros((n, c, x_shape[2] + 2 * pad, x_shape[3] + 2 * pad), g.dtype)
    for i in range(k):  # col2im: k*k strided adds
        for j in range(k):
            gx[:, :, i:i + ho, j:j + wo] += gcols[:, :, :, :, i, j].transpose(0, 3, 1, 2)
    if pad:
        gx = gx[:, :, pad:-pad, pad:-pad]
    return gx, gw, gb


def pool_forward(x):
    n, c, h, w = x.shape
    blocks = x.reshape(n, c, h // 2, 2, w // 2, 2)
    out = blocks.max(axis=(3, 5))
    mask = blocks == out[:, :, :, None, :, None]
    return out, mask


def pool_backward(g, mask):
    n, c, h, w = g.shape
    gx = mask * g[:, :, :, None, :, None]
    return gx.reshape(n, c, h * 2, w * 2)


class NumpyLeNet:
    def __init__(self, lr=0.01, momentum=0.9, seed=0):
        rng = np.random.default_rng(seed)

        def u(shape, fan_in):
            # float32 throughout (NumPy 2 would promote by the float64 scalar)
            return (rng.uniform(-1, 1, shape) / np.sqrt(fan_in)).astype(np.float32)
        self.params = [u((6, 1, 5, 5), 25), np.zeros(6, np.float32),
                       u((16, 6, 5, 5), 150), np.zeros(16, np.float32),
                       u((400, 120), 400), np.zeros(120, np.float32),
                       u((120, 84), 120), np.zeros(84, np.float32),
                       u((84, 10), 84), np.zeros(10, np.float32)]
        self.velocity = [np.zeros_like(p) for p in self.params]
        self.lr, self.momentum = lr, momentum

    def step(self, x, labels) -> float:
        w1, b1, w2, b2, w3, b3, w4, b4, w5, b5 = self.params
        c1, cols1 = conv_forward(x, w1, b1, 2)
        r1 = np.maximum(c1, 0)
        p1, m1 = pool_forward(r1)
        c2, cols2 = conv_forward(p1, w2, b2, 0)
        r2 = np.maximum(c2, 0)
        p2, m2 = pool_forward(r2)
        f = p2.reshape(x.shape[0], -1)
        h3 = np.maximum(f @ w3 + b3, 0)
        h4 = np.maximum(h3 @ w4 + b4, 0)
        logits = h4 @ w5 + b5
        loss, g = cross_entropy(logits, labels)
        gw5, gb5 = h4.T @ g, g.sum(0)
        g = (g @ w5.T) * (h4 > 0)
        gw4, gb4 = h3.T @ g, g.sum(0)
        g = (g @ w4.T) * (h3 > 0)
        gw3, gb3 = f.T @ g, g.sum(0)
        g = (g @ w3.T).reshape(p2.shape)
        g = pool_backward(g, m2) * (c2 > 0)
        g, gw2, gb2 = conv_backward(g, cols2, p1.shape, w2, 0)
        g = pool_backward(g, m1) * (c1 > 0)
        _, gw1, gb1 = conv_backward(g, cols1, x.shape, w1, 2)
        grads = [gw1, gb1, gw2, gb2, gw3, gb3, gw4, gb4, gw5, gb5]
        sgd_momentum(self.params, self.velocity, grads, self.lr, self.momentum)
        return loss
