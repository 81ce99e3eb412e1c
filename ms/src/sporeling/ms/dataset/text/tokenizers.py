"""Tokenizers that need no trained model (MindSpore 2.10's names). Each takes a scalar
string and returns a 1-D str array; ``with_offsets=True`` adds the UTF-8 byte offsets
(start, limit) of each token as two uint32 columns."""
from __future__ import annotations

import re
import unicodedata
from enum import IntEnum

import numpy as np

from sporeling.data import DataError

from ._common import TextTransform, as_str, tokens_out

__all__ = ["NormalizeForm", "WhitespaceTokenizer", "UnicodeCharTokenizer",
           "UnicodeScriptTokenizer", "RegexTokenizer", "BasicTokenizer", "WordpieceTokenizer",
           "BertTokenizer", "PythonTokenizer", "JiebaMode", "JiebaTokenizer", "normalize"]


class NormalizeForm(IntEnum):
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def normalize(text: str, form) -> str:
    form = NormalizeForm(form)
    return text if form is NormalizeForm.NONE else unicodedata.normalize(form.name, text)


def _spans(pattern, text):
    return [m.span() for m in pattern.finditer(text)]


class WhitespaceTokenizer(TextTransform):
    """Split on ICU white space (Unicode ``isspace``)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        s = as_str(text, "WhitespaceTokenizer")
        return tokens_out(s, _spans(re.compile(r"\S+"), s), self.with_offsets)


class UnicodeCharTokenizer(TextTransform):
    """One token per Unicode code point."""

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        s = as_str(text, "UnicodeCharTokenizer")
        return tokens_out(s, [(i, i + 1) for i in range(len(s))], self.with_offsets)


def _script(c: str) -> str:
    """A coarse Unicode script class of ``c`` (Python has no script property): the first
    word of its character name (LATIN, CJK, CYRILLIC, DIGIT, ...), letters and digits of
    ASCII grouped as one script, as ICU's script tokenizer keeps words whole."""
    if c.isspace():
        return " "
    if c.isalnum() and c.isascii():
        return "LATIN"
    name = unicodedata.name(c, "UNKNOWN")
    if unicodedata.category(c).startswith(("P", "S")):
        return "PUNCT:" + c
    return name.split()[0]


class UnicodeScriptTokenizer(TextTransform):
    """Split where the Unicode script changes (whitespace dropped unless
    ``keep_whitespace``)."""

    def __init__(self, keep_whitespace=False, with_offsets=False):
        self.keep_whitespace, self.with_offsets = bool(keep_whitespace), bool(with_offsets)

    def __call__(self, text):
        s = as_str(text, "UnicodeScriptTokenizer")
        spans, start = [], 0
        for i in range(1, len(s) + 1):
            if i == len(s) or _script(s[i]) != _script(s[start]):
                if self.keep_whitespace or not s[start].isspace():
                    spans.append((start, i))
                start = i
        return tokens_out(s, spans, self.with_offsets)


class RegexTokenizer(TextTransform):
    """Split at matches of ``delim_pattern``; delimiters that also match
    ``keep_delim_pattern`` are kept as tokens."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        self.delim = re.compile(delim_pattern)
        self.keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        s = as_str(text, "RegexTokenizer")
        spans, pos = [], 0
        for m in self.delim.finditer(s):
            if m.start() == m.end():
                continue
            if m.start() > pos:
                spans.append((pos, m.start()))
            if self.keep is not None and self.keep.fullmatch(m.group()):
                spans.append(m.span())
            pos = m.end()
        if pos < len(s):
            spans.append((pos, len(s)))
        return tokens_out(s, spans, self.with_offsets)


_UNUSED = re.compile(r"\[(?:UNK|CLS|SEP|PAD|MASK|unused\d+)\]")


def _is_punct(c: str) -> bool:
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def _is_cjk(c: str) -> bool:
    cp = ord(c)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class BasicTokenizer(TextTransform):
    """BERT's basic tokenizer: split on whitespace, punctuation and around CJK characters;
    ``lower_case`` folds case and strips accents (NFD); ``preserve_unused_token`` keeps
    ``[UNK]``, ``[CLS]``, ``[unused1]``... whole."""

    def __init__(self, lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.lower_case, self.keep_whitespace = bool(lower_case), bool(keep_whitespace)
        self.form, self.preserve = NormalizeForm(normalization_form), bool(preserve_unused_token)
        self.with_offsets = bool(with_offsets)

    def _fold(self, s: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFD", s.casefold())
                       if unicodedata.category(c) != "Mn")

    def _prepare(self, s: str) -> str:
        if self.lower_case:
            if self.preserve:  # [CLS], [unused1], ... keep their case
                pieces, pos = [], 0
                for m in _UNUSED.finditer(s):
                    pieces += [self._fold(s[pos:m.start()]), m.group()]
                    pos = m.end()
                s = "".join(pieces) + self._fold(s[pos:])
            else:
                s = self._fold(s)
        return normalize(s, self.form)

    def spans(self, s: str):
        keep = [m.span() for m in _UNUSED.finditer(s)] if self.preserve else []
        spans, start, i = [], None, 0
        while i < len(s):
            whole = next((e for b, e in keep if b == i), None)
            c = s[i]
            if whole is not None or c.isspace() or _is_punct(c) or _is_cjk(c):
                if start is not None:
                    spans.append((start, i))
                    start = None
                end = whole if whole is not None else i + 1
                if not c.isspace() or self.keep_whitespace:
                    spans.append((i, end))
                i = end
                continue
            if unicodedata.category(c) in ("Cc", "Cf") or c == "\ufffd" or ord(c) == 0:
                i += 1
                continue
            start = i if start is None else start
            i += 1
        if start is not None:
            spans.append((start, len(s)))
        return spans

    def __call__(self, text):
        s = self._prepare(as_str(text, "BasicTokenizer"))
        return tokens_out(s, self.spans(s), self.with_offsets)


class WordpieceTokenizer(TextTransform):
    """Greedy longest-match-first sub-words of each input token from ``vocab``; pieces after
    the first carry ``suffix_indicator``; a token with no split (or longer than
    ``max_bytes_per_token``) becomes ``unknown_token`` (or stays whole when that is "")."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", with_offsets=False):
        self.vocab, self.suffix = vocab, suffix_indicator
        self.max_bytes, self.unknown = int(max_bytes_per_token), unknown_token
        self.with_offsets = bool(with_offsets)

    def pieces(self, word: str):
        """(piece, start, end) in characters of ``word``."""
        ids = self.vocab.vocab()
        if len(word.encode("utf-8")) > self.max_bytes:
            return [(self.unknown or word, 0, len(word))]
        out, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while end > start:
                piece = word[start:end] if start == 0 else self.suffix + word[start:end]
                if piece in ids:
                    found = piece
                    break
                end -= 1
            if found is None:
                return [(self.unknown or word, 0, len(word))]
            out.append((found, start, end))
            start = end
        return out

    def __call__(self, tokens):
        words = np.asarray(tokens).reshape(-1).tolist()
        pieces, starts, limits = [], [], []
        for w in words:
            w = w.decode() if isinstance(w, bytes) else w
            offs = np.cumsum([0] + [len(c.encode()) for c in w])
            for p, s, e in self.pieces(w):
                pieces.append(p)
                starts.append(offs[s])
                limits.append(offs[e])
        out = np.asarray(pieces, dtype=np.str_)
        if not self.with_offsets:
            return out
        return out, np.asarray(starts, np.uint32), np.asarray(limits, np.uint32)


class BertTokenizer(TextTransform):
    """``BasicTokenizer`` then ``WordpieceTokenizer`` (BERT's tokenizer)."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                    preserve_unused_token)
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token,
                                            unknown_token)
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        s = self.basic._prepare(as_str(text, "BertTokenizer"))
        byte_at = np.cumsum([0] + [len(c.encode()) for c in s])
        pieces, starts, limits = [], [], []
        for b, e in self.basic.spans(s):
            word = s[b:e]
            offs = np.cumsum([0] + [len(c.encode()) for c in word])
            for p, ps, pe in self.wordpiece.pieces(word):
                pieces.append(p)
                starts.append(byte_at[b] + offs[ps])
                limits.append(byte_at[b] + offs[pe])
        out = np.asarray(pieces, dtype=np.str_)
        if not self.with_offsets:
            return out
        return out, np.asarray(starts, np.uint32), np.asarray(limits, np.uint32)


class PythonTokenizer(TextTransform):
    """A user function ``str -> list of str`` as a tokenizer."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise DataError("bad tokenizer", op="PythonTokenizer", expected="a callable",
                            got=type(tokenizer).__name__)
        self.tokenizer = tokenizer

    def __call__(self, text):
        return np.asarray(self.tokenizer(as_str(text, "PythonTokenizer")), dtype=np.str_)


class JiebaMode(IntEnum):
    MIX = 0
    MP = 1
    HMM = 2


class JiebaTokenizer(TextTransform):
    """Chinese word segmentation with the ``jieba`` package: ``mp_path`` is the dictionary
    (jieba's "word frequency [tag]" lines, cppjieba's ``jieba.dict.utf8``); MP mode cuts by
    maximum probability, HMM by the hidden Markov model only, MIX by both. ``hmm_path`` must
    name an existing file (cppjieba's model) but jieba's built-in HMM parameters are used."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        import os

        import jieba
        for path in (hmm_path, mp_path):
            if not os.path.isfile(path):
                raise DataError("no such dictionary file", op="JiebaTokenizer",
                                expected="an existing file", got=str(path))
        self.mode, self.with_offsets = JiebaMode(mode), bool(with_offsets)
        self._jieba = jieba.Tokenizer(dictionary=str(mp_path))
        self._jieba.initialize()

    def add_word(self, word, freq=None):
        self._jieba.add_word(word, freq)

    def add_dict(self, user_dict):
        """Add words: a ``{word: freq}`` dict or a file of "word [freq]" lines."""
        if isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
            return
        with open(user_dict, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if parts:
                    self.add_word(parts[0], int(parts[1]) if len(parts) > 1 else None)

    def _words(self, s):
        if self.mode is JiebaMode.HMM:
            from jieba import finalseg
            return list(finalseg.cut(s))
        return list(self._jieba.cut(s, HMM=self.mode is JiebaMode.MIX))

    def __call__(self, text):
        s = as_str(text, "JiebaTokenizer")
        spans, pos = [], 0
        for w in self._words(s):
            spans.append((pos, pos + len(w)))
            pos += len(w)
        return tokens_out(s, spans, self.with_offsets)
