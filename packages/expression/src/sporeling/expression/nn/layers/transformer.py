"""``TransformerEncoderLayer`` and ``TransformerEncoder`` (PyTorch's and MindSpore 2.x's)."""
from __future__ import annotations

import copy

from sporeling.compiler import ops
from sporeling.core.arguments import check_fits, check_int

from ..cell import Cell
from ..containers import CellList
from .activation import get_activation
from .attention import MultiheadAttention
from .dense import Dense
from .dropout import Dropout
from .normalization import LayerNorm

__all__ = ["TransformerEncoderLayer", "TransformerEncoder"]


class TransformerEncoderLayer(Cell):
    """Self-attention then a feed-forward block, each with a residual connection and a
    LayerNorm: after the residual (``norm_first=False``, the original "post-norm") or at the
    start of each block (``norm_first=True``, "pre-norm"). ``activation`` is ``"relu"``,
    ``"gelu"`` (exact) or a Cell. ``construct(src, src_mask=None,
    src_key_padding_mask=None)``; shapes as :class:`MultiheadAttention`.

        >>> import numpy as np
        >>> from sporeling.expression import nn
        >>> layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
        >>> layer(np.zeros((2, 5, 8), np.float32)).shape
        (2, 5, 8)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype="float32"):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.linear2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = bool(norm_first)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        if activation == "gelu":
            from .activation import GELU
            activation = GELU(approximate=False)
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation

    def _attention(self, x, mask, padding):
        return self.dropout1(self.self_attn(x, x, x, key_padding_mask=padding,
                                            need_weights=False, attn_mask=mask)[0])

    def _feed_forward(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = ops.add(x, self._attention(self.norm1(x), src_mask, src_key_padding_mask))
            return ops.add(x, self._feed_forward(self.norm2(x)))
        x = self.norm1(ops.add(x, self._attention(x, src_mask, src_key_padding_mask)))
        return self.norm2(ops.add(x, self._feed_forward(x)))


class TransformerEncoder(Cell):
    """``num_layers`` copies of ``encoder_layer`` applied in turn (parameters are copied,
    not shared), then ``norm`` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.num_layers = check_int(num_layers, "num_layers", op="TransformerEncoder", min=1)
        check_fits(self.num_layers * sum(p.nbytes for p in encoder_layer.get_parameters()),
                   "the layers' parameters", op="TransformerEncoder")
        self.layers = CellList([copy.deepcopy(encoder_layer) for _ in range(self.num_layers)])
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        for layer in self.layers:
            x = layer(x, src_mask, src_key_padding_mask)
        return self.norm(x) if self.norm is not None else x
