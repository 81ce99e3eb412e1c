"""The synthetic reviews the LSTM classifier learns: labels follow word order."""
import numpy as np

from sporeling.zoo.recipes.reviews import MAX_LEN, VOCAB, encode_reviews, load_reviews, make_reviews


def _polarity(clause):
    from sporeling.zoo.recipes import reviews
    words = clause.split()
    positive = any(w in reviews._POSITIVE for w in words)
    return positive != any(w in reviews._NEGATIONS for w in words)


def test_labels_follow_negation_and_but():
    texts, labels = make_reviews(500, seed=3)
    for text, label in zip(texts, labels):
        last = text.split(" but ")[-1].split(" and ")[-1]
        assert _polarity(last) == bool(label), text


def test_splits_are_fixed_balanced_and_fit_the_padding():
    ids, lengths, labels = load_reviews("test")
    again = load_reviews("test")
    assert ids.shape == (1000, MAX_LEN) and np.array_equal(ids, again[0])
    assert 0.45 < labels.mean() < 0.55 and lengths.max() <= MAX_LEN
    assert (ids[np.arange(MAX_LEN)[None] >= lengths[:, None]] == 0).all()
    assert encode_reviews(["the film was zzz"])[0][0, 3] == VOCAB.index("<unk>")
