"""Transformer cells of ``ms.nn``: ``MultiheadAttention``, ``TransformerEncoderLayer`` and
``TransformerEncoder`` are sporeling.expression's; the decoder side and ``Transformer`` are
built from them (MindSpore 2.x's signatures, which are PyTorch's)."""
from __future__ import annotations

import copy

import sporeling.expression as sx
from sporeling.core.arguments import check_fits, check_int
from sporeling.expression.nn import (CellList, Dense, Dropout, LayerNorm, MultiheadAttention,
                                     TransformerEncoder, TransformerEncoderLayer)

from .cell import Cell
from .activation import GELU, get_activation

ops = sx.ops

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerDecoder", "Transformer"]


class TransformerDecoderLayer(Cell):
    """Self-attention, cross-attention over ``memory``, then feed-forward; each block with a
    residual and a LayerNorm (post-norm, or pre-norm with ``norm_first``).
    ``construct(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=None):
        super().__init__()
        dt = dtype or "float32"
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dt)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, dtype=dt)
        self.linear1 = Dense(d_model, dim_feedforward, dtype=dt)
        self.dropout = Dropout(p=dropout)
        self.linear2 = Dense(dim_feedforward, d_model, dtype=dt)
        self.norm_first = bool(norm_first)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dt)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dt)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dt)
        self.dropout1, self.dropout2 = Dropout(p=dropout), Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        if activation == "gelu":
            activation = GELU(approximate=False)
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation

    def _sa(self, x, mask, padding):
        return self.dropout1(self.self_attn(x, x, x, key_padding_mask=padding,
                                            need_weights=False, attn_mask=mask)[0])

    def _mha(self, x, memory, mask, padding):
        return self.dropout2(self.multihead_attn(x, memory, memory, key_padding_mask=padding,
                                                 need_weights=False, attn_mask=mask)[0])

    def _ff(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = ops.add(x, self._sa(self.norm1(x), tgt_mask, tgt_key_padding_mask))
            x = ops.add(x, self._mha(self.norm2(x), memory, memory_mask,
                                     memory_key_padding_mask))
            return ops.add(x, self._ff(self.norm3(x)))
        x = self.norm1(ops.add(x, self._sa(x, tgt_mask, tgt_key_padding_mask)))
        x = self.norm2(ops.add(x, self._mha(x, memory, memory_mask, memory_key_padding_mask)))
        return self.norm3(ops.add(x, self._ff(x)))


class TransformerDecoder(Cell):
    """``num_layers`` copies of ``decoder_layer`` (parameters copied), then ``norm``."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        num_layers = check_int(num_layers, "num_layers", op="TransformerDecoder", min=1)
        check_fits(num_layers * sum(p.nbytes for p in decoder_layer.get_parameters()),
                   "the layers' parameters", op="TransformerDecoder")
        self.layers = CellList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                      memory_key_padding_mask)
        return self.norm(x) if self.norm is not None else x


class Transformer(Cell):
    """Encoder-decoder Transformer. ``construct(src, tgt, src_mask=None, tgt_mask=None,
    memory_mask=None, src_key_padding_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=None):
        super().__init__()
        dt = dtype or "float32"
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                    layer_norm_eps, batch_first, norm_first, dt),
            num_encoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dt))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                    layer_norm_eps, batch_first, norm_first, dt),
            num_decoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dt))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                            memory_key_padding_mask)
