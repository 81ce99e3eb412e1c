"""Vision and text transforms."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.core import set_seed
from sporeling.data import DataError, text, vision
from sporeling.data.randomness import set_sample

IMG = np.arange(20 * 16 * 3, dtype=np.uint8).reshape(20, 16, 3)


def test_deterministic_shapes_and_values():
    assert vision.Resize((10, 8))(IMG).shape == (10, 8, 3)
    assert vision.Resize(8)(IMG).shape == (10, 8, 3)
    assert np.array_equal(vision.CenterCrop((4, 6))(IMG), IMG[8:12, 5:11])
    chw = vision.HWC2CHW()(IMG)
    assert chw.shape == (3, 20, 16) and chw.flags.c_contiguous
    out = vision.Normalize([10, 20, 30], [2, 4, 5])(IMG)
    assert np.allclose(out, (IMG - np.array([10, 20, 30])) / np.array([2, 4, 5]))
    assert vision.ToType(np.float16)(IMG).dtype == np.float16
    assert vision.Rescale(1 / 255, 0)(IMG).max() <= 1.0


def test_random_transforms_follow_the_sample_key():
    ops = [vision.RandomCrop(12, padding=2), vision.RandomHorizontalFlip(),
           vision.RandomResizedCrop(8), vision.RandomRotation(30)]
    for op in ops:
        set_sample(1, 0, 3)
        a = op(IMG)
        set_sample(1, 0, 3)
        assert np.array_equal(a, op(IMG))
    crops = set()
    for i in range(20):
        set_sample(1, 0, i)
        crops.add(vision.RandomCrop(12, padding=2)(IMG).tobytes())
    assert len(crops) > 5
    with pytest.raises(DataError, match="smaller than the crop"):
        vision.RandomCrop(30)(IMG)


def test_decode_and_compose():
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(IMG).save(buf, format="PNG")
    data = np.frombuffer(buf.getvalue(), np.uint8)
    pipeline = sd.Compose([vision.Decode(), vision.CenterCrop(8), vision.HWC2CHW()])
    assert pipeline(data).shape == (3, 8, 8)
    with pytest.raises(sd.CorruptSampleError):
        vision.Decode()(np.zeros(10, np.uint8))


def test_text_pipeline_with_vocab_from_dataset():
    set_seed(0)
    lines = np.array(["the cat sat", "the dog sat down", "a cat!"])
    ds = sd.NumpySlicesDataset(lines, ["text"], shuffle=False).map(
        text.BasicTokenizer(), ["text"])
    vocab = text.Vocab.from_dataset(ds, special_tokens=["<pad>", "<unk>"])
    assert vocab.tokens_to_ids(["<pad>", "<unk>", "cat"])[:2] == [0, 1]
    assert vocab.ids_to_tokens(2) in ("cat", "sat", "the")   # the most frequent words
    ids = ds.map([text.Lookup(vocab, "<unk>"), text.Truncate(3), text.PadEnd([3], 0)],
                 ["text"])
    rows = [r[0].tolist() for r in ids]
    assert all(len(r) == 3 for r in rows) and rows[2][2] != 0
    with pytest.raises(DataError, match="not in the vocabulary"):
        text.Lookup(vocab)(np.array(["zebra"]))
