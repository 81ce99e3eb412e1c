"""``ms.dataset.text``: MindSpore 2.10's text transforms on NumPy string arrays: tokenizers
(with UTF-8 byte offsets on request), vocabularies and lookup, sequence ops, pre-trained
vectors read from local files, SentencePiece (the ``sentencepiece`` package) and Jieba (the
``jieba`` package)."""
from .tokenizers import (BasicTokenizer, BertTokenizer, JiebaMode, JiebaTokenizer,
                         NormalizeForm, PythonTokenizer, RegexTokenizer, UnicodeCharTokenizer,
                         UnicodeScriptTokenizer, WhitespaceTokenizer, WordpieceTokenizer)
from .transforms import (AddToken, CaseFold, FilterWikipediaXML, Ngram, NormalizeUTF8,
                         RegexReplace, SlidingWindow, ToNumber, Truncate, TruncateSequencePair,
                         to_bytes, to_str)
from .vocab import (CharNGram, FastText, GloVe, Lookup, SentencePieceModel,
                    SentencePieceTokenizer, SentencePieceVocab, SPieceTokenizerLoadType,
                    SPieceTokenizerOutType, ToVectors, Vectors, Vocab)

__all__ = ["AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "CharNGram", "FastText",
           "FilterWikipediaXML", "GloVe", "JiebaMode", "JiebaTokenizer", "Lookup", "Ngram",
           "NormalizeForm", "NormalizeUTF8", "PythonTokenizer", "RegexReplace",
           "RegexTokenizer", "SPieceTokenizerLoadType", "SPieceTokenizerOutType",
           "SentencePieceModel", "SentencePieceTokenizer", "SentencePieceVocab",
           "SlidingWindow", "ToNumber", "ToVectors", "Truncate", "TruncateSequencePair",
           "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "Vectors", "Vocab",
           "WhitespaceTokenizer", "WordpieceTokenizer", "to_bytes", "to_str"]
