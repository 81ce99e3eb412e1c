"""Text datasets read from their standard files (MindSpore 2.10's names, columns and
layouts). Every column is a string scalar unless said otherwise."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np

from sporeling.data import DataError

from .file_source import FileDataset, check_dir, check_file, check_usage, strings, text_lines

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset",
           "YahooAnswersDataset", "YelpReviewDataset", "IMDBDataset", "CoNLL2000Dataset",
           "UDPOSDataset", "EnWik9Dataset", "PennTreebankDataset", "WikiTextDataset",
           "TextFileDataset", "CLUEDataset", "Multi30kDataset", "IWSLT2016Dataset",
           "IWSLT2017Dataset", "SQuADDataset", "SST2Dataset"]


def _csv_records(dataset_dir, usage, ncols, op):
    folder = check_dir(dataset_dir, op)
    usage = check_usage(usage, ("train", "test", "all"), op)
    records = []
    for part in (("train", "test") if usage == "all" else (usage,)):
        path = folder / f"{part}.csv"
        if usage != "all" or path.exists():
            with open(check_file(path, op), newline="", encoding="utf-8") as f:
                records += [tuple(row) for row in csv.reader(f) if len(row) == ncols]
    return records


def _expand(dataset_files):
    """A path, a glob pattern or a list of either, as sorted paths (MindSpore's rule)."""
    import glob
    files = [dataset_files] if isinstance(dataset_files, (str, Path)) else list(dataset_files)
    return sorted(p for f in files for p in (glob.glob(str(f)) or [str(f)]))


def _load_strings(record):
    return strings(*record)


class _CsvText(FileDataset):
    _columns: list = []

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        records = _csv_records(dataset_dir, usage, len(self._columns), op)
        self._setup(self._columns, records, _load_strings, num_samples, shuffle, None,
                    num_shards, shard_id)


class AGNewsDataset(_CsvText):
    """AG News: ``train.csv``/``test.csv`` rows (index, title, description)."""
    _columns = ["index", "title", "description"]


class AmazonReviewDataset(_CsvText):
    """Amazon reviews: ``train.csv``/``test.csv`` rows (label, title, content)."""
    _columns = ["label", "title", "content"]


class DBpediaDataset(_CsvText):
    """DBpedia: ``train.csv``/``test.csv`` rows (class, title, content)."""
    _columns = ["class", "title", "content"]


class SogouNewsDataset(_CsvText):
    """Sogou News: ``train.csv``/``test.csv`` rows (index, title, content)."""
    _columns = ["index", "title", "content"]


class YahooAnswersDataset(_CsvText):
    """Yahoo! Answers: ``train.csv``/``test.csv`` rows (class, title, content, answer)."""
    _columns = ["class", "title", "content", "answer"]


class YelpReviewDataset(_CsvText):
    """Yelp reviews: ``train.csv``/``test.csv`` rows (label, text)."""
    _columns = ["label", "text"]


class IMDBDataset(FileDataset):
    """IMDB: ``{train,test}/{pos,neg}/*.txt``; columns text (string) and label (uint32:
    1 positive, 0 negative)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "IMDBDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "test", "all"), op)
        records = [(p, label) for part in (("train", "test") if usage == "all" else (usage,))
                   for name, label in (("pos", 1), ("neg", 0))
                   for p in sorted((folder / part / name).glob("*.txt"))]
        self._setup(["text", "label"], records,
                    lambda r: (np.asarray(Path(r[0]).read_text(encoding="utf-8")),
                               np.uint32(r[1])), num_samples, shuffle, sampler, num_shards,
                    shard_id)


def _sentences(path, ncols):
    """Blank-line separated sentences of whitespace-separated columns."""
    out, current = [], []
    for line in text_lines(path) + [""]:
        parts = line.split()
        if not parts:
            if current:
                out.append(tuple(np.asarray(col) for col in zip(*current)))
                current = []
            continue
        if len(parts) >= ncols:
            current.append(parts[:ncols])
    return out


class _Tagged(FileDataset):
    _columns: list = []
    _files: dict = {}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, tuple(self._files) + ("all",), op)
        parts = list(self._files) if usage == "all" else [usage]
        records = [s for part in parts if (folder / self._files[part]).exists() or usage != "all"
                   for s in _sentences(check_file(folder / self._files[part], op),
                                       len(self._columns))]
        self._setup(self._columns, records, lambda r: r, num_samples, shuffle, None,
                    num_shards, shard_id)


class CoNLL2000Dataset(_Tagged):
    """CoNLL-2000 chunking: ``train.txt``/``test.txt``, "word pos chunk" lines, sentences
    separated by blank lines; each row is a sentence (1-D string columns)."""
    _columns = ["word", "pos_tag", "chunk_tag"]
    _files = {"train": "train.txt", "test": "test.txt"}


class UDPOSDataset(_Tagged):
    """UDPOS: ``train.txt``/``dev.txt``/``test.txt`` (usage valid is dev.txt), "word
    universal stanford" lines; each row a sentence."""
    _columns = ["word", "universal", "stanford"]
    _files = {"train": "train.txt", "valid": "dev.txt", "test": "test.txt"}


class _Lines(FileDataset):
    _files: dict = {}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, tuple(self._files) + ("all",), op)
        parts = list(self._files) if usage == "all" else [usage]
        records = [line for part in parts
                   if (folder / self._files[part]).exists() or usage != "all"
                   for line in text_lines(check_file(folder / self._files[part], op))
                   if line.strip()]
        self._setup(["text"], records, lambda r: strings(r), num_samples, shuffle, None,
                    num_shards, shard_id)


class PennTreebankDataset(_Lines):
    """Penn Treebank: ``ptb.{train,valid,test}.txt``, one row per non-empty line."""
    _files = {"train": "ptb.train.txt", "valid": "ptb.valid.txt", "test": "ptb.test.txt"}


class WikiTextDataset(_Lines):
    """WikiText: ``wiki.{train,valid,test}.tokens``, one row per non-empty line."""
    _files = {"train": "wiki.train.tokens", "valid": "wiki.valid.tokens",
              "test": "wiki.test.tokens"}


class EnWik9Dataset(FileDataset):
    """enwik9: the file ``enwik9``, one row per non-empty line."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        path = check_file(Path(check_dir(dataset_dir, "EnWik9Dataset")) / "enwik9",
                          "EnWik9Dataset")
        records = [line for line in text_lines(path) if line.strip()]
        self._setup(["text"], records, lambda r: strings(r), num_samples, shuffle, None,
                    num_shards, shard_id)


class TextFileDataset(FileDataset):
    """The lines of ``dataset_files`` (a path, a glob pattern or a list), one row each."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        records = [line for p in _expand(dataset_files)
                   for line in text_lines(check_file(p, "TextFileDataset")) if line.strip()]
        self._setup(["text"], records, lambda r: strings(r), num_samples, shuffle, None,
                    num_shards, shard_id)


_CLUE = {  # (task, usage) -> JSON keys, in column order
    ("AFQMC", "train"): ["sentence1", "sentence2", "label"],
    ("AFQMC", "test"): ["id", "sentence1", "sentence2"],
    ("TNEWS", "train"): ["label", "label_des", "sentence", "keywords"],
    ("TNEWS", "test"): ["id", "label", "label_des", "sentence", "keywords"],
    ("IFLYTEK", "train"): ["label", "label_des", "sentence"],
    ("IFLYTEK", "test"): ["id", "label", "label_des", "sentence"],
    ("CMNLI", "train"): ["sentence1", "sentence2", "label"],
    ("CMNLI", "test"): ["id", "sentence1", "sentence2"],
    ("WSC", "train"): ["span1_index", "span2_index", "span1_text", "span2_text", "idx",
                       "label", "text"],
    ("WSC", "test"): ["span1_index", "span2_index", "span1_text", "span2_text", "idx", "text"],
    ("CSL", "train"): ["id", "abst", "keyword", "label"],
    ("CSL", "test"): ["id", "abst", "keyword"],
}
_CLUE_INTS = {"id", "idx", "span1_index", "span2_index"}


class CLUEDataset(FileDataset):
    """CLUE benchmark JSON-lines files for ``task`` AFQMC, TNEWS, IFLYTEK, CMNLI, WSC or
    CSL (``usage`` train/eval share columns, test has its own). Index fields are int64
    (WSC's spans under ``target`` included), the rest strings."""

    def __init__(self, dataset_files, task="AFQMC", usage="train", num_samples=None,
                 num_parallel_workers=None, shuffle=True, num_shards=None, shard_id=None,
                 cache=None):
        op = "CLUEDataset"
        usage = check_usage(usage, ("train", "eval", "test"), op)
        keys = _CLUE.get((task, "test" if usage == "test" else "train"))
        if keys is None:
            raise DataError("bad task", op=op, expected=sorted({t for t, _ in _CLUE}), got=task)
        records = []
        for path in _expand(dataset_files):
            for line in text_lines(check_file(path, op)):
                if line.strip():
                    obj = json.loads(line)
                    obj.update(obj.pop("target", {}) or {})
                    records.append(tuple(obj.get(k, "") for k in keys))

        def load(record):
            return tuple(np.int64(v if v != "" else -1) if k in _CLUE_INTS else np.asarray(str(v))
                         for k, v in zip(keys, record))
        self._setup(keys, records, load, num_samples, shuffle, None, num_shards, shard_id)


class Multi30kDataset(FileDataset):
    """Multi30k: ``{train,valid,test}.{en,de}`` line-aligned files; columns text and
    translation in ``language_pair`` order (("en", "de") or ("de", "en"))."""

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None):
        op = "Multi30kDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "valid", "test", "all"), op)
        src, dst = language_pair or ("en", "de")
        records = []
        for part in ("train", "valid", "test") if usage == "all" else (usage,):
            if usage == "all" and not (folder / f"{part}.{src}").exists():
                continue
            a = text_lines(check_file(folder / f"{part}.{src}", op))
            b = text_lines(check_file(folder / f"{part}.{dst}", op))
            if len(a) != len(b):
                raise DataError("files differ in length", op=op, expected=len(a), got=len(b),
                                where=str(folder / f"{part}.{dst}"))
            records += [(x, y) for x, y in zip(a, b) if x.strip() or y.strip()]
        self._setup(["text", "translation"], records, _load_strings, num_samples, shuffle,
                    None, num_shards, shard_id)


_SEG = re.compile(r"<seg[^>]*>(.*?)</seg>")


def _iwslt_lines(path):
    """The sentences of an IWSLT file: ``<seg>`` contents of an .xml file, the lines not
    starting with "<" of a train.tags file."""
    lines = text_lines(path)
    if str(path).endswith(".xml"):
        return [m.group(1).strip() for line in lines for m in _SEG.finditer(line)]
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("<")]


class _Iwslt(FileDataset):
    _year = ""
    _valid, _test = "", ""

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None,
                 test_set=None, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        op = type(self).__name__
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "valid", "test", "all"), op)
        src, dst = language_pair or ("de", "en")
        pair = f"{src}-{dst}"
        valid_set, test_set = valid_set or self._valid, test_set or self._test
        year = self._year
        files = {"train": (f"train.tags.{pair}.{src}", f"train.tags.{pair}.{dst}"),
                 "valid": (f"IWSLT{year}.TED.{valid_set}.{pair}.{src}.xml",
                           f"IWSLT{year}.TED.{valid_set}.{pair}.{dst}.xml"),
                 "test": (f"IWSLT{year}.TED.{test_set}.{pair}.{src}.xml",
                          f"IWSLT{year}.TED.{test_set}.{pair}.{dst}.xml")}
        base = folder / "texts" / src / dst / pair if year == "16" else \
            folder / "texts" / "DeEnItNlRo" / "DeEnItNlRo" / "DeEnItNlRo-DeEnItNlRo"
        records = []
        for part in ("train", "valid", "test") if usage == "all" else (usage,):
            a, b = (base / name for name in files[part])
            if usage == "all" and not a.exists():
                continue
            xs, ys = _iwslt_lines(check_file(a, op)), _iwslt_lines(check_file(b, op))
            records += list(zip(xs, ys))
        self._setup(["text", "translation"], records, _load_strings, num_samples, shuffle,
                    None, num_shards, shard_id)


class IWSLT2016Dataset(_Iwslt):
    """IWSLT 2016: ``texts/<src>/<tgt>/<src>-<tgt>/`` with ``train.tags.*`` and
    ``IWSLT16.TED.<set>.*.xml`` files."""
    _year, _valid, _test = "16", "tst2013", "tst2014"


class IWSLT2017Dataset(_Iwslt):
    """IWSLT 2017: ``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/`` with
    ``train.tags.*`` and ``IWSLT17.TED.<set>.*.xml`` files."""
    _year, _valid, _test = "17", "dev2010", "tst2010"


class SQuADDataset(FileDataset):
    """SQuAD 1.1 (``train-v1.1.json``/``dev-v1.1.json``) or 2.0 (``*-v2.0.json``): one row
    per question: context, question (strings), text (1-D strings), answer_start (1-D
    uint32)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None, cache=None):
        op = "SQuADDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "dev", "all"), op)
        records = []
        for part in ("train", "dev") if usage == "all" else (usage,):
            found = sorted(folder.glob(f"{part}-v*.json"))
            if not found and usage != "all":
                check_file(folder / f"{part}-v1.1.json", op)
            for path in found:
                data = json.loads(Path(path).read_text(encoding="utf-8"))["data"]
                for article in data:
                    for para in article["paragraphs"]:
                        for qa in para["qas"]:
                            answers = qa.get("answers") or [{"text": "", "answer_start": -1}]
                            records.append((para["context"], qa["question"],
                                            [a["text"] for a in answers],
                                            [a["answer_start"] for a in answers]))

        def load(r):
            return (np.asarray(r[0]), np.asarray(r[1]), np.asarray(r[2], dtype=np.str_),
                    np.asarray(r[3], np.int64).astype(np.uint32))
        self._setup(["context", "question", "text", "answer_start"], records, load,
                    num_samples, shuffle, None, num_shards, shard_id)


class SST2Dataset(FileDataset):
    """SST-2: ``train.tsv``/``dev.tsv``/``test.tsv`` (usage train, dev, test) with a header;
    columns sentence and label (both strings, as 2.10 has them); test has only sentence."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=True, num_shards=None, shard_id=None):
        op = "SST2Dataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "dev", "test"), op, default="train")
        with open(check_file(folder / f"{usage}.tsv", op), newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]
        if usage == "test":
            records = [(r[1],) for r in rows if len(r) >= 2]
            self._setup(["sentence"], records, _load_strings, num_samples, shuffle, None,
                        num_shards, shard_id)
            return
        records = [(r[0], r[1]) for r in rows if len(r) >= 2]
        self._setup(["sentence", "label"], records, _load_strings, num_samples, shuffle, None,
                    num_shards, shard_id)
