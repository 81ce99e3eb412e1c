"""String and sequence transforms (MindSpore 2.10's names)."""
from __future__ import annotations

import re

import numpy as np

from sporeling.data import DataError

from ...common.dtype import to_numpy
from ._common import TextTransform, as_strings
from .tokenizers import NormalizeForm, normalize

__all__ = ["AddToken", "CaseFold", "NormalizeUTF8", "RegexReplace", "FilterWikipediaXML",
           "Ngram", "SlidingWindow", "ToNumber", "Truncate", "TruncateSequencePair",
           "to_str", "to_bytes"]


def _map_strings(value, fn, op):
    a = as_strings(value, op)
    return np.asarray([fn(s) for s in a.reshape(-1).tolist()], dtype=np.str_).reshape(a.shape)


class AddToken(TextTransform):
    """``token`` added at the start (``begin``) or the end of a 1-D string array."""

    def __init__(self, token, begin=True):
        self.token, self.begin = str(token), bool(begin)

    def __call__(self, tokens):
        a = as_strings(tokens, "AddToken")
        if a.ndim != 1:
            raise DataError("expects a 1-D array", op="AddToken", expected="rank 1", got=a.shape)
        parts = [np.asarray([self.token]), a] if self.begin else [a, np.asarray([self.token])]
        return np.concatenate(parts).astype(np.str_)


class CaseFold(TextTransform):
    """Unicode case folding (stronger than lower-casing: "ß" -> "ss")."""

    def __call__(self, text):
        return _map_strings(text, str.casefold, "CaseFold")


class NormalizeUTF8(TextTransform):
    def __init__(self, normalize_form=NormalizeForm.NFKC):
        self.form = NormalizeForm(normalize_form)

    def __call__(self, text):
        return _map_strings(text, lambda s: normalize(s, self.form), "NormalizeUTF8")


class RegexReplace(TextTransform):
    """Replace matches of ``pattern`` with ``replace`` (only the first unless
    ``replace_all``)."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern, self.replace = re.compile(pattern), replace
        self.count = 0 if replace_all else 1

    def __call__(self, text):
        return _map_strings(text, lambda s: self.pattern.sub(self.replace, s, self.count),
                            "RegexReplace")


_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_WIKI_STEPS = [(re.compile(r"<ref[^<]*</ref>"), ""), (re.compile(r"<[^>]*>"), ""),
               (re.compile(r"\[http:[^] ]*"), "["), (re.compile(r"\|thumb", re.I), ""),
               (re.compile(r"\|left", re.I), ""), (re.compile(r"\|right", re.I), ""),
               (re.compile(r"\|\d+px", re.I), ""), (re.compile(r"\[\[image:[^\[\]]*\|", re.I), ""),
               (re.compile(r"\[\[category:([^|\]]*)[^]]*\]\]", re.I), r"[[\1]]"),
               (re.compile(r"\[\[[a-z\-]*:[^\]]*\]\]"), ""), (re.compile(r"\[\[[^\|\]]*\|"), "[["),
               (re.compile(r"\{\{[^}]*\}\}"), ""), (re.compile(r"\{[^}]*\}"), ""),
               (re.compile(r"\["), ""), (re.compile(r"\]"), ""), (re.compile(r"&[^;]*;"), " ")]


def _wikifil(s: str) -> str:
    """fastText's ``wikifil.pl`` on one text: markup out, lower case, digits spelled, only
    a-z words separated by single spaces."""
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    for pattern, repl in _WIKI_STEPS:
        s = pattern.sub(repl, s)
    s = s.lower()
    s = re.sub(r"\d", lambda m: f" {_DIGITS[int(m.group())]} ", s)
    s = re.sub(r"[^a-z\n]+", " ", s)
    return re.sub(r" +", " ", s).strip()


class FilterWikipediaXML(TextTransform):
    """Clean Wikipedia XML dump text as fastText's ``wikifil.pl`` does."""

    def __call__(self, text):
        return _map_strings(text, _wikifil, "FilterWikipediaXML")


class Ngram(TextTransform):
    """The ``n``-grams (for each n of ``n``, in that order) of a 1-D string array, joined by
    ``separator``, after ``left_pad``/``right_pad`` = (pad string, how many)."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        self.n = [n] if isinstance(n, int) else list(n)
        if not self.n or any(not isinstance(k, int) or k < 1 for k in self.n):
            raise DataError("bad n", op="Ngram", expected="ints >= 1", got=n)
        self.left, self.right, self.separator = tuple(left_pad), tuple(right_pad), separator

    def __call__(self, tokens):
        a = as_strings(tokens, "Ngram")
        if a.ndim != 1:
            raise DataError("expects a 1-D array", op="Ngram", expected="rank 1", got=a.shape)
        seq = [self.left[0]] * self.left[1] + a.tolist() + [self.right[0]] * self.right[1]
        out = [self.separator.join(seq[i:i + k]) for k in self.n
               for i in range(len(seq) - k + 1)]
        return np.asarray(out, dtype=np.str_)


class SlidingWindow(TextTransform):
    """Windows of ``width`` consecutive items along ``axis`` (a new axis after it)."""

    def __init__(self, width, axis=0):
        if not isinstance(width, int) or width < 1:
            raise DataError("bad width", op="SlidingWindow", expected="an int >= 1", got=width)
        self.width, self.axis = width, int(axis)

    def __call__(self, data):
        a = np.asarray(data)
        axis = self.axis % a.ndim
        n = a.shape[axis] - self.width + 1
        if n < 1:
            shape = list(a.shape)
            shape[axis:axis + 1] = [0, self.width]
            return np.empty(shape, a.dtype)
        windows = [np.take(a, range(i, i + self.width), axis=axis) for i in range(n)]
        return np.stack(windows, axis)


class ToNumber(TextTransform):
    """Strings to numbers of ``data_type``; a string that is not a number of that type (or
    out of its range) is an error."""

    def __init__(self, data_type):
        self.dtype = np.dtype(to_numpy(data_type))
        if self.dtype.kind not in "iuf":
            raise DataError("bad data_type", op="ToNumber", expected="a numeric type",
                            got=str(self.dtype))

    def _one(self, s):
        try:
            value = int(s) if self.dtype.kind in "iu" else float(s)
        except ValueError:
            raise DataError("not a number", op="ToNumber", expected=str(self.dtype),
                            got=repr(s)) from None
        if self.dtype.kind in "iu":
            info = np.iinfo(self.dtype)
            if not info.min <= value <= info.max:
                raise DataError("out of range", op="ToNumber", expected=str(self.dtype),
                                got=s)
        elif np.isinf(self.dtype.type(value)) and not np.isinf(value):
            raise DataError("out of range", op="ToNumber", expected=str(self.dtype), got=s)
        return value

    def __call__(self, text):
        a = as_strings(text, "ToNumber")
        return np.asarray([self._one(s) for s in a.reshape(-1).tolist()],
                          self.dtype).reshape(a.shape)


class Truncate(TextTransform):
    """The first ``max_seq_len`` items of a 1-D array (of each row of a 2-D one)."""

    def __init__(self, max_seq_len):
        if not isinstance(max_seq_len, int) or max_seq_len < 1:
            raise DataError("bad max_seq_len", op="Truncate", expected="an int >= 1",
                            got=max_seq_len)
        self.n = max_seq_len

    def __call__(self, data):
        a = np.asarray(data)
        if a.ndim not in (1, 2):
            raise DataError("expects rank 1 or 2", op="Truncate", expected="rank 1 or 2",
                            got=a.shape)
        return a[..., :self.n]


class TruncateSequencePair(TextTransform):
    """Two 1-D columns cut to ``max_length`` items together, always from the longer one."""

    def __init__(self, max_length):
        if not isinstance(max_length, int) or max_length < 0:
            raise DataError("bad max_length", op="TruncateSequencePair",
                            expected="an int >= 0", got=max_length)
        self.max_length = max_length

    def __call__(self, first, second):
        a, b = np.asarray(first), np.asarray(second)
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la], b[:lb]


def to_str(array, encoding="utf8"):
    """A bytes array decoded to a str array."""
    a = np.asarray(array)
    if a.dtype.kind != "S":
        raise DataError("expects bytes", op="to_str", expected="a bytes (S) array",
                        got=str(a.dtype))
    return np.char.decode(a, encoding)


def to_bytes(array, encoding="utf8"):
    """A str array encoded to a bytes array."""
    a = np.asarray(array)
    if a.dtype.kind != "U":
        raise DataError("expects strings", op="to_bytes", expected="a str (U) array",
                        got=str(a.dtype))
    return np.char.encode(a, encoding)


# MindSpore's ``dataset.text.transforms`` module holds the tokenizers too
# (``text.transforms.UnicodeCharTokenizer()``, as its eager-mode tutorial writes it)
from . import tokenizers as _tokenizers  # noqa: E402

globals().update({_name: getattr(_tokenizers, _name) for _name in _tokenizers.__all__})
__all__ += [_name for _name in _tokenizers.__all__ if _name not in __all__]
