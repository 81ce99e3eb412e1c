"""Tutorial "Transforms" (docs r2.3.1, tutorials/source_en/beginner/transforms.md): its code
with only the import renamed, on a synthetic MNIST and a seeded random image."""
import numpy as np
from PIL import Image

from sporeling.ms.dataset import transforms, vision, text
from sporeling.ms.dataset import GeneratorDataset, MnistDataset

from ._tutorial import check, fake_mnist


def transforms_program():
    out = {}
    train_dataset = MnistDataset(fake_mnist() + '/train', shuffle=False)
    image, label = next(train_dataset.create_tuple_iterator())
    out["raw_shape"] = image.shape
    composed = transforms.Compose(
        [
            vision.Rescale(1.0 / 255.0, 0),
            vision.Normalize(mean=(0.1307,), std=(0.3081,)),
            vision.HWC2CHW()
        ]
    )
    train_dataset = train_dataset.map(composed, 'image')
    image, label = next(train_dataset.create_tuple_iterator())
    out["composed"] = image

    random_np = np.random.default_rng(0).integers(0, 255, (48, 48), np.uint8)
    random_image = Image.fromarray(random_np)
    rescale = vision.Rescale(1.0 / 255.0, 0)
    rescaled_image = rescale(random_image)
    out["rescaled"] = rescaled_image
    normalize = vision.Normalize(mean=(0.1307,), std=(0.3081,))
    normalized_image = normalize(rescaled_image)
    out["normalized"] = normalized_image
    hwc_image = np.expand_dims(normalized_image, -1)
    hwc2chw = vision.HWC2CHW()
    chw_image = hwc2chw(hwc_image)
    out["chw"] = chw_image

    texts = ['Welcome to Beijing']
    test_dataset = GeneratorDataset(texts, 'text')

    def my_tokenizer(content):
        return content.split()

    test_dataset = test_dataset.map(text.PythonTokenizer(my_tokenizer))
    out["tokens"] = next(test_dataset.create_tuple_iterator(output_numpy=True))
    vocab = text.Vocab.from_dataset(test_dataset)
    out["vocab"] = sorted(vocab.vocab().items())
    test_dataset = test_dataset.map(text.Lookup(vocab))
    out["ids"] = next(test_dataset.create_tuple_iterator())

    test_dataset = GeneratorDataset([1, 2, 3], 'data', shuffle=False)
    test_dataset = test_dataset.map(lambda x: x * 2)
    out["doubled"] = list(test_dataset.create_tuple_iterator())

    def func(x):
        return x * x + 2

    test_dataset = test_dataset.map(lambda x: func(x))
    out["func"] = list(test_dataset.create_tuple_iterator())
    return out


def test_transforms():
    check("test_transforms", "transforms_program", transforms_program())
