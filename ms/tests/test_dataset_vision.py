"""ms.dataset.vision: each transform against a NumPy (or direct Pillow/SciPy/colorsys)
reference computed independently of the facade's code."""
import colorsys
import io

import numpy as np
import pytest
from PIL import Image, ImageEnhance, ImageOps
from scipy import ndimage

import sporeling.ms as ms
from sporeling.ms.dataset import vision

rng = np.random.default_rng(0)
IMG = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
SQUARE = rng.integers(0, 256, (10, 10, 3), dtype=np.uint8)


def luma(img):
    return img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114


def run_pipeline(op, img, seed=3, columns=1):
    """The op inside a map, as MindSpore runs it."""
    ms.dataset.config.set_seed(seed)
    ds = ms.dataset.NumpySlicesDataset({"image": img[None]}, shuffle=False).map(op, "image")
    return next(ds.create_tuple_iterator(output_numpy=True))[0]


@pytest.mark.parametrize("op, reference", [
    (vision.HWC2CHW(), lambda x: x.transpose(2, 0, 1)),
    (vision.ToTensor(), lambda x: x.transpose(2, 0, 1).astype(np.float32) / 255),
    (vision.Rescale(1 / 255, -0.5), lambda x: x.astype(np.float32) / 255 - 0.5),
    (vision.Normalize([10, 20, 30], [2, 4, 8]),
     lambda x: (x.astype(np.float32) - [10, 20, 30]) / [2, 4, 8]),
    (vision.NormalizePad([10, 20, 30], [2, 4, 8]),
     lambda x: np.dstack([(x - np.array([10, 20, 30.])) / [2, 4, 8], np.zeros(x.shape[:2])])),
    (vision.ToType(ms.float16), lambda x: x.astype(np.float16)),
    (vision.HorizontalFlip(), lambda x: x[:, ::-1]),
    (vision.VerticalFlip(), lambda x: x[::-1]),
    (vision.RandomHorizontalFlip(1.0), lambda x: x[:, ::-1]),
    (vision.RandomVerticalFlip(0.0), lambda x: x),
    (vision.Crop((2, 3), (4, 5)), lambda x: x[2:6, 3:8]),
    (vision.CenterCrop((4, 6)), lambda x: x[4:8, 5:11]),
    (vision.CenterCrop(20), lambda x: np.pad(x, ((4, 4), (2, 2), (0, 0)))),
    (vision.Pad((1, 2, 3, 4), fill_value=7), lambda x: np.pad(x, ((2, 4), (1, 3), (0, 0)),
                                                             constant_values=7)),
    (vision.Pad(2, padding_mode=vision.Border.REFLECT),
     lambda x: np.pad(x, ((2, 2), (2, 2), (0, 0)), mode="reflect")),
    (vision.Pad((1, 2), padding_mode=vision.Border.EDGE),
     lambda x: np.pad(x, ((2, 2), (1, 1), (0, 0)), mode="edge")),
    (vision.Pad(1, padding_mode=vision.Border.SYMMETRIC),
     lambda x: np.pad(x, ((1, 1), (1, 1), (0, 0)), mode="symmetric")),
    (vision.PadToSize((14, 20)), lambda x: np.pad(x, ((1, 1), (2, 2), (0, 0)))),
    (vision.PadToSize((14, 20), offset=(0, 3), fill_value=9),
     lambda x: np.pad(x, ((0, 2), (3, 1), (0, 0)), constant_values=9)),
    (vision.Invert(), lambda x: 255 - x),
    (vision.RandomInvert(1.0), lambda x: 255 - x),
    (vision.Posterize(3), lambda x: x & 0b11100000),
    (vision.Solarize(100), lambda x: np.where(x >= 100, 255 - x, x)),
    (vision.Solarize((50, 150)), lambda x: np.where((x >= 50) & (x <= 150), 255 - x, x)),
    (vision.AdjustGamma(2.0, 1.0),
     lambda x: np.clip(np.rint(255 * (x / 255.0) ** 2), 0, 255)),
    (vision.AdjustBrightness(1.5), lambda x: np.clip(np.rint(x * 1.5), 0, 255)),
    (vision.AdjustBrightness(0.0), lambda x: np.zeros_like(x)),
    (vision.AdjustContrast(0.5),
     lambda x: np.clip(np.rint(0.5 * x + 0.5 * int(luma(x).round().mean() + 0.5)), 0, 255)),
    (vision.AdjustSaturation(0.0), lambda x: np.repeat(luma(x)[..., None], 3, -1)),
    (vision.AdjustSaturation(1.0), lambda x: x),
    (vision.Grayscale(3), lambda x: np.repeat(luma(x)[..., None], 3, -1)),
    (vision.Grayscale(1), luma),
    (vision.RandomGrayscale(1.0), lambda x: np.repeat(luma(x)[..., None], 3, -1)),
    (vision.ConvertColor(vision.ConvertMode.COLOR_RGB2BGR), lambda x: x[..., ::-1]),
    (vision.ConvertColor(vision.ConvertMode.COLOR_RGB2RGBA),
     lambda x: np.dstack([x, np.full(x.shape[:2], 255)])),
    (vision.ConvertColor(vision.ConvertMode.COLOR_BGR2GRAY), lambda x: luma(x[..., ::-1])),
    (vision.RandomColorAdjust(), lambda x: x),
    (vision.AdjustHue(0.0), lambda x: x),
    (vision.Erase(1, 2, 3, 4, value=(1, 2, 3)),
     lambda x: np.where(np.pad(np.ones((3, 4, 1), bool), ((1, 8), (2, 10), (0, 0))),
                        np.array([1, 2, 3]), x)),
    (vision.LinearTransformation(np.eye(12 * 16 * 3), np.full(12 * 16 * 3, 5.0)),
     lambda x: x.astype(np.float32) - 5),
    (vision.Affine(0, (3 / 16, -2 / 12), 1.0, 0),  # translate: fractions of the size
     lambda x: np.pad(x, ((0, 2), (3, 0), (0, 0)))[2:, :-3]),
    (vision.Perspective([[0, 0], [15, 0], [15, 11], [0, 11]],
                        [[0, 0], [15, 0], [15, 11], [0, 11]], vision.Inter.NEAREST),
     lambda x: x),
    (vision.SlicePatches(2, 2), lambda x: (x[:6, :8], x[:6, 8:], x[6:, :8], x[6:, 8:])),
    (vision.SlicePatches(5, 1, vision.SliceMode.DROP), lambda x: tuple(
        x[2 * i:2 * i + 2] for i in range(5))),
    (vision.FiveCrop(4), lambda x: (x[:4, :4], x[:4, 12:], x[8:, :4], x[8:, 12:], x[4:8, 6:10])),
    (vision.TenCrop(4, use_vertical_flip=True), lambda x: (
        x[:4, :4], x[:4, 12:], x[8:, :4], x[8:, 12:], x[4:8, 6:10],
        x[::-1][:4, :4], x[::-1][:4, 12:], x[::-1][8:, :4], x[::-1][8:, 12:],
        x[::-1][4:8, 6:10])),
])
def test_transform_matches_reference(op, reference):
    out, want = op(IMG), reference(IMG)
    if isinstance(want, tuple):
        assert len(out) == len(want)
        for o, w in zip(out, want):
            np.testing.assert_array_equal(o, w)
        return
    assert np.asarray(out).shape == np.asarray(want).shape
    tolerance = 1 if np.asarray(out).dtype == np.uint8 else 1e-5
    np.testing.assert_allclose(np.asarray(out, np.float64), np.asarray(want, np.float64),
                               atol=tolerance)


@pytest.mark.parametrize("size", [(8, 32), (24, 64)])  # no pixel centre on a tie
def test_resize_nearest_indexes_pixel_centres(size):
    h, w = size
    rows = np.minimum(((np.arange(h) + 0.5) * (IMG.shape[0] / h)).astype(int), IMG.shape[0] - 1)
    cols = np.minimum(((np.arange(w) + 0.5) * (IMG.shape[1] / w)).astype(int), IMG.shape[1] - 1)
    out = vision.Resize(size, vision.Inter.NEAREST)(IMG)
    np.testing.assert_array_equal(out, IMG[rows][:, cols])


@pytest.mark.parametrize("inter, flt", [(vision.Inter.LINEAR, Image.BILINEAR),
                                        (vision.Inter.CUBIC, Image.BICUBIC),
                                        (vision.Inter.AREA, Image.BOX)])
def test_resize_short_side_keeps_ratio(inter, flt):
    out = vision.Resize(6, inter)(IMG)
    assert out.shape == (6, 8, 3)
    np.testing.assert_array_equal(out, np.asarray(Image.fromarray(IMG).resize((8, 6), flt)))


def _bilinear_halving_weights(n):
    """(n // 2, n) weights of a 2x bilinear shrink: triangle of support 2 around each output
    centre, renormalised where it leaves the image."""
    w = np.zeros((n // 2, n))
    for i in range(n // 2):
        centre = (i + 0.5) * 2
        for j in range(n):
            w[i, j] = max(0.0, 1 - abs(j + 0.5 - centre) / 2)
        w[i] /= w[i].sum()
    return w


def test_resize_float_image_is_bilinear_per_channel():
    img = IMG.astype(np.float32) / 255
    out = vision.Resize((6, 8))(img)
    ref = np.einsum("ai,bj,ijc->abc", _bilinear_halving_weights(12),
                    _bilinear_halving_weights(16), img)
    np.testing.assert_allclose(out, ref, atol=1e-5)


def test_rotate_square_quarter_turn_is_rot90():
    np.testing.assert_array_equal(vision.Rotate(90)(SQUARE), np.rot90(SQUARE, 1))
    np.testing.assert_array_equal(vision.Rotate(90, expand=True)(IMG), np.rot90(IMG, 1))


def test_random_rotation_range_zero_is_identity():
    np.testing.assert_array_equal(vision.RandomRotation((0, 0))(IMG), IMG)


def test_gaussian_blur_matches_scipy():
    sigma = 1.2
    out = vision.GaussianBlur(5, sigma)(IMG.astype(np.float32))
    x = np.arange(5) - 2
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    k /= k.sum()
    ref = ndimage.convolve1d(ndimage.convolve1d(IMG.astype(np.float64), k, 0, mode="mirror"),
                             k, 1, mode="mirror")
    np.testing.assert_allclose(out, ref, atol=1e-4)


def test_rgb_hsv_round_trip_matches_colorsys():
    chw = rng.random((3, 4, 5))
    hsv = vision.RgbToHsv()(chw)
    ref = np.array([[colorsys.rgb_to_hsv(*chw[:, i, j]) for j in range(5)] for i in range(4)])
    np.testing.assert_allclose(hsv.transpose(1, 2, 0), ref, atol=1e-12)
    np.testing.assert_allclose(vision.HsvToRgb()(hsv), chw, atol=1e-12)


def test_hue_shift_moves_red_towards_green():
    red = np.zeros((2, 2, 3), np.uint8)
    red[..., 0] = 255
    out = vision.AdjustHue(1 / 3)(red)
    assert out[0, 0, 1] > 200 and out[0, 0, 0] < 10


def test_autocontrast_and_equalize_match_pillow():
    low = (IMG // 4 + 40).astype(np.uint8)
    np.testing.assert_array_equal(vision.AutoContrast()(low),
                                  np.asarray(ImageOps.autocontrast(Image.fromarray(low))))
    lo, hi = low.reshape(-1, 3).min(0), low.reshape(-1, 3).max(0)
    np.testing.assert_allclose(vision.AutoContrast()(low), (low - lo) * 255.0 / (hi - lo),
                               atol=1)
    np.testing.assert_array_equal(vision.Equalize()(IMG),
                                  np.asarray(ImageOps.equalize(Image.fromarray(IMG))))


def test_sharpness_matches_pillow_enhance():
    np.testing.assert_array_equal(
        vision.AdjustSharpness(2.0)(IMG),
        np.asarray(ImageEnhance.Sharpness(Image.fromarray(IMG)).enhance(2.0)))


@pytest.mark.parametrize("op, shape", [
    (vision.RandomCrop(8, padding=2), (8, 8, 3)),
    (vision.RandomCrop((20, 30), pad_if_needed=True), (20, 30, 3)),
    (vision.RandomResizedCrop(9), (9, 9, 3)),
    (vision.RandomResize((5, 6)), (5, 6, 3)),
    (vision.ResizedCrop(1, 2, 6, 6, (3, 3)), (3, 3, 3)),
    (vision.RandomAffine(30, (0.1, 0.1), (0.9, 1.1), 10), IMG.shape),
    (vision.RandomPerspective(0.5, 1.0), IMG.shape),
    (vision.RandomRotation(30, expand=True), None),
    (vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1), IMG.shape),
    (vision.RandomColor(), IMG.shape), (vision.RandomSharpness(), IMG.shape),
    (vision.RandomAdjustSharpness(2.0, 1.0), IMG.shape),
    (vision.RandomAutoContrast(prob=1.0), IMG.shape), (vision.RandomEqualize(1.0), IMG.shape),
    (vision.RandomPosterize((2, 6)), IMG.shape), (vision.RandomSolarize((0, 255)), IMG.shape),
    (vision.RandomLighting(0.1), IMG.shape), (vision.CutOut(4, 2), IMG.shape),
    (vision.AutoAugment(), IMG.shape),
    (vision.AutoAugment(vision.AutoAugmentPolicy.CIFAR10), IMG.shape),
    (vision.AutoAugment(vision.AutoAugmentPolicy.SVHN), IMG.shape),
    (vision.RandAugment(), IMG.shape), (vision.TrivialAugmentWide(), IMG.shape),
    (vision.UniformAugment([vision.Invert(), vision.HorizontalFlip()], 2), IMG.shape),
    (vision.RandomSelectSubpolicy([[(vision.Invert(), 0.5), (vision.Equalize(), 0.5)]]),
     IMG.shape),
])
def test_random_transforms_are_seeded_and_keep_shape(op, shape):
    first, again = run_pipeline(op, IMG), run_pipeline(op, IMG)
    np.testing.assert_array_equal(first, again)
    assert first.dtype == np.uint8
    if shape is not None:
        assert first.shape == shape


def test_random_crop_is_a_window_of_the_padded_image():
    out = run_pipeline(vision.RandomCrop(8, padding=2, fill_value=0), IMG)
    padded = np.pad(IMG, ((2, 2), (2, 2), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (8, 8, 3))[..., 0, :, :, :]
    assert any((windows[i, j] == out).all() for i in range(windows.shape[0])
               for j in range(windows.shape[1]))


def test_cutout_zeroes_whole_patches():
    ones = np.full((12, 16, 3), 9, np.uint8)
    out = run_pipeline(vision.CutOut(4, 1), ones)
    assert (out == 0).all(-1).sum() == 16


def test_random_erasing_on_chw():
    chw = np.ones((3, 12, 16), np.float32)
    out = vision.RandomErasing(prob=1.0, value=0)(chw)
    assert 0 < (out == 0).all(0).sum() < 12 * 16


def test_bbox_flip_resize_and_crop_move_boxes():
    boxes = np.array([[2, 3, 4, 5]], np.float32)
    img, out = vision.RandomHorizontalFlipWithBBox(1.0)(IMG, boxes)
    np.testing.assert_array_equal(img, IMG[:, ::-1])
    np.testing.assert_array_equal(out, [[16 - 2 - 4, 3, 4, 5]])
    img, out = vision.RandomVerticalFlipWithBBox(1.0)(IMG, boxes)
    np.testing.assert_array_equal(out, [[2, 12 - 3 - 5, 4, 5]])
    img, out = vision.ResizeWithBBox((24, 8))(IMG, boxes)
    assert img.shape == (24, 8, 3)
    np.testing.assert_allclose(out, [[1, 6, 2, 10]])
    img, out = run_pipeline_bbox(vision.RandomCropWithBBox((12, 16)), boxes)
    np.testing.assert_array_equal(out, boxes)
    img, out = run_pipeline_bbox(vision.RandomResizedCropWithBBox((6, 8), scale=(1, 1),
                                                                  ratio=(4 / 3, 4 / 3)), boxes)
    np.testing.assert_allclose(out, boxes / 2)
    img, out = run_pipeline_bbox(vision.RandomResizeWithBBox((24, 32)), boxes)
    np.testing.assert_allclose(out, boxes * 2)
    img, out = vision.BoundingBoxAugment(vision.Invert(), 1.0)(IMG, boxes)
    np.testing.assert_array_equal(img[3:8, 2:6], 255 - IMG[3:8, 2:6])
    np.testing.assert_array_equal(img[:3], IMG[:3])


def run_pipeline_bbox(op, boxes):
    ms.dataset.config.set_seed(1)
    ds = ms.dataset.NumpySlicesDataset({"image": IMG[None], "bbox": boxes[None]}, shuffle=False)
    ds = ds.map(op, ["image", "bbox"])
    return next(ds.create_tuple_iterator(output_numpy=True))


def test_mix_batches_keep_label_mass():
    images = rng.integers(0, 256, (4, 8, 8, 3), dtype=np.uint8)
    labels = np.eye(4, dtype=np.float32)
    ms.dataset.config.set_seed(2)
    ds = ms.dataset.NumpySlicesDataset({"x": images, "y": labels}, shuffle=False).batch(4)
    for op in (vision.MixUpBatch(0.5), vision.CutMixBatch(vision.ImageBatchFormat.NHWC)):
        x, y = next(ds.map(op, ["x", "y"]).create_tuple_iterator(output_numpy=True))
        np.testing.assert_allclose(y.sum(1), 1, atol=1e-6)
        assert x.shape == images.shape
    x, y = vision.CutMixBatch(vision.ImageBatchFormat.NCHW, prob=0.0)(
        images.transpose(0, 3, 1, 2), labels)
    np.testing.assert_array_equal(x, images.transpose(0, 3, 1, 2))
    x, y = vision.MixUp(4, 1.0)(images.astype(np.float32), labels)
    np.testing.assert_allclose(y + y[::-1], labels + labels[::-1], atol=1e-6)


def test_encode_decode_and_files(tmp_path):
    png = vision.encode_png(IMG)
    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(png.tobytes()))), IMG)
    np.testing.assert_array_equal(vision.Decode()(png), IMG)
    assert isinstance(vision.Decode(to_pil=True)(png), Image.Image)
    smooth = np.broadcast_to(np.linspace(0, 255, 16, dtype=np.uint8)[None, :, None],
                             (12, 16, 3)).copy()
    jpeg = vision.encode_jpeg(smooth, 95)
    assert jpeg[:2].tolist() == [0xFF, 0xD8]
    assert np.abs(vision.Decode()(jpeg).astype(int) - smooth).mean() < 3
    vision.write_png(tmp_path / "a.png", IMG)
    np.testing.assert_array_equal(vision.read_image(tmp_path / "a.png"), IMG)
    gray = vision.read_image(tmp_path / "a.png", vision.ImageReadMode.GRAYSCALE)
    assert gray.shape == (12, 16, 1)
    vision.write_file(tmp_path / "b.bin", np.arange(5, dtype=np.uint8))
    np.testing.assert_array_equal(vision.read_file(tmp_path / "b.bin"), np.arange(5))
    vision.write_jpeg(tmp_path / "c.jpg", IMG)
    assert (tmp_path / "c.jpg").read_bytes()[:2] == b"\xff\xd8"
    assert vision.get_image_size(IMG) == [12, 16]
    assert vision.get_image_num_channels(IMG) == 3
    pil = vision.ToPIL()(IMG)
    assert vision.get_image_size(pil) == [12, 16] and vision.get_image_num_channels(pil) == 3
    np.testing.assert_array_equal(vision.ToNumpy()(pil), IMG)
    # a PIL image in gives a PIL image out
    assert isinstance(vision.HorizontalFlip()(pil), Image.Image)


def test_random_crop_decode_resize_decodes_first():
    out = run_pipeline(vision.RandomCropDecodeResize((5, 5)), vision.encode_png(IMG))
    assert out.shape == (5, 5, 3)


def test_not_random_marks_function():
    @vision.not_random
    def f(x):
        return x
    assert f.random is False


def test_enums_follow_mindspore():
    assert vision.Inter.LINEAR is vision.Inter.BILINEAR
    assert vision.Inter.CUBIC is vision.Inter.BICUBIC
    assert int(vision.ImageBatchFormat.NCHW) == 1
    assert vision.Border.REFLECT.value == "reflect"


@pytest.mark.parametrize("make", [lambda: vision.Resize(0), lambda: vision.Pad(-1),
                                  lambda: vision.RandomHorizontalFlip(2.0),
                                  lambda: vision.GaussianBlur(4),
                                  lambda: vision.Posterize(9)])
def test_bad_arguments_raise_named_errors(make):
    from sporeling.data import DataError
    with pytest.raises(DataError):
        make()
