"""Vocabularies, lookups, pre-trained vectors read from local files, and SentencePiece
(the ``sentencepiece`` package) under MindSpore 2.10's names."""
from __future__ import annotations

import io
import os
from enum import IntEnum
from pathlib import Path

import numpy as np

from sporeling.data import DataError
from sporeling.data.transforms import text as _text

from ...common.dtype import to_numpy
from ._common import TextTransform, as_str, as_strings

__all__ = ["Vocab", "Lookup", "Vectors", "GloVe", "FastText", "CharNGram", "ToVectors",
           "SentencePieceModel", "SPieceTokenizerOutType", "SPieceTokenizerLoadType",
           "SentencePieceVocab", "SentencePieceTokenizer", "dataset_texts"]


def _inner(dataset):
    """The sporeling.data pipeline of a facade dataset (or the pipeline itself)."""
    return getattr(dataset, "_inner", dataset)


def dataset_texts(dataset, columns):
    """Every string of ``columns`` over one epoch of ``dataset``."""
    inner = _inner(dataset)
    names = inner.get_col_names()
    wanted = [columns] if isinstance(columns, str) else list(columns or names)
    missing = [c for c in wanted if c not in names]
    if missing:
        raise DataError("unknown column", op="vocab", expected=f"names among {names}",
                        got=missing)
    pick = [names.index(c) for c in wanted]
    for row in inner._one_epoch(0):
        for i in pick:
            for s in np.asarray(row[i]).reshape(-1).tolist():
                yield s.decode("utf-8") if isinstance(s, bytes) else str(s)


class Vocab(_text.Vocab):
    """Token <-> id tables: ``from_list``, ``from_dict``, ``from_file``, ``from_dataset``.
    ``tokens_to_ids`` gives -1 for an unknown token, ``ids_to_tokens`` "" for an unknown id."""

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True):
        return super().from_dataset(_inner(dataset), columns, freq_range, top_k,
                                    special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """Ids given by ``{word: id}`` (ids need not be contiguous)."""
        ids = sorted(word_dict.values())
        if len(set(ids)) != len(ids) or (ids and ids[0] < 0):
            raise DataError("bad word_dict", op="Vocab.from_dict",
                            expected="distinct ids >= 0", got=word_dict)
        vocab = cls([])
        vocab._ids = {str(w): int(i) for w, i in word_dict.items()}
        vocab._tokens = {int(i): str(w) for w, i in word_dict.items()}
        return vocab

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True):
        """One word per line (the text before ``delimiter`` when given), the first
        ``vocab_size`` lines."""
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                word = line.rstrip("\n\r")
                word = word.split(delimiter, 1)[0] if delimiter else word.strip()
                if word and word not in words:
                    words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        special = [t for t in (special_tokens or []) if t not in words]
        return cls.from_list(words, special, special_first)

    def ids_to_tokens(self, ids):
        table = self._tokens

        def one(i):
            i = int(i)
            if isinstance(table, dict):
                return table.get(i, "")
            return table[i] if 0 <= i < len(table) else ""
        if isinstance(ids, (int, np.integer)):
            return one(ids)
        return [one(i) for i in np.asarray(ids).reshape(-1).tolist()]


class Lookup(TextTransform, _text.Lookup):
    """Tokens to ids of ``vocab`` (``data_type``, int32 by default); unknown tokens map to
    ``unknown_token``'s id, or are an error when it is None (sporeling.data's, taking
    MindSpore's dtypes and any string input)."""

    def __init__(self, vocab, unknown_token=None, data_type=np.int32):
        _text.Lookup.__init__(self, vocab, unknown_token, to_numpy(data_type))

    def __call__(self, tokens):
        return _text.Lookup.__call__(self, as_strings(tokens, "Lookup"))


class Vectors:
    """Pre-trained word vectors from a text file: "token v1 ... vd" lines (a first line
    "count dim", as fastText's .vec has, is skipped); ``max_vectors`` keeps the first ones."""

    def __init__(self, tokens, vectors):
        self._stoi = {t: i for i, t in enumerate(tokens)}
        self.vectors = np.asarray(vectors, np.float32).reshape(len(tokens), -1)
        self.dim = self.vectors.shape[1]

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        cls._check_name(Path(file_path))
        tokens, rows = [], []
        with open(file_path, encoding="utf-8") as f:
            for n, line in enumerate(f):
                parts = line.rstrip().split(" ")
                if n == 0 and len(parts) == 2 and all(p.isdigit() for p in parts):
                    continue
                if len(parts) < 2:
                    continue
                if rows and len(parts) - 1 != len(rows[0]):
                    raise DataError("vectors of different lengths", op=cls.__name__,
                                    expected=len(rows[0]), got=len(parts) - 1,
                                    where=f"{file_path}:{n + 1}")
                tokens.append(parts[0])
                rows.append([float(v) for v in parts[1:]])
                if max_vectors is not None and len(tokens) >= max_vectors:
                    break
        return cls(tokens, np.asarray(rows, np.float32))

    @classmethod
    def _check_name(cls, path):
        if not path.is_file():
            raise DataError("no such file", op=f"{cls.__name__}.from_file",
                            expected="an existing vectors file", got=str(path))

    def lookup(self, token):
        i = self._stoi.get(token)
        return None if i is None else self.vectors[i]


class GloVe(Vectors):
    """GloVe vectors from a ``glove.6B.<dim>d.txt``-style file."""

    @classmethod
    def _check_name(cls, path):
        super()._check_name(path)
        if not (path.name.startswith("glove.") and path.suffix == ".txt"):
            raise DataError("not a GloVe file name", op="GloVe.from_file",
                            expected="glove.*.txt", got=path.name)


class FastText(Vectors):
    """fastText vectors from a ``*.vec`` file."""

    @classmethod
    def _check_name(cls, path):
        super()._check_name(path)
        if path.suffix != ".vec":
            raise DataError("not a fastText file name", op="FastText.from_file",
                            expected="*.vec", got=path.name)


class CharNGram(Vectors):
    """Character n-gram vectors ("2gram-ab ..." lines); a token's vector is the mean of
    the vectors of its 2-, 3- and 4-grams over ``#BEGIN#`` + chars + ``#END#``."""

    def lookup(self, token):
        chars = ["#BEGIN#"] + list(token) + ["#END#"]
        found = [self.vectors[self._stoi[key]] for n in (2, 3, 4)
                 for key in (f"{n}gram-{''.join(chars[i:i + n])}"
                             for i in range(len(chars) - n + 1)) if key in self._stoi]
        return np.mean(found, 0).astype(np.float32) if found else None


class ToVectors(TextTransform):
    """Tokens to their vectors (N, dim) float32; an unknown token gets ``unk_init`` (zeros
    when None), after trying its lower case with ``lower_case_backup``."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        if not isinstance(vectors, Vectors):
            raise DataError("bad vectors", op="ToVectors", expected="a text.Vectors",
                            got=type(vectors).__name__)
        self.vectors, self.lower = vectors, bool(lower_case_backup)
        self.unk = np.zeros(vectors.dim, np.float32) if unk_init is None \
            else np.asarray(unk_init, np.float32)
        if self.unk.shape != (vectors.dim,):
            raise DataError("bad unk_init", op="ToVectors", expected=f"{vectors.dim} values",
                            got=self.unk.shape)

    def _one(self, token):
        v = self.vectors.lookup(token)
        if v is None and self.lower:
            v = self.vectors.lookup(token.lower())
        return self.unk if v is None else v

    def __call__(self, tokens):
        a = as_strings(tokens, "ToVectors")
        if a.ndim == 0:
            return self._one(a.item())
        return np.stack([self._one(t) for t in a.reshape(-1).tolist()]).reshape(
            a.shape + (self.vectors.dim,)).astype(np.float32)


class SentencePieceModel(IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(IntEnum):
    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(IntEnum):
    FILE = 0
    MODEL = 1


class SentencePieceVocab:
    """A trained SentencePiece model (the ``sentencepiece`` package's trainer)."""

    def __init__(self, model_proto: bytes):
        self.model_proto = bytes(model_proto)

    @classmethod
    def _train(cls, sentences, vocab_size, character_coverage, model_type, params):
        import sentencepiece as spm
        model = io.BytesIO()
        options = dict(params or {})
        options.setdefault("hard_vocab_limit", False)
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sentences), model_writer=model, vocab_size=int(vocab_size),
            character_coverage=float(character_coverage),
            model_type=SentencePieceModel(model_type).name.lower(), minloglevel=2, **options)
        return cls(model.getvalue())

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on the lines of the files ``file_path`` (a list of paths)."""
        paths = [file_path] if isinstance(file_path, (str, os.PathLike)) else list(file_path)

        def lines():
            for path in paths:
                with open(path, encoding="utf-8") as f:
                    yield from (line.rstrip("\n") for line in f if line.strip())
        return cls._train(lines(), vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type,
                     params):
        """Train on the strings of ``col_names`` over one epoch of ``dataset``."""
        return cls._train(dataset_texts(dataset, col_names), vocab_size, character_coverage,
                          model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model as ``path/filename`` (loadable by ``SentencePieceTokenizer``)."""
        Path(path, filename).write_bytes(vocab.model_proto)


class SentencePieceTokenizer(TextTransform):
    """Encode a string with a SentencePiece model (a ``SentencePieceVocab`` or a model
    file's path) into pieces (STRING) or ids (INT, int32)."""

    def __init__(self, mode, out_type=SPieceTokenizerOutType.INT):
        import sentencepiece as spm
        if isinstance(mode, SentencePieceVocab):
            self._sp = spm.SentencePieceProcessor(model_proto=mode.model_proto)
        else:
            if not Path(mode).is_file():
                raise DataError("no such model file", op="SentencePieceTokenizer",
                                expected="a SentencePieceVocab or a .model path", got=mode)
            self._sp = spm.SentencePieceProcessor(model_file=str(mode))
        self.out_type = SPieceTokenizerOutType(out_type)

    def __call__(self, text):
        s = as_str(text, "SentencePieceTokenizer")
        if self.out_type is SPieceTokenizerOutType.INT:
            return np.asarray(self._sp.encode(s, out_type=int), np.int32)
        return np.asarray(self._sp.encode(s, out_type=str), dtype=np.str_)
