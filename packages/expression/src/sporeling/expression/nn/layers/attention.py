"""``MultiheadAttention`` (PyTorch's and MindSpore 2.x's semantics).

Inputs are sequence-first (L, N, E) unless ``batch_first`` (N, L, E); unbatched (L, E)
works too. Masks: ``key_padding_mask`` (N, S) and ``attn_mask`` (L, S) or (N * heads, L, S);
a boolean mask is True where attention is **not** allowed, a float mask is added to the
scores. Returns ``(output, weights)``; ``weights`` is averaged over heads (N, L, S) unless
``average_attn_weights=False`` (N, heads, L, S), or None when ``need_weights=False``.

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
    >>> x = np.zeros((3, 5, 8), np.float32)
    >>> out, w = mha(x, x, x)
    >>> out.shape, w.shape
    ((3, 5, 8), (3, 5, 5))
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler import ops
from sporeling.core import SporelingError, dtypes

from ..cell import Cell
from ..init import XavierNormal, XavierUniform
from ._check import shape_error
from ._params import make_param
from .dense import Dense
from .dropout import Dropout

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Cell):
    """Attention with ``num_heads`` heads of ``embed_dim // num_heads`` each.

    Parameters: ``in_proj_weight`` (3E, E) and ``in_proj_bias`` (3E) -- or
    ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` when ``kdim``/``vdim`` differ from
    ``embed_dim`` -- and ``out_proj`` (a Dense E -> E). ``add_bias_kv`` appends learned
    ``bias_k``/``bias_v`` to the keys and values, ``add_zero_attn`` a zero key/value.
    ``dropout`` applies to the attention weights in training mode.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype="float32"):
        super().__init__()
        self.embed_dim, self.num_heads = int(embed_dim), int(num_heads)
        self.kdim = self.embed_dim if kdim is None else int(kdim)
        self.vdim = self.embed_dim if vdim is None else int(vdim)
        self.head_dim = self.embed_dim // self.num_heads
        if self.head_dim * self.num_heads != self.embed_dim:
            raise SporelingError("embed_dim must be divisible by num_heads",
                                 op="MultiheadAttention", expected="embed_dim % num_heads == 0",
                                 got=f"embed_dim={embed_dim}, num_heads={num_heads}")
        self.batch_first, self.add_zero_attn = bool(batch_first), bool(add_zero_attn)
        self.has_bias = bool(has_bias)
        e = self.embed_dim
        self._same_dims = self.kdim == e and self.vdim == e
        if self._same_dims:
            self.in_proj_weight = make_param(XavierUniform(), (3 * e, e), "in_proj_weight",
                                             dtype)
        else:
            self.q_proj_weight = make_param(XavierUniform(), (e, e), "q_proj_weight", dtype)
            self.k_proj_weight = make_param(XavierUniform(), (e, self.kdim), "k_proj_weight",
                                            dtype)
            self.v_proj_weight = make_param(XavierUniform(), (e, self.vdim), "v_proj_weight",
                                            dtype)
        self.in_proj_bias = make_param("zeros", (3 * e,), "in_proj_bias", dtype) \
            if self.has_bias else None
        self.out_proj = Dense(e, e, bias_init="zeros", has_bias=self.has_bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = make_param(XavierNormal(), (1, 1, e), "bias_k", dtype)
            self.bias_v = make_param(XavierNormal(), (1, 1, e), "bias_v", dtype)
        else:
            self.bias_k = self.bias_v = None
        self.dropout = float(dropout)
        self.attn_dropout = Dropout(p=self.dropout) if self.dropout > 0 else None

    # ---- projections ----------------------------------------------------------------------

    def _bias(self, i):
        if self.in_proj_bias is None:
            return None
        e = self.embed_dim
        return ops.getitem(self.in_proj_bias, slice(i * e, (i + 1) * e))

    def _project(self, query, key, value):
        """q, k, v (batch-first) projected; self-attention does one fused matmul."""
        e = self.embed_dim
        if self._same_dims and query is key and key is value:
            qkv = ops.matmul(query, ops.swap_last_axes(self.in_proj_weight))
            if self.in_proj_bias is not None:
                qkv = ops.add(qkv, self.in_proj_bias)
            return ops.split(qkv, 3, -1)
        if self._same_dims:
            weights = [ops.getitem(self.in_proj_weight, slice(i * e, (i + 1) * e))
                       for i in range(3)]
        else:
            weights = [self.q_proj_weight, self.k_proj_weight, self.v_proj_weight]
        out = []
        for i, (x, w) in enumerate(zip((query, key, value), weights)):
            y = ops.matmul(x, ops.swap_last_axes(w))
            b = self._bias(i)
            out.append(y if b is None else ops.add(y, b))
        return out

    def _heads(self, x):
        n, length = x.shape[0], x.shape[1]
        return ops.transpose(ops.reshape(x, (n, length, self.num_heads, self.head_dim)),
                             (0, 2, 1, 3))

    # ---- masks ----------------------------------------------------------------------------

    def _mask_scores(self, scores, attn_mask, key_padding_mask, n, length, source):
        h = self.num_heads
        if attn_mask is not None:
            mask = attn_mask
            if tuple(mask.shape) == (length, source):
                pass
            elif tuple(mask.shape) == (n * h, length, source):
                mask = ops.reshape(mask, (n, h, length, source))
            else:
                raise shape_error(self, "wrong attn_mask shape",
                                  f"({length}, {source}) or ({n * h}, {length}, {source})",
                                  tuple(mask.shape))
            scores = self._apply(scores, mask)
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (n, source):
                raise shape_error(self, "wrong key_padding_mask shape", (n, source),
                                  tuple(key_padding_mask.shape))
            scores = self._apply(scores, ops.reshape(key_padding_mask, (n, 1, 1, source)))
        return scores

    @staticmethod
    def _apply(scores, mask):
        if mask.dtype == dtypes.bool_:
            return ops.where(mask, -np.inf, scores)
        return ops.add(scores, mask)

    def _extend_kv(self, k, v, attn_mask, key_padding_mask):
        """``add_bias_kv`` / ``add_zero_attn``: one more key and value, masks padded."""
        def pad_masks(attn_mask, key_padding_mask):
            if attn_mask is not None:
                attn_mask = ops.pad(attn_mask, ((0, 0),) * (len(attn_mask.shape) - 1) +
                                    ((0, 1),))
            if key_padding_mask is not None:
                key_padding_mask = ops.pad(key_padding_mask, ((0, 0), (0, 1)))
            return attn_mask, key_padding_mask

        n = k.shape[0]
        if self.bias_k is not None:
            k = ops.concat([k, ops.broadcast_to(self.bias_k, (n, 1, self.embed_dim))], 1)
            v = ops.concat([v, ops.broadcast_to(self.bias_v, (n, 1, self.embed_dim))], 1)
            attn_mask, key_padding_mask = pad_masks(attn_mask, key_padding_mask)
        if self.add_zero_attn:
            k = ops.pad(k, ((0, 0), (0, 1), (0, 0)))
            v = ops.pad(v, ((0, 0), (0, 1), (0, 0)))
            attn_mask, key_padding_mask = pad_masks(attn_mask, key_padding_mask)
        return k, v, attn_mask, key_padding_mask

    # ---- forward --------------------------------------------------------------------------

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        batched = len(query.shape) == 3
        self._check(query, key, value, batched)
        if not batched:
            query, key, value = (ops.expand_dims(t, 0) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = ops.expand_dims(key_padding_mask, 0)
        elif not self.batch_first:
            same = query is key and key is value
            query = ops.transpose(query, (1, 0, 2))
            key, value = (query, query) if same else \
                (ops.transpose(key, (1, 0, 2)), ops.transpose(value, (1, 0, 2)))
        q, k, v = self._project(query, key, value)
        k, v, attn_mask, key_padding_mask = self._extend_kv(k, v, attn_mask, key_padding_mask)
        n, length, source = q.shape[0], q.shape[1], k.shape[1]
        q, k, v = self._heads(q), self._heads(k), self._heads(v)
        scores = ops.matmul(ops.mul(q, 1.0 / math.sqrt(self.head_dim)), ops.swap_last_axes(k))
        scores = self._mask_scores(scores, attn_mask, key_padding_mask, n, length, source)
        weights = ops.softmax(scores, -1)
        dropped = self.attn_dropout(weights) if self.attn_dropout is not None else weights
        out = ops.transpose(ops.matmul(dropped, v), (0, 2, 1, 3))
        out = self.out_proj(ops.reshape(out, (n, length, self.embed_dim)))
        if not batched:
            out = ops.squeeze(out, 0)
        elif not self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        if not need_weights:
            return out, None
        if average_attn_weights:
            weights = ops.mean(weights, 1)
        return out, (ops.squeeze(weights, 0) if not batched else weights)

    def _check(self, query, key, value, batched):
        ndim = 3 if batched else 2
        for name, t, size in (("query", query, self.embed_dim), ("key", key, self.kdim),
                              ("value", value, self.vdim)):
            shape = tuple(t.shape)
            if len(shape) != ndim or shape[-1] != size:
                layout = "(N, L, E)" if self.batch_first else "(L, N, E)"
                raise shape_error(self, f"wrong {name} shape",
                                  f"{layout if batched else '(L, E)'} with E={size}", shape)

    def extend_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, "
                f"dropout={self.dropout}, batch_first={self.batch_first}")
