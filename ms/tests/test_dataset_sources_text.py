"""Text datasets round-trip through their real file formats (written here into tmp_path)."""
import csv
import json
import struct

import numpy as np
import pytest

from sporeling.data import DataError
from sporeling.ms import dataset as ds


def rows(dataset):
    return [tuple(v.tolist() for v in r) for r in dataset.create_tuple_iterator(output_numpy=True)]


def write_csv(path, table):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL).writerows(table)


@pytest.mark.parametrize("cls, ncols", [(ds.AGNewsDataset, 3), (ds.AmazonReviewDataset, 3),
                                        (ds.DBpediaDataset, 3), (ds.SogouNewsDataset, 3),
                                        (ds.YahooAnswersDataset, 4), (ds.YelpReviewDataset, 2)])
def test_csv_news_datasets(tmp_path, cls, ncols):
    train = [[f"{r}{c}, \"q\"" for c in range(ncols)] for r in range(3)]
    write_csv(tmp_path / "train.csv", train)
    write_csv(tmp_path / "test.csv", [["t"] * ncols])
    out = cls(str(tmp_path), usage="train", shuffle=False)
    assert rows(out) == [tuple(r) for r in train]
    assert cls(str(tmp_path)).get_dataset_size() == 4
    assert out.get_col_names()[0] in ("index", "label", "class")


def test_imdb(tmp_path):
    for part, name, body in [("train", "pos", "great"), ("train", "neg", "bad"),
                             ("test", "pos", "fine")]:
        (tmp_path / part / name).mkdir(parents=True, exist_ok=True)
        (tmp_path / part / name / "0_9.txt").write_text(body)
    imdb = ds.IMDBDataset(str(tmp_path), "train")
    assert sorted(rows(imdb)) == [("bad", 0), ("great", 1)]
    assert next(imdb.create_tuple_iterator(output_numpy=True))[1].dtype == np.uint32
    assert ds.IMDBDataset(str(tmp_path)).get_dataset_size() == 3


def test_conll_and_udpos(tmp_path):
    (tmp_path / "train.txt").write_text("He PRP B-NP\nran VBD B-VP\n\nOk UH O\n")
    out = rows(ds.CoNLL2000Dataset(str(tmp_path), "train", shuffle=False))
    assert out == [(["He", "ran"], ["PRP", "VBD"], ["B-NP", "B-VP"]), (["Ok"], ["UH"], ["O"])]
    (tmp_path / "dev.txt").write_text("a\tDET\tDT\n")
    assert rows(ds.UDPOSDataset(str(tmp_path), "valid")) == [(["a"], ["DET"], ["DT"])]


@pytest.mark.parametrize("cls, name, usage", [
    (ds.PennTreebankDataset, "ptb.valid.txt", "valid"),
    (ds.WikiTextDataset, "wiki.test.tokens", "test")])
def test_line_datasets(tmp_path, cls, name, usage):
    (tmp_path / name).write_text("first line\n\nsecond\n")
    assert rows(cls(str(tmp_path), usage, shuffle=False)) == [("first line",), ("second",)]


def test_enwik9_and_textfile(tmp_path):
    (tmp_path / "enwik9").write_text("<page>\n  text\n")
    assert rows(ds.EnWik9Dataset(str(tmp_path), shuffle=False)) == [("<page>",), ("  text",)]
    (tmp_path / "a.txt").write_text("x\ny\n")
    (tmp_path / "b.txt").write_text("z\n")
    files = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    assert rows(ds.TextFileDataset(files, shuffle=False)) == [("x",), ("y",), ("z",)]
    assert ds.TextFileDataset(str(tmp_path / "*.txt")).get_dataset_size() == 3


def test_clue_tasks(tmp_path):
    path = tmp_path / "train.json"
    path.write_text(json.dumps({"sentence1": "a", "sentence2": "b", "label": "1"}) + "\n")
    assert rows(ds.CLUEDataset([str(path)], "AFQMC", "train")) == [("a", "b", "1")]
    wsc = {"target": {"span1_index": 0, "span2_index": 3, "span1_text": "x", "span2_text": "y"},
           "idx": 7, "label": "true", "text": "t"}
    path.write_text(json.dumps(wsc) + "\n")
    out = ds.CLUEDataset([str(path)], "WSC", "train")
    assert rows(out) == [(0, 3, "x", "y", 7, "true", "t")]
    with pytest.raises(DataError):
        ds.CLUEDataset([str(path)], "NOPE")


def test_multi30k_and_iwslt(tmp_path):
    (tmp_path / "train.en").write_text("a man\ntwo dogs\n")
    (tmp_path / "train.de").write_text("ein Mann\nzwei Hunde\n")
    out = rows(ds.Multi30kDataset(str(tmp_path), "train", ("de", "en"), shuffle=False))
    assert out == [("ein Mann", "a man"), ("zwei Hunde", "two dogs")]
    base = tmp_path / "texts" / "de" / "en" / "de-en"
    base.mkdir(parents=True)
    (base / "train.tags.de-en.de").write_text("<url>x</url>\nHallo\n")
    (base / "train.tags.de-en.en").write_text("<url>x</url>\nHello\n")
    (base / "IWSLT16.TED.tst2013.de-en.de.xml").write_text('<doc><seg id="1"> Ja </seg></doc>')
    (base / "IWSLT16.TED.tst2013.de-en.en.xml").write_text('<doc><seg id="1"> Yes </seg></doc>')
    assert rows(ds.IWSLT2016Dataset(str(tmp_path), "train")) == [("Hallo", "Hello")]
    assert rows(ds.IWSLT2016Dataset(str(tmp_path), "valid")) == [("Ja", "Yes")]
    base17 = tmp_path / "texts" / "DeEnItNlRo" / "DeEnItNlRo" / "DeEnItNlRo-DeEnItNlRo"
    base17.mkdir(parents=True)
    (base17 / "train.tags.de-en.de").write_text("Eins\n")
    (base17 / "train.tags.de-en.en").write_text("One\n")
    assert rows(ds.IWSLT2017Dataset(str(tmp_path), "train")) == [("Eins", "One")]


def test_squad_and_sst2(tmp_path):
    squad = {"data": [{"paragraphs": [{"context": "Paris is in France.", "qas": [
        {"question": "Where?", "answers": [{"text": "France", "answer_start": 12}]}]}]}]}
    (tmp_path / "dev-v1.1.json").write_text(json.dumps(squad))
    out = rows(ds.SQuADDataset(str(tmp_path), "dev"))
    assert out == [("Paris is in France.", "Where?", ["France"], [12])]
    (tmp_path / "train.tsv").write_text("sentence\tlabel\ngood film\t1\nbad\t0\n")
    assert rows(ds.SST2Dataset(str(tmp_path), "train", shuffle=False)) == [("good film", "1"),
                                                                          ("bad", "0")]
    (tmp_path / "test.tsv").write_text("index\tsentence\n0\tmeh\n")
    assert rows(ds.SST2Dataset(str(tmp_path), "test")) == [("meh",)]


def _tf_feature(kind, values):
    """A serialized tf.train.Feature, built with the protobuf wire format by hand."""
    def varint(n):
        n &= (1 << 64) - 1
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            out += bytes([b | (0x80 if n else 0)])
            if not n:
                return out

    def field(number, payload):
        return varint(number << 3 | 2) + varint(len(payload)) + payload
    if kind == "int64":
        inner = field(1, b"".join(varint(v) for v in values))
        return field(3, inner)
    if kind == "float":
        return field(2, field(1, struct.pack(f"<{len(values)}f", *values)))
    return field(1, b"".join(field(1, v) for v in values))


def _tf_example(features):
    def varint(n):
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            out += bytes([b | (0x80 if n else 0)])
            if not n:
                return out

    def field(number, payload):
        return varint(number << 3 | 2) + varint(len(payload)) + payload
    entries = b"".join(field(1, field(1, k.encode()) + field(2, _tf_feature(*v)))
                       for k, v in features.items())
    return field(1, entries)


def _crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _masked(data):
    c = _crc32c(data)
    return ((c >> 15 | c << 17) + 0xA282EAD8) & 0xFFFFFFFF


def test_crc32c_check_value():
    assert _crc32c(b"123456789") == 0xE3069283
    from sporeling.ms.dataset.misc_sources import crc32c
    assert crc32c(b"123456789") == 0xE3069283


def test_tfrecord_round_trip(tmp_path):
    path = tmp_path / "data.tfrecord"
    with open(path, "wb") as f:
        for i in range(3):
            rec = _tf_example({"id": ("int64", [i, -i]), "score": ("float", [i / 2]),
                               "name": ("bytes", [f"n{i}".encode()])})
            head = struct.pack("<Q", len(rec))
            f.write(head + struct.pack("<I", _masked(head)) + rec +
                    struct.pack("<I", _masked(rec)))
    out = list(ds.TFRecordDataset(str(path), shuffle=False).create_dict_iterator(
        output_numpy=True))
    assert [r["id"].tolist() for r in out] == [[0, 0], [1, -1], [2, -2]]
    assert out[1]["score"].dtype == np.float32 and out[1]["score"].tolist() == [0.5]
    assert out[2]["name"] == b"n2"
    schema = ds.Schema()
    schema.add_column("id", "int32", [2])
    schema.add_column("name", "string")
    typed = next(ds.TFRecordDataset(str(path), schema, shuffle=False).create_dict_iterator(
        output_numpy=True))
    assert typed["id"].dtype == np.int32 and typed["name"] == "n0"
    raw = bytearray(path.read_bytes())
    raw[20] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(DataError):
        ds.TFRecordDataset(str(path))
