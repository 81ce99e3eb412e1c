"""The image pipeline's fast paths: fused Normalize + HWC2CHW, decoding, file listing, and
the whole pipeline reading its source inside the workers."""
import io
import os

import numpy as np
import pytest
from PIL import Image

import sporeling.data as sd
from sporeling.core import set_seed
from sporeling.data import DataError, vision
from sporeling.data.randomness import set_sample
from sporeling.data.transforms.compose import fuse

IMG = np.random.default_rng(2).integers(0, 255, (6, 5, 3), dtype=np.uint8)
MEAN, STD = [120.0, 110.5, 100.25], [60.0, 61.5, 70.0]


@pytest.mark.parametrize("img", [IMG, IMG[:, ::-1], IMG.astype(np.float64) / 3],
                         ids=["uint8", "flipped-view", "float64"])
def test_fused_normalize_hwc2chw_is_bit_identical(img):
    norm, chw = vision.Normalize(MEAN, STD), vision.HWC2CHW()
    (fused,) = fuse([norm, chw])
    got, want = fused(img), chw(norm(img))
    assert got.dtype == want.dtype == np.float32 and got.flags.c_contiguous
    assert np.array_equal(got, want)


def test_fuse_merges_only_the_library_pair_in_that_order():
    norm, chw = vision.Normalize(MEAN, STD), vision.HWC2CHW()
    assert fuse([chw, norm]) == [chw, norm]
    assert fuse([vision.Normalize(MEAN, STD, is_hwc=False), chw])[1] is chw

    class MyNormalize(vision.Normalize):
        pass
    mine = MyNormalize(MEAN, STD)
    assert fuse([mine, chw]) == [mine, chw]
    with pytest.raises(DataError, match="3-D"):   # a 2-D image still fails as in HWC2CHW
        fuse([vision.Normalize([1.0], [2.0]), chw])[0](IMG[..., 0])


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_decode_gives_rgb_pixels_for_every_mode(mode):
    buf = io.BytesIO()
    Image.fromarray(IMG).convert(mode).save(buf, format="PNG")
    want = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    got = vision.Decode()(np.frombuffer(buf.getvalue(), np.uint8))
    assert got.shape == (6, 5, 3) and got.dtype == np.uint8 and np.array_equal(got, want)


def test_image_folder_lists_files_in_rglob_order(tmp_path):
    for rel in ["c/a/x.png", "c/a-b/y.PNG", "c/B/z.jpg", "c/a.png", "c/a-c.png", "c/.h.png",
                "c/notes.txt", "c/Z.png", "elsewhere/o.png"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    os.symlink(tmp_path / "elsewhere", tmp_path / "c" / "linked")  # not descended, as rglob
    ds = sd.ImageFolderDataset(str(tmp_path), class_indexing={"c": 0})
    want = [p for p in sorted((tmp_path / "c").rglob("*"))
            if p.is_file() and p.suffix.lower() in (".png", ".jpg")]
    assert ds.files == want and len(ds) == 7


def _epoch(folder, workers, start_method=None):
    set_seed(5)
    ds = sd.ImageFolderDataset(str(folder), shuffle=True)
    ds = ds.map([vision.Decode(), vision.RandomCrop(8, padding=2),
                 vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD), vision.HWC2CHW()],
                input_columns="image", num_parallel_workers=workers,
                python_multiprocessing=workers is not None, chunk_size=3,
                start_method=start_method)
    return [(x.copy(), y.copy()) for x, y in ds.batch(4)]


def test_image_pipeline_same_inline_and_in_worker_processes(image_dir):
    reference = _epoch(image_dir, None)
    assert reference[0][0].shape == (4, 3, 8, 8)
    runs = [_epoch(image_dir, w) for w in (1, 2, 4)] + [_epoch(image_dir, 1, "spawn")]
    for got in runs:
        assert len(got) == len(reference)
        for (x0, y0), (x1, y1) in zip(reference, got):
            assert np.array_equal(x0, x1) and np.array_equal(y0, y1)


def test_random_crop_covers_every_offset():
    seen = set()
    for i in range(400):
        set_sample(3, 0, i)
        out = vision.RandomCrop(5, padding=1)(IMG)
        seen.add(out.tobytes())
    assert len(seen) == 4 * 3   # (6 + 2 - 5 + 1) x (5 + 2 - 5 + 1) offsets, all drawn
