"""Pre-norm transformer blocks shared by ViT and the character GPT (Vaswani et al.,
"Attention Is All You Need", 2017): multi-head self-attention, optionally causal, with a
key/value cache for step-by-step decoding."""
from __future__ import annotations

import math

import numpy as np

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn, ops

__all__ = ["SelfAttention", "TransformerBlock"]


class SelfAttention(nn.Cell):
    """Multi-head self-attention over (N, T, dim). ``causal=True`` lets position i see
    positions <= i only."""

    def __init__(self, dim: int, num_heads: int, causal: bool = False):
        super().__init__()
        if dim % num_heads:
            raise ShapeError("the width does not split into heads", op="SelfAttention",
                             expected="dim a multiple of num_heads",
                             got=f"dim={dim}, num_heads={num_heads}")
        self.dim, self.num_heads, self.causal = dim, num_heads, causal
        self.qkv = nn.Dense(dim, 3 * dim)
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        return self.attend(x)[0]

    def attend(self, x, past=None):
        """Attention of ``x``'s positions over ``past`` keys/values (each (N, heads, T0,
        head_dim), or None) and their own; returns ``(output, (keys, values))``, the cache
        for the next call."""
        n, t, d = x.shape
        h = self.num_heads
        qkv = ops.transpose(ops.reshape(self.qkv(x), (n, t, 3, h, d // h)), (2, 0, 3, 1, 4))
        q, k, v = qkv[0], qkv[1], qkv[2]
        if past is not None:
            k, v = ops.concat([past[0], k], axis=2), ops.concat([past[1], v], axis=2)
        scores = ops.mul(ops.matmul(q, ops.swap_last_axes(k)), 1.0 / math.sqrt(d // h))
        if self.causal:
            total = k.shape[2]  # query i (of t) sits at position total - t + i
            allowed = np.tril(np.ones((t, total), bool), k=total - t)
            scores = ops.where(sx.Tensor(allowed), scores,
                               sx.Tensor(np.array(-1e9, scores.dtype)))
        y = ops.matmul(ops.softmax(scores, -1), v)
        y = ops.reshape(ops.transpose(y, (0, 2, 1, 3)), (n, t, d))
        return self.proj(y), (k, v)


class TransformerBlock(nn.Cell):
    """``x + attn(norm(x))`` then ``x + mlp(norm(x))`` (GELU)."""

    def __init__(self, dim: int, num_heads: int, mlp_ratio: float = 4.0,
                 causal: bool = False):
        super().__init__()
        self.norm1 = nn.LayerNorm((dim,), epsilon=1e-5)
        self.attn = SelfAttention(dim, num_heads, causal)
        self.norm2 = nn.LayerNorm((dim,), epsilon=1e-5)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.SequentialCell(nn.Dense(dim, hidden), nn.GELU(), nn.Dense(hidden, dim))

    def construct(self, x):
        return self.step(x)[0]

    def step(self, x, past=None):
        """The block over new positions ``x`` given the cached keys/values ``past``."""
        a, cache = self.attn.attend(self.norm1(x), past)
        x = ops.add(x, a)
        return ops.add(x, self.mlp(self.norm2(x))), cache
