"""Text transforms: a basic tokenizer, a vocabulary, lookup, padding and truncation::

    >>> import numpy as np
    >>> tokens = BasicTokenizer(lower_case=True)(np.array("Hello, world!"))
    >>> tokens.tolist()
    ['hello', ',', 'world', '!']
    >>> vocab = Vocab.from_list(["hello", "world"], special_tokens=["<pad>", "<unk>"])
    >>> Lookup(vocab, unknown_token="<unk>")(tokens).tolist()
    [2, 1, 3, 1]
    >>> PadEnd([6], pad_value=0)(np.array([2, 1, 3])).tolist()
    [2, 1, 3, 0, 0, 0]
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter

import numpy as np

from ..errors import DataError

__all__ = ["BasicTokenizer", "Vocab", "Lookup", "PadEnd", "Truncate"]

_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def _text(value) -> str:
    value = value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value
    if isinstance(value, bytes):
        value = value.decode("utf-8")
    if not isinstance(value, str):
        raise DataError("not a string", op="BasicTokenizer", expected="a str scalar",
                        got=type(value).__name__)
    return value


class BasicTokenizer:
    """Split on whitespace and punctuation (each punctuation mark is a token); optionally
    lower-case and strip accents. Returns a 1-D str array."""

    def __init__(self, lower_case: bool = False, keep_whitespace: bool = False):
        self.lower_case, self.keep_whitespace = bool(lower_case), bool(keep_whitespace)
        self._pattern = re.compile(r"\w+|[^\w\s]|\s+") if keep_whitespace else _TOKEN

    def __call__(self, text):
        s = _text(text)
        if self.lower_case:
            s = "".join(c for c in unicodedata.normalize("NFD", s.lower())
                        if unicodedata.category(c) != "Mn")
        return np.asarray(self._pattern.findall(s), dtype=np.str_)


class Vocab:
    """Token <-> id tables. Build with :meth:`from_list` or :meth:`from_dataset`."""

    def __init__(self, tokens: list[str]):
        if len(set(tokens)) != len(tokens):
            raise DataError("duplicate tokens", op="Vocab", expected="distinct tokens",
                            got=[t for t, c in Counter(tokens).items() if c > 1][:5])
        self._ids = {t: i for i, t in enumerate(tokens)}
        self._tokens = list(tokens)

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first: bool = True) -> "Vocab":
        words, special = list(word_list), list(special_tokens or [])
        return cls(special + words if special_first else words + special)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first: bool = True) -> "Vocab":
        """Count the tokens of ``columns`` (default: all) over one epoch of ``dataset``;
        keep those with a count in ``freq_range`` (min, max), the ``top_k`` most frequent
        (ties broken alphabetically)."""
        names = dataset.get_col_names()
        wanted = [columns] if isinstance(columns, str) else list(columns or names)
        pick = [names.index(c) for c in wanted if c in names]
        if len(pick) != len(wanted):
            raise DataError("unknown column", op="Vocab.from_dataset",
                            expected=f"names among {names}", got=wanted)
        counts: Counter = Counter()
        for row in dataset._one_epoch(0):
            for i in pick:
                counts.update(np.asarray(row[i]).reshape(-1).tolist())
        lo, hi = freq_range or (1, None)
        items = [(t, c) for t, c in counts.items() if c >= lo and (hi is None or c <= hi)]
        items.sort(key=lambda tc: (-tc[1], tc[0]))
        if top_k is not None:
            items = items[:top_k]
        special = [t for t in (special_tokens or [])]
        words = [t for t, _ in items if t not in special]
        return cls.from_list(words, special, special_first)

    def vocab(self) -> dict[str, int]:
        return dict(self._ids)

    def __len__(self) -> int:
        return len(self._tokens)

    def tokens_to_ids(self, tokens):
        """Ids of ``tokens`` (a token or a list); -1 for unknown ones."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        if isinstance(ids, (int, np.integer)):
            return self._tokens[ids]
        return [self._tokens[i] for i in ids]


class Lookup:
    """Tokens to ids; unknown tokens map to ``unknown_token``'s id, or raise."""

    def __init__(self, vocab: Vocab, unknown_token: str | None = None, data_type=np.int32):
        self.vocab, self.dtype = vocab, np.dtype(data_type)
        self.unknown = None
        if unknown_token is not None:
            self.unknown = vocab.tokens_to_ids(unknown_token)
            if self.unknown < 0:
                raise DataError("unknown_token is not in the vocabulary", op="Lookup",
                                expected="a token of the vocab", got=repr(unknown_token))

    def __call__(self, tokens):
        tokens = np.asarray(tokens)
        flat = tokens.reshape(-1).tolist()
        table = self.vocab._ids
        ids = [table.get(t, self.unknown) for t in flat]
        if self.unknown is None and None in ids:
            missing = sorted({t for t, i in zip(flat, ids) if i is None})
            raise DataError("tokens not in the vocabulary", op="Lookup",
                            expected="known tokens, or unknown_token=...", got=missing[:5])
        return np.asarray(ids, self.dtype).reshape(tokens.shape)


class PadEnd:
    """Pad at the end of each axis to ``pad_shape`` with ``pad_value`` (longer inputs are
    cut to it)."""

    def __init__(self, pad_shape, pad_value=None):
        self.shape = [int(s) for s in pad_shape]
        if any(s < 1 for s in self.shape):
            raise DataError("bad pad_shape", op="PadEnd", expected="sizes >= 1", got=pad_shape)
        self.value = pad_value

    def __call__(self, data):
        data = np.asarray(data)
        if data.ndim != len(self.shape):
            raise DataError("rank differs from pad_shape", op="PadEnd",
                            expected=f"rank {len(self.shape)}", got=data.shape)
        data = data[tuple(slice(0, s) for s in self.shape)]
        value = self.value if self.value is not None else ("" if data.dtype.kind == "U" else 0)
        widths = [(0, s - d) for s, d in zip(self.shape, data.shape)]
        return np.pad(data, widths, constant_values=value)


class Truncate:
    """Keep the first ``max_seq_len`` items of a 1-D (or the last axis of a 2-D) array."""

    def __init__(self, max_seq_len: int):
        if not isinstance(max_seq_len, int) or max_seq_len < 1:
            raise DataError("bad max_seq_len", op="Truncate", expected="an int >= 1",
                            got=repr(max_seq_len))
        self.n = max_seq_len

    def __call__(self, data):
        data = np.asarray(data)
        if data.ndim not in (1, 2):
            raise DataError("Truncate needs a 1-D or 2-D array", op="Truncate",
                            expected="rank 1 or 2", got=data.shape)
        return data[..., :self.n]
