"""Tutorial "Dataset" (docs r2.3.1, tutorials/source_en/beginner/dataset.md): its code with
only the import renamed, on a synthetic MNIST of MNIST's shapes (the tutorial downloads it;
plotting left out). Outputs compared with MindSpore 2.10's; shuffled orders are each
framework's own, so only the shapes are compared after a shuffle."""
import numpy as np

from sporeling.ms.dataset import vision
from sporeling.ms.dataset import MnistDataset, GeneratorDataset

from ._tutorial import check, fake_mnist


def dataset_program():
    out = {}
    root = fake_mnist()
    train_dataset = MnistDataset(root + "/train", shuffle=False)
    image, label = next(train_dataset.create_tuple_iterator())
    out["first"] = (image, label)
    train_dataset = train_dataset.shuffle(buffer_size=64)
    image, label = next(train_dataset.create_tuple_iterator())
    out["shuffled"] = (image.shape, str(image.dtype).lower())
    train_dataset = train_dataset.map(vision.Rescale(1.0 / 255.0, 0), input_columns='image')
    image, label = next(train_dataset.create_tuple_iterator())
    out["rescaled"] = (image.shape, str(image.dtype).lower())
    train_dataset = train_dataset.batch(batch_size=32)
    image, label = next(train_dataset.create_tuple_iterator())
    out["batched"] = (image.shape, str(image.dtype).lower(), label.shape)

    class RandomAccessDataset:
        def __init__(self):
            self._data = np.ones((5, 2))
            self._label = np.zeros((5, 1))

        def __getitem__(self, index):
            return self._data[index], self._label[index]

        def __len__(self):
            return len(self._data)

    loader = RandomAccessDataset()
    dataset = GeneratorDataset(source=loader, column_names=["data", "label"])
    out["random_access"] = [data for data in dataset]

    loader = [np.array(0), np.array(1), np.array(2)]
    dataset = GeneratorDataset(source=loader, column_names=["data"])
    out["list"] = sorted(int(data[0].asnumpy()) for data in dataset)

    class IterableDataset():
        def __init__(self, start, end):
            self.start = start
            self.end = end

        def __next__(self):
            return next(self.data)

        def __iter__(self):
            self.data = iter(range(self.start, self.end))
            return self

    loader = IterableDataset(1, 5)
    dataset = GeneratorDataset(source=loader, column_names=["data"])
    out["iterable"] = [d for d in dataset]

    def my_generator(start, end):
        for i in range(start, end):
            yield i

    dataset = GeneratorDataset(source=lambda: my_generator(3, 6), column_names=["data"])
    out["generator"] = [d for d in dataset]
    return out


def test_dataset():
    check("test_dataset", "dataset_program", dataset_program())
