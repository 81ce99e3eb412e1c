"""Image datasets round-trip through their real file formats (written here into tmp_path):
IDX, CIFAR/STL binaries, MATLAB .mat, LIBSVM text, image folders, COCO JSON, VOC XML, ..."""
import gzip
import json
import struct

import numpy as np
import pytest
from PIL import Image
from scipy.io import savemat
from scipy.sparse import csc_matrix

from sporeling.ms import dataset as ds

rng = np.random.default_rng(0)


def png(path, array=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    array = rng.integers(0, 256, (4, 5, 3), dtype=np.uint8) if array is None else array
    Image.fromarray(array).save(path)
    return array


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


def write_idx(path, array, gz=False):
    code = {np.uint8: 0x08, np.int32: 0x0C}[array.dtype.type]
    data = struct.pack(">HBB", 0, code, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    data += array.astype(array.dtype.newbyteorder(">")).tobytes()
    (gzip.open if gz else open)(path, "wb").write(data)


@pytest.mark.parametrize("cls", [ds.FashionMnistDataset, ds.KMnistDataset])
@pytest.mark.parametrize("gz", [False, True])
def test_mnist_like(tmp_path, cls, gz):
    images = rng.integers(0, 256, (3, 28, 28), dtype=np.uint8)
    ext = ".gz" if gz else ""
    write_idx(tmp_path / f"train-images-idx3-ubyte{ext}", images, gz)
    write_idx(tmp_path / f"train-labels-idx1-ubyte{ext}", np.array([4, 1, 9], np.uint8), gz)
    out = rows(cls(str(tmp_path), "train", shuffle=False))
    np.testing.assert_array_equal(out[1][0], images[1][..., None])
    assert [int(r[1]) for r in out] == [4, 1, 9] and out[0][1].dtype == np.uint32


def test_emnist_and_qmnist(tmp_path):
    images = rng.integers(0, 256, (2, 28, 28), dtype=np.uint8)
    write_idx(tmp_path / "emnist-letters-test-images-idx3-ubyte", images)
    write_idx(tmp_path / "emnist-letters-test-labels-idx1-ubyte", np.array([3, 7], np.uint8))
    out = rows(ds.EMnistDataset(str(tmp_path), "letters", "test", shuffle=False))
    assert [int(r[1]) for r in out] == [3, 7]
    write_idx(tmp_path / "qmnist-train-images-idx3-ubyte", images)
    labels = np.arange(16, dtype=np.int32).reshape(2, 8)
    write_idx(tmp_path / "qmnist-train-labels-idx2-int", labels)
    out = rows(ds.QMnistDataset(str(tmp_path), "train", shuffle=False))
    assert [int(r[1]) for r in out] == [0, 8]
    full = rows(ds.QMnistDataset(str(tmp_path), "train", compat=False, shuffle=False))
    np.testing.assert_array_equal(full[1][1], labels[1])


def test_cifar100_and_stl10(tmp_path):
    images = rng.integers(0, 256, (2, 32, 32, 3), dtype=np.uint8)
    records = b"".join(bytes([c, f]) + im.transpose(2, 0, 1).tobytes()
                       for (c, f), im in zip([(1, 11), (2, 22)], images))
    (tmp_path / "train.bin").write_bytes(records)
    out = rows(ds.Cifar100Dataset(str(tmp_path), "train", shuffle=False))
    np.testing.assert_array_equal(out[1][0], images[1])
    assert [(int(r[1]), int(r[2])) for r in out] == [(1, 11), (2, 22)]
    stl = rng.integers(0, 256, (2, 96, 96, 3), dtype=np.uint8)
    (tmp_path / "test_X.bin").write_bytes(stl.transpose(0, 3, 2, 1).tobytes())
    (tmp_path / "test_y.bin").write_bytes(bytes([3, 10]))
    out = rows(ds.STL10Dataset(str(tmp_path), "test", shuffle=False))
    np.testing.assert_array_equal(out[0][0], stl[0])
    assert [int(r[1]) for r in out] == [2, 9]


def test_svhn_usps_semeion(tmp_path):
    x = rng.integers(0, 256, (32, 32, 3, 2), dtype=np.uint8)
    savemat(tmp_path / "train_32x32.mat", {"X": x, "y": np.array([[10], [3]])})
    out = rows(ds.SVHNDataset(str(tmp_path), "train", shuffle=False))
    np.testing.assert_array_equal(out[0][0], x[..., 0])
    assert [int(r[1]) for r in out] == [0, 3]
    values = np.linspace(-1, 1, 256)
    (tmp_path / "usps").write_text("3 " + " ".join(f"{i + 1}:{v}" for i, v in enumerate(values)))
    (image, label), = rows(ds.USPSDataset(str(tmp_path), "train"))
    assert int(label) == 2 and image.shape == (16, 16, 1)
    np.testing.assert_array_equal(image.reshape(-1), np.round((values + 1) / 2 * 255))
    bits = rng.integers(0, 2, 256)
    (tmp_path / "semeion.data").write_text(" ".join(map(str, bits)) + " 0 0 1 0 0 0 0 0 0 0\n")
    (image, label), = rows(ds.SemeionDataset(str(tmp_path)))
    assert int(label) == 2
    np.testing.assert_array_equal(image, bits.reshape(16, 16) * 255)


def test_class_folder_datasets(tmp_path):
    a = png(tmp_path / "c256" / "001.ak47" / "001_0001.jpg".replace(".jpg", ".png"))
    png(tmp_path / "c256" / "002.bat" / "002_0001.png")
    d = ds.Caltech256Dataset(str(tmp_path / "c256"), decode=True, shuffle=False)
    out = rows(d)
    np.testing.assert_array_equal(out[0][0], a)
    assert [int(r[1]) for r in out] == [0, 1] and d.num_classes() == 2
    assert out[0][1].dtype == np.uint32
    png(tmp_path / "omni" / "images_background" / "Greek" / "character01" / "x.png")
    png(tmp_path / "omni" / "images_background" / "Latin" / "character02" / "y.png")
    assert [int(r[1]) for r in rows(ds.OmniglotDataset(str(tmp_path / "omni"),
                                                       shuffle=False))] == [0, 1]
    png(tmp_path / "sst" / "train" / "positive" / "p.png")
    png(tmp_path / "sst" / "train" / "negative" / "n.png")
    assert [int(r[1]) for r in rows(ds.RenderedSST2Dataset(str(tmp_path / "sst"), "train",
                                                           shuffle=False))] == [0, 1]
    (tmp_path / "sun").mkdir()
    (tmp_path / "sun" / "ClassName.txt").write_text("/a/abbey\n/b/bar\n")
    png(tmp_path / "sun" / "b" / "bar" / "sun_1.png")
    raw = rows(ds.SUN397Dataset(str(tmp_path / "sun")))
    assert int(raw[0][1]) == 1 and raw[0][0].ndim == 1  # not decoded: the file's bytes


def test_folder_image_is_raw_bytes_unless_decoded(tmp_path):
    png(tmp_path / "f" / "images" / "pizza" / "1.jpg")
    (tmp_path / "f" / "meta").mkdir()
    (tmp_path / "f" / "meta" / "train.txt").write_text("pizza/1\n")
    (image, label), = rows(ds.Food101Dataset(str(tmp_path / "f"), "train"))
    assert image.tobytes() == (tmp_path / "f" / "images" / "pizza" / "1.jpg").read_bytes()
    assert label == "pizza"


def test_caltech101_with_annotations(tmp_path):
    root = tmp_path / "101_ObjectCategories"
    png(root / "Faces" / "image_0001.png")
    png(root / "BACKGROUND_Google" / "image_0001.png")
    contour = np.array([[1.0, 2.0], [3.0, 4.0]])
    (tmp_path / "Annotations" / "Faces_2").mkdir(parents=True)
    savemat(tmp_path / "Annotations" / "Faces_2" / "annotation_0001.mat",
            {"obj_contour": contour})
    (image, category, annotation), = rows(ds.Caltech101Dataset(str(tmp_path), "all",
                                                               decode=True))
    assert int(category) == 0 and image.shape == (4, 5, 3)
    np.testing.assert_array_equal(annotation, contour)


def test_celeba(tmp_path):
    png(tmp_path / "img_align_celeba" / "000001.png")
    png(tmp_path / "img_align_celeba" / "000002.png")
    attrs = "2\nA B\n000001.png 1 -1\n000002.png -1 1\n"
    (tmp_path / "list_attr_celeba.txt").write_text(attrs)
    (tmp_path / "list_eval_partition.txt").write_text("000001.png 0\n000002.png 2\n")
    out = rows(ds.CelebADataset(str(tmp_path), usage="test", decode=True))
    assert len(out) == 1 and out[0][1].tolist() == [0, 1]


def test_cityscapes_and_div2k(tmp_path):
    png(tmp_path / "leftImg8bit" / "train" / "aachen" / "a_000_leftImg8bit.png")
    target = png(tmp_path / "gtFine" / "train" / "aachen" / "a_000_gtFine_labelIds.png",
                 np.arange(20, dtype=np.uint8).reshape(4, 5))
    (image, task), = rows(ds.CityscapesDataset(str(tmp_path), "train", task="semantic",
                                               decode=True))
    np.testing.assert_array_equal(task[..., 0], target)
    hr = png(tmp_path / "DIV2K_train_HR" / "0001.png")
    lr = png(tmp_path / "DIV2K_train_LR_bicubic" / "X2" / "0001x2.png")
    (h, l), = rows(ds.DIV2KDataset(str(tmp_path), decode=True))
    np.testing.assert_array_equal(h, hr)
    np.testing.assert_array_equal(l, lr)
    lr8 = png(tmp_path / "DIV2K_train_LR_x8" / "0001x8.png")
    (_, l), = rows(ds.DIV2KDataset(str(tmp_path), scale=8, decode=True))
    np.testing.assert_array_equal(l, lr8)
    mild = png(tmp_path / "DIV2K_train_LR_mild" / "0001x4m.png")
    (_, l), = rows(ds.DIV2KDataset(str(tmp_path), downgrade="mild", scale=4, decode=True))
    np.testing.assert_array_equal(l, mild)


def test_coco_tasks(tmp_path):
    png(tmp_path / "1.png")
    ann = {"images": [{"id": 1, "file_name": "1.png"}],
           "annotations": [{"image_id": 1, "bbox": [1, 2, 3, 4], "category_id": 5,
                            "iscrowd": 0, "segmentation": [[1, 1, 2, 2, 3, 3]],
                            "keypoints": list(range(51)), "num_keypoints": 3},
                           {"image_id": 1, "bbox": [0, 0, 1, 1], "category_id": 6,
                            "iscrowd": 1, "segmentation": [[0, 0]], "keypoints": [0] * 51,
                            "num_keypoints": 0}]}
    (tmp_path / "ann.json").write_text(json.dumps(ann))
    image, bbox, cat, crowd = rows(ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json")))[0]
    np.testing.assert_array_equal(bbox, [[1, 2, 3, 4], [0, 0, 1, 1]])
    assert cat.tolist() == [[5], [6]] and crowd.tolist() == [[0], [1]]
    _, seg, _ = rows(ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json"), "Stuff"))[0]
    np.testing.assert_array_equal(seg, [[1, 1, 2, 2, 3, 3], [0, 0, -1, -1, -1, -1]])
    _, kp, num = rows(ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json"), "Keypoint"))[0]
    assert kp.shape == (2, 51) and num.tolist() == [[3], [0]]
    caps = {"images": ann["images"], "annotations": [{"image_id": 1, "caption": "a cat"}]}
    (tmp_path / "caps.json").write_text(json.dumps(caps))
    (_, captions), = rows(ds.CocoDataset(str(tmp_path), str(tmp_path / "caps.json"),
                                         "Captioning"))
    assert captions.tolist() == ["a cat"]


def test_fake_flickr_flowers(tmp_path):
    fake = ds.FakeImageDataset(3, (4, 4, 3), 5, base_seed=2, shuffle=False)
    first, again = rows(fake), rows(fake)
    assert first[0][0].shape == (4, 4, 3) and all(0 <= int(r[1]) < 5 for r in first)
    np.testing.assert_array_equal(first[2][0], again[2][0])
    png(tmp_path / "x.png")
    (tmp_path / "captions.txt").write_text("x.png#0\tA dog.\nx.png#1\tA pet.\n")
    (_, captions), = rows(ds.FlickrDataset(str(tmp_path), str(tmp_path / "captions.txt")))
    assert captions.tolist() == ["A dog.", "A pet."]
    for i in (1, 2):
        png(tmp_path / "jpg" / f"image_{i:05d}.jpg".replace(".jpg", ".png"))
    # Flowers-102's files are .jpg: save PNG bytes under the jpg name (decode reads either)
    for i in (1, 2):
        (tmp_path / "jpg" / f"image_{i:05d}.png").rename(tmp_path / "jpg" / f"image_{i:05d}.jpg")
    savemat(tmp_path / "imagelabels.mat", {"labels": np.array([[7, 9]])})
    savemat(tmp_path / "setid.mat", {"trnid": np.array([[2]]), "valid": np.array([[1]]),
                                     "tstid": np.array([[1]])})
    (image, label), = rows(ds.Flowers102Dataset(str(tmp_path), usage="train", decode=True))
    assert int(label) == 8 and image.shape == (4, 5, 3)


def test_kitti_lfw_manifest(tmp_path):
    png(tmp_path / "data_object_image_2" / "training" / "image_2" / "000000.png")
    (tmp_path / "data_object_label_2" / "training" / "label_2").mkdir(parents=True)
    (tmp_path / "data_object_label_2" / "training" / "label_2" / "000000.txt").write_text(
        "Car 0.5 1 -1.5 10 20 30 40 1.5 1.6 3.9 1 2 3 0.1\n")
    row = rows(ds.KITTIDataset(str(tmp_path)))[0]
    assert int(row[1][0, 0]) == 0 and row[5].tolist() == [[10, 20, 30, 40]]
    assert float(row[8][0, 0]) == pytest.approx(0.1)
    lfw = tmp_path / "lfw"
    png(lfw / "lfw-funneled" / "Ann" / "Ann_0001.jpg".replace("jpg", "png"))
    (lfw / "lfw-funneled" / "Ann" / "Ann_0001.png").rename(lfw / "lfw-funneled" / "Ann" /
                                                          "Ann_0001.jpg")
    png(lfw / "lfw-funneled" / "Bob" / "Bob_0001.png").shape
    (lfw / "lfw-funneled" / "Bob" / "Bob_0001.png").rename(lfw / "lfw-funneled" / "Bob" /
                                                          "Bob_0001.jpg")
    (lfw / "lfw-names.txt").write_text("Ann 1\nBob 1\n")
    assert [int(r[1]) for r in rows(ds.LFWDataset(str(lfw), shuffle=False))] == [0, 1]
    (lfw / "pairs.txt").write_text("1 1\nAnn 1 1\nAnn 1 Bob 1\n")
    assert [int(r[2]) for r in rows(ds.LFWDataset(str(lfw), "pairs", shuffle=False))] == [1, 0]
    png(tmp_path / "m" / "a.png")
    lines = [{"source": "a.png", "usage": "train",
              "annotation": [{"type": "modelarts/image_classification", "name": "dog"}]},
             {"source": "a.png", "usage": "eval", "annotation": [{"name": "cat"}]}]
    (tmp_path / "m" / "manifest.json").write_text("\n".join(json.dumps(x) for x in lines))
    d = ds.ManifestDataset(str(tmp_path / "m" / "manifest.json"), decode=True)
    (image, label), = rows(d)
    assert label.tolist() == [0] and d.get_class_indexing() == {"dog": 0}


def test_phototour_places_sbd_sbu(tmp_path):
    sheet = rng.integers(0, 256, (1024, 1024), dtype=np.uint8)
    (tmp_path / "liberty").mkdir()
    Image.fromarray(sheet).save(tmp_path / "liberty" / "patches0000.bmp")
    (tmp_path / "liberty" / "info.txt").write_text("0 0\n1 0\n2 1\n")
    (tmp_path / "liberty" / "m50_100000_100000_0.txt").write_text(
        "0 5 0 1 5 0 0\n0 5 0 2 6 0 0\n")
    (patch,) = rows(ds.PhotoTourDataset(str(tmp_path), "liberty", "train", shuffle=False))[1]
    np.testing.assert_array_equal(patch[..., 0], sheet[:64, 64:128])
    pairs = rows(ds.PhotoTourDataset(str(tmp_path), "liberty", "test", shuffle=False))
    assert [int(r[2]) for r in pairs] == [1, 0]
    places = tmp_path / "places"
    png(places / "data_256" / "a" / "airfield" / "1.png")
    (places / "categories_places365.txt").write_text("/a/airfield 0\n/b/bar 1\n")
    (places / "places365_train_standard.txt").write_text("/a/airfield/1.png 0\n")
    (image, label), = rows(ds.Places365Dataset(str(places), decode=True))
    assert int(label) == 0 and image.shape == (4, 5, 3)
    sbd = tmp_path / "sbd"
    png(sbd / "img" / "2008_1.png")
    (sbd / "img" / "2008_1.png").rename(sbd / "img" / "2008_1.jpg")
    (sbd / "cls").mkdir()
    seg = np.arange(20, dtype=np.uint8).reshape(4, 5)
    gt = np.zeros((1, 1), dtype=[("Segmentation", "O"), ("Boundaries", "O")])
    bounds = np.empty((2, 1), dtype=object)  # a cell of one sparse matrix per class
    bounds[0, 0] = csc_matrix(np.eye(4, 5))
    bounds[1, 0] = csc_matrix(np.zeros((4, 5)))
    gt[0, 0] = (seg, bounds)
    savemat(sbd / "cls" / "2008_1.mat", {"GTcls": gt})
    (sbd / "train.txt").write_text("2008_1\n")
    (_, target), = rows(ds.SBDataset(str(sbd), "Segmentation", "train"))
    np.testing.assert_array_equal(target, seg)
    (_, bounds), = rows(ds.SBDataset(str(sbd), "Boundaries", "train"))
    np.testing.assert_array_equal(bounds[0], np.eye(4, 5))
    sbu = tmp_path / "sbu"
    png(sbu / "sbu_images" / "p.png")
    (sbu / "SBU_captioned_photo_dataset_urls.txt").write_text("http://x/p.png\nhttp://x/q.png\n")
    (sbu / "SBU_captioned_photo_dataset_captions.txt").write_text("a photo\nmissing\n")
    (_, caption), = rows(ds.SBUDataset(str(sbu)))
    assert caption == "a photo"


def test_voc_and_widerface(tmp_path):
    png(tmp_path / "JPEGImages" / "1.png").shape
    (tmp_path / "JPEGImages" / "1.png").rename(tmp_path / "JPEGImages" / "1.jpg")
    target = png(tmp_path / "SegmentationClass" / "1.png", np.full((4, 5), 3, np.uint8))
    (tmp_path / "ImageSets" / "Segmentation").mkdir(parents=True)
    (tmp_path / "ImageSets" / "Segmentation" / "train.txt").write_text("1\n")
    (_, seg), = rows(ds.VOCDataset(str(tmp_path), decode=True))
    np.testing.assert_array_equal(seg[..., 0], target)
    (tmp_path / "ImageSets" / "Main").mkdir(parents=True)
    (tmp_path / "ImageSets" / "Main" / "train.txt").write_text("1\n")
    (tmp_path / "Annotations").mkdir()
    (tmp_path / "Annotations" / "1.xml").write_text(
        "<annotation><object><name>dog</name><difficult>1</difficult><truncated>0</truncated>"
        "<bndbox><xmin>1</xmin><ymin>2</ymin><xmax>4</xmax><ymax>6</ymax></bndbox></object>"
        "</annotation>")
    d = ds.VOCDataset(str(tmp_path), "Detection", class_indexing={"dog": 7})
    (_, bbox, label, difficult, truncated), = rows(d)
    assert bbox.tolist() == [[1, 2, 3, 4]] and label.tolist() == [[7]]
    assert difficult.tolist() == [[1]] and d.get_class_indexing() == {"dog": 7}
    w = tmp_path / "wider"
    png(w / "WIDER_train" / "images" / "0--Parade" / "a.png")
    (w / "wider_face_split").mkdir()
    (w / "wider_face_split" / "wider_face_train_bbx_gt.txt").write_text(
        "0--Parade/a.png\n2\n1 2 3 4 0 1 0 0 1 0\n5 6 7 8 2 0 1 1 0 1\n")
    row, = rows(ds.WIDERFaceDataset(str(w), "train"))
    assert row[1].tolist() == [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert row[2].tolist() == [[0], [2]] and row[7].tolist() == [[0], [1]]


def test_padded_random_and_schema(tmp_path):
    padded = ds.PaddedDataset([{"image": np.zeros(2), "label": np.int32(1)}] * 2)
    assert padded.get_dataset_size() == 2 and padded.get_col_names() == ["image", "label"]
    schema = ds.Schema()
    schema.add_column("x", "float32", [2, 3])
    schema.add_column("y", "uint8", [1])
    (tmp_path / "schema.json").write_text(schema.to_json())
    again = ds.Schema(str(tmp_path / "schema.json"))
    assert json.loads(again.to_json()) == json.loads(schema.to_json())
    out = rows(ds.RandomDataset(5, again, shuffle=False))
    assert len(out) == 5 and out[0][0].shape == (2, 3) and out[0][1].dtype == np.uint8
    assert rows(ds.RandomDataset(2, schema, ["y"]))[0][0].shape == (1,)
