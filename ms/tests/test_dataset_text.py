"""ms.dataset.text: tokenizers, vocabularies and sequence ops against plain-Python
references."""
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.data import DataError
from sporeling.ms.dataset import text

SENTENCE = "Hello,  wörld! 中文 ok"


def offsets(s, tokens):
    """Byte offsets of ``tokens`` found left to right in ``s``."""
    starts, limits, pos = [], [], 0
    for t in tokens:
        i = s.index(t, pos)
        starts.append(len(s[:i].encode()))
        limits.append(len(s[:i + len(t)].encode()))
        pos = i + len(t)
    return starts, limits


@pytest.mark.parametrize("op, reference", [
    (text.WhitespaceTokenizer(), lambda s: s.split()),
    (text.UnicodeCharTokenizer(), list),
    (text.RegexTokenizer(r"\s+"), lambda s: s.split()),
    (text.RegexTokenizer(r"\s+|,", r","), lambda s: ["Hello", ",", "wörld!", "中文", "ok"]),
    (text.BasicTokenizer(), lambda s: ["Hello", ",", "wörld", "!", "中", "文", "ok"]),
    (text.BasicTokenizer(lower_case=True), lambda s: ["hello", ",", "world", "!", "中", "文",
                                                      "ok"]),
    (text.UnicodeScriptTokenizer(), lambda s: ["Hello", ",", "wörld", "!", "中文", "ok"]),
    (text.PythonTokenizer(lambda s: s.split(",")), lambda s: s.split(",")),
])
def test_tokenizers(op, reference):
    out = op(np.asarray(SENTENCE))
    assert out.tolist() == reference(SENTENCE)


@pytest.mark.parametrize("op", [text.WhitespaceTokenizer(with_offsets=True),
                                text.UnicodeCharTokenizer(with_offsets=True),
                                text.RegexTokenizer(r"\s+", with_offsets=True),
                                text.BasicTokenizer(with_offsets=True)])
def test_offsets_are_utf8_bytes(op):
    tokens, starts, limits = op(np.asarray(SENTENCE))
    assert starts.dtype == np.uint32
    assert (starts.tolist(), limits.tolist()) == offsets(SENTENCE, tokens.tolist())


@settings(max_examples=40, deadline=None)
# (NumPy's str arrays drop trailing NULs, so "\x00" cannot travel as a column)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                      exclude_characters="\x00"), max_size=30))
def test_whitespace_and_char_tokenizers_on_any_text(s):
    assert text.WhitespaceTokenizer()(np.asarray(s)).tolist() == s.split()
    assert text.UnicodeCharTokenizer()(np.asarray(s)).tolist() == list(s)


VOCAB = ["[UNK]", "[CLS]", "un", "##aff", "##able", "play", "##ing", "中"]


def test_wordpiece_and_bert():
    vocab = text.Vocab.from_list(VOCAB)
    out = text.WordpieceTokenizer(vocab)(np.asarray(["unaffable", "playing", "xyz"]))
    assert out.tolist() == ["un", "##aff", "##able", "play", "##ing", "[UNK]"]
    tokens, starts, limits = text.BertTokenizer(vocab, lower_case=True, with_offsets=True)(
        np.asarray("UNAFFABLE [CLS] 中"))
    assert tokens.tolist() == ["un", "##aff", "##able", "[CLS]", "中"]
    assert starts[:3].tolist() == [0, 2, 5] and limits[:3].tolist() == [2, 5, 9]


def test_vocab_sources_and_lookup(tmp_path):
    vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<pad>", "<unk>"])
    assert vocab.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3}
    assert vocab.tokens_to_ids(["b", "zz"]) == [3, -1]
    assert vocab.ids_to_tokens([2, 99]) == ["a", ""]
    out = text.Lookup(vocab, "<unk>", ms.int64)(np.asarray(["a", "q", "b"]))
    assert out.tolist() == [2, 1, 3] and out.dtype == np.int64
    with pytest.raises(DataError):
        text.Lookup(vocab)(np.asarray(["q"]))
    (tmp_path / "v.txt").write_text("x,1\ny,2\nz,3\n")
    from_file = text.Vocab.from_file(str(tmp_path / "v.txt"), ",", 2, ["<s>"], False)
    assert from_file.vocab() == {"x": 0, "y": 1, "<s>": 2}
    assert text.Vocab.from_dict({"p": 5, "q": 9}).tokens_to_ids("q") == 9
    ds = ms.dataset.NumpySlicesDataset({"t": np.array(["a b b", "b c"])}, shuffle=False)
    ds = ds.map(text.WhitespaceTokenizer(), "t")
    built = ds.build_vocab("t", None, 2, ["<pad>"], True)
    assert built.vocab() == {"<pad>": 0, "b": 1, "a": 2}
    assert text.Vocab.from_dataset(ds, "t", (2, 5)).vocab() == {"b": 0}


@pytest.mark.parametrize("op, data, want", [
    (text.AddToken("<s>"), ["a", "b"], ["<s>", "a", "b"]),
    (text.AddToken("</s>", begin=False), ["a"], ["a", "</s>"]),
    (text.Ngram([2, 3]), ["a", "b", "c"], ["a b", "b c", "a b c"]),
    (text.Ngram(2, ("_", 1), ("_", 1), "-"), ["a", "b"], ["_-a", "a-b", "b-_"]),
    (text.Truncate(2), ["a", "b", "c"], ["a", "b"]),
    (text.CaseFold(), ["Straße"], ["strasse"]),
    (text.NormalizeUTF8(text.NormalizeForm.NFD), ["é"], [unicodedata.normalize("NFD", "é")]),
    (text.RegexReplace(r"\d+", "#"), ["a1b22"], ["a#b#"]),
    (text.RegexReplace(r"\d", "#", replace_all=False), ["a1b22"], ["a#b22"]),
    (text.FilterWikipediaXML(), ["<b>Hello</b> [[World]] 42!"], ["hello world four two"]),
])
def test_string_ops(op, data, want):
    assert op(np.asarray(data)).tolist() == want


def test_sliding_window_and_to_number():
    out = text.SlidingWindow(3)(np.arange(5))
    np.testing.assert_array_equal(out, [[0, 1, 2], [1, 2, 3], [2, 3, 4]])
    assert text.SlidingWindow(3, axis=1)(np.arange(8).reshape(2, 4)).shape == (2, 2, 3)
    assert text.SlidingWindow(6)(np.arange(5)).shape == (0, 6)
    out = text.ToNumber(ms.int16)(np.asarray(["1", "-7"]))
    assert out.dtype == np.int16 and out.tolist() == [1, -7]
    with pytest.raises(DataError):
        text.ToNumber(ms.uint8)(np.asarray(["300"]))
    with pytest.raises(DataError):
        text.ToNumber(ms.float32)(np.asarray(["x"]))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.integers(0, 8), st.integers(0, 12))
def test_truncate_sequence_pair_cuts_the_longer(la, lb, n):
    a, b = text.TruncateSequencePair(n)(np.arange(la), np.arange(lb))
    assert len(a) + len(b) == min(la + lb, n)
    assert abs(len(a) - len(b)) <= max(abs(la - lb), 1) or len(a) == la or len(b) == lb


def test_to_str_and_bytes():
    b = text.to_bytes(np.array(["ab", "ç"]))
    assert b.dtype.kind == "S" and text.to_str(b).tolist() == ["ab", "ç"]


def test_vectors_from_files(tmp_path):
    (tmp_path / "glove.6B.3d.txt").write_text("the 1 2 3\ncat 4 5 6\n")
    glove = text.GloVe.from_file(str(tmp_path / "glove.6B.3d.txt"))
    out = text.ToVectors(glove, unk_init=[9, 9, 9], lower_case_backup=True)(
        np.asarray(["cat", "The", "dog"]))
    np.testing.assert_array_equal(out, [[4, 5, 6], [1, 2, 3], [9, 9, 9]])
    (tmp_path / "wiki.vec").write_text("2 2\na 1 0\nb 0 1\n")
    fast = text.FastText.from_file(str(tmp_path / "wiki.vec"), max_vectors=1)
    np.testing.assert_array_equal(text.ToVectors(fast)(np.asarray(["a", "b"])), [[1, 0], [0, 0]])
    (tmp_path / "c.txt").write_text("2gram-#BEGIN#a 1 1\n2gram-a#END# 3 5\n")
    chars = text.CharNGram.from_file(str(tmp_path / "c.txt"))
    np.testing.assert_array_equal(text.ToVectors(chars)(np.asarray(["a"])), [[2, 3]])
    with pytest.raises(DataError):
        text.GloVe.from_file(str(tmp_path / "wiki.vec"))
    (tmp_path / "v.txt").write_text("x 1\n")
    assert text.Vectors.from_file(str(tmp_path / "v.txt")).dim == 1


def test_sentencepiece_trains_and_tokenizes(tmp_path):
    lines = ["the quick brown fox jumps over the lazy dog"] * 20 + ["hello world again"] * 20
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(lines))
    vocab = text.SentencePieceVocab.from_file([str(corpus)], 40, 1.0,
                                              text.SentencePieceModel.UNIGRAM, {})
    pieces = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)(
        np.asarray("hello world"))
    assert "".join(pieces.tolist()).replace("\u2581", " ").strip() == "hello world"
    ids = text.SentencePieceTokenizer(vocab)(np.asarray("hello world"))
    assert ids.dtype == np.int32 and len(ids) == len(pieces)
    text.SentencePieceVocab.save_model(vocab, str(tmp_path), "m.model")
    again = text.SentencePieceTokenizer(str(tmp_path / "m.model"))(np.asarray("hello world"))
    np.testing.assert_array_equal(again, ids)
    ds = ms.dataset.NumpySlicesDataset({"t": np.array(lines)}, shuffle=False)
    built = ds.build_sentencepiece_vocab(["t"], 40, 1.0, text.SentencePieceModel.BPE, {})
    assert len(text.SentencePieceTokenizer(built)(np.asarray("the lazy dog"))) > 0


def test_jieba_modes(tmp_path):
    (tmp_path / "dict.txt").write_text("我们 100 r\n学习 100 v\n中文 100 n\n")
    (tmp_path / "hmm.utf8").write_text("")
    tok = text.JiebaTokenizer(str(tmp_path / "hmm.utf8"), str(tmp_path / "dict.txt"),
                              text.JiebaMode.MP)
    assert tok(np.asarray("我们学习中文")).tolist() == ["我们", "学习", "中文"]
    tok.add_word("学习中文", 1000)
    assert tok(np.asarray("我们学习中文")).tolist() == ["我们", "学习中文"]
    words, starts, limits = text.JiebaTokenizer(
        str(tmp_path / "hmm.utf8"), str(tmp_path / "dict.txt"), with_offsets=True)(
        np.asarray("我们学习"))
    assert "".join(words.tolist()) == "我们学习" and limits[-1] == len("我们学习".encode())
