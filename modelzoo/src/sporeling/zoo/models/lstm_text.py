"""An LSTM text classifier (Hochreiter and Schmidhuber, "Long Short-Term Memory", Neural
Computation 1997): embedded tokens, an LSTM, a dense head on the last state."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn

__all__ = ["LSTMClassifier"]


class LSTMClassifier(nn.Cell):
    """``construct(ids, lengths=None)``: ids (N, T) int32, padded with 0 after each text's
    ``lengths`` (N,) tokens; returns logits (N, num_classes) from the LSTM's state after
    each text's last token.

        >>> net = LSTMClassifier(vocab_size=20)
        >>> net(np.array([[3, 4, 0], [5, 6, 7]], np.int32), np.array([2, 3])).shape
        (2, 2)
    """

    def __init__(self, vocab_size: int = 64, embed_dim: int = 32, hidden: int = 64,
                 num_classes: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.lstm = nn.LSTM(embed_dim, hidden, batch_first=True)
        self.head = nn.Dense(hidden, num_classes)

    def construct(self, ids, lengths=None):
        ids = ids if isinstance(ids, sx.Tensor) else sx.Tensor(np.asarray(ids, np.int32))
        if lengths is None:
            lengths = np.full(ids.shape[0], ids.shape[1], np.int32)
        lengths = lengths if isinstance(lengths, sx.Tensor) \
            else sx.Tensor(np.asarray(lengths, np.int32))
        _, (h, _) = self.lstm(self.embed(ids), seq_length=lengths)
        return self.head(h[-1])
