"""A character-level GPT: a decoder-only transformer with causal self-attention (Radford et
al., "Improving Language Understanding by Generative Pre-Training", 2018; "Language Models
are Unsupervised Multitask Learners", 2019), and generation with a key/value cache."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core import ShapeError
from sporeling.expression import nn, ops
from sporeling.expression.nn.init import Normal, initializer

from .attention import TransformerBlock

__all__ = ["CharGPT", "VOCAB", "encode", "decode"]

# a fixed alphabet -- newline and printable ASCII -- so a model's vocabulary never depends
# on the text it was trained on; any other character is read as "?"
VOCAB = "\n" + "".join(chr(c) for c in range(32, 127))
_INDEX = {ch: i for i, ch in enumerate(VOCAB)}


def encode(text: str) -> np.ndarray:
    """Character ids (int32); characters outside :data:`VOCAB` become ``?``."""
    unknown = _INDEX["?"]
    return np.array([_INDEX.get(ch, unknown) for ch in text], np.int32)


def decode(ids) -> str:
    return "".join(VOCAB[int(i)] for i in np.asarray(ids).ravel())


class CharGPT(nn.Cell):
    """Token and position embeddings, ``depth`` causal pre-norm transformer blocks, a final
    LayerNorm and a linear head over the :data:`VOCAB`. ``construct(ids)`` maps (N, T) ids,
    T <= ``block_size``, to (N, T, vocab_size) next-character logits. The defaults (32
    characters of context, width 64, 2 blocks) are the shipped model's: small enough to
    train in two minutes on two CPU cores.

        >>> net = CharGPT(block_size=16, embed_dim=32, depth=1, num_heads=2)
        >>> out = net.generate(encode("def "), 8, greedy=True)
        >>> len(out)
        12
    """

    def __init__(self, vocab_size: int = len(VOCAB), block_size: int = 32,
                 embed_dim: int = 64, depth: int = 2, num_heads: int = 4):
        super().__init__()
        self.vocab_size, self.block_size = vocab_size, block_size
        self.token_embed = nn.Embedding(vocab_size, embed_dim, embedding_table=Normal(0.02))
        self.pos_embed = sx.Parameter(initializer(Normal(0.02), (block_size, embed_dim)),
                                      name="pos_embed")
        self.blocks = nn.CellList([TransformerBlock(embed_dim, num_heads, 4.0, causal=True)
                                   for _ in range(depth)])
        self.norm = nn.LayerNorm((embed_dim,), epsilon=1e-5)
        self.head = nn.Dense(embed_dim, vocab_size)

    def construct(self, ids):
        return self.forward_cached(ids, None)[0]

    def forward_cached(self, ids, cache):
        """Logits for ``ids`` (N, t) that follow the positions already in ``cache`` (one
        (keys, values) pair per block, or None); returns ``(logits, new_cache)``."""
        ids = ids if isinstance(ids, sx.Tensor) else sx.Tensor(np.asarray(ids, np.int32))
        start = 0 if cache is None else cache[0][0].shape[2]
        t = ids.shape[1]
        if start + t > self.block_size:
            raise ShapeError("too many positions", op="CharGPT",
                             expected=f"at most block_size={self.block_size}",
                             got=f"{start + t} positions ({start} cached + ids of shape "
                                 f"{tuple(ids.shape)})")
        x = ops.add(self.token_embed(ids), self.pos_embed[start:start + t])
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, kv = block.step(x, None if cache is None else cache[i])
            new_cache.append(kv)
        return self.head(self.norm(x)), new_cache

    def generate(self, prompt, max_new_tokens: int, *, temperature: float = 1.0,
                 greedy: bool = False, seed: int = 0, use_cache: bool = True) -> np.ndarray:
        """``prompt`` (ids, 1-d) followed by ``max_new_tokens`` sampled characters.

        Each step conditions on the last ``block_size`` characters. With ``use_cache`` the
        keys and values of earlier positions are kept, so a step runs the network on one new
        character. Once the text is longer than ``block_size`` the window slides and every
        position moves, so the window is recomputed (and cached afresh) -- the context the
        uncached path sees; both produce the same characters for the same ``seed``.
        """
        ids = [int(i) for i in np.asarray(prompt).ravel()]
        if not ids:
            raise ShapeError("empty prompt", op="CharGPT.generate",
                             expected="a prompt of at least one id", got="0 ids")
        rng = np.random.default_rng(seed)
        cache, fed = None, 0  # how many of ids the cache holds
        with sx.no_grad():
            for _ in range(max_new_tokens):
                if not use_cache:
                    logits = self.construct(np.array([ids[-self.block_size:]], np.int32))
                elif cache is None or len(ids) > self.block_size:
                    window = np.array([ids[-self.block_size:]], np.int32)
                    logits, cache = self.forward_cached(window, None)
                    fed = len(ids)
                else:
                    logits, cache = self.forward_cached(np.array([ids[fed:]], np.int32),
                                                        cache)
                    fed = len(ids)
                ids.append(_pick(logits.asnumpy()[0, -1], temperature, greedy, rng))
        return np.array(ids, np.int32)


def _pick(logits: np.ndarray, temperature: float, greedy: bool, rng) -> int:
    if greedy:
        return int(np.argmax(logits))
    z = logits.astype(np.float64) / max(temperature, 1e-6)
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))
