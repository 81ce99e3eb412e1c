"""Tutorial "Data Sampling" (docs r2.3.1, tutorials/source_en/advanced/dataset/sampler.md):
its code with only the import renamed, on a synthetic CIFAR-10 binary of CIFAR-10's layout
(the tutorial downloads it; plotting left out). Random samplers draw differently in each
framework: their outputs are compared by count and by the set they must come from."""
import tempfile
from pathlib import Path

import numpy as np

from sporeling.ms.dataset import RandomSampler, NumpySlicesDataset

from ._tutorial import check


def fake_cifar10(n=10000):
    """CIFAR-10's binary layout (10,000 records a file, as 2.10's reader requires): a label
    byte and a 3x32x32 uint8 image each; labels 0..9 in turn, each image filled with its
    record number (mod 256)."""
    root = Path(tempfile.mkdtemp()) / "cifar-10-batches-bin"
    root.mkdir()
    records = np.repeat(np.arange(n, dtype=np.uint8)[:, None], 3073, axis=1)
    records[:, 0] = np.arange(n) % 10
    (root / "data_batch_1.bin").write_bytes(records.tobytes())
    return str(root) + "/"


def sampler_program():
    out = {}
    np_data = [1, 2, 3, 4, 5, 6, 7, 8]
    sampler1 = RandomSampler(replacement=True, num_samples=5)
    dataset1 = NumpySlicesDataset(np_data, column_names=["data"], sampler=sampler1)
    drawn = [int(data[0]) for data in dataset1.create_tuple_iterator(output_numpy=True)]
    out["with_replacement"] = (len(drawn), set(drawn) <= set(np_data))
    sampler2 = RandomSampler(replacement=False, num_samples=5)
    dataset2 = NumpySlicesDataset(np_data, column_names=["data"], sampler=sampler2)
    drawn = [int(data[0]) for data in dataset2.create_tuple_iterator(output_numpy=True)]
    out["without_replacement"] = (len(drawn), len(set(drawn)), set(drawn) <= set(np_data))

    from sporeling.ms.dataset import WeightedRandomSampler, Cifar10Dataset
    DATA_DIR = fake_cifar10()
    weights = [0.8, 0.5, 0, 0, 0, 0, 0, 0, 0, 0]
    sampler = WeightedRandomSampler(weights, num_samples=6)
    dataset = Cifar10Dataset(DATA_DIR, sampler=sampler)

    def plt_result(dataset, row):
        """The tutorial's display, as (image shape, label, first pixel) rows."""
        return [(data['image'].shape, int(data['label']), int(data['image'][0, 0, 0]))
                for data in dataset.create_dict_iterator(output_numpy=True)]

    rows = plt_result(dataset, 2)
    out["weighted"] = (len(rows), {r[2] for r in rows} <= {0, 1}, rows[0][0])

    from sporeling.ms.dataset import SubsetRandomSampler
    indices = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    sampler = SubsetRandomSampler(indices, num_samples=6)
    dataset = Cifar10Dataset(DATA_DIR, sampler=sampler)
    rows = plt_result(dataset, 2)
    out["subset"] = (len(rows), len({r[2] for r in rows}), {r[2] for r in rows} <= set(indices))

    from sporeling.ms.dataset import PKSampler
    sampler = PKSampler(num_val=2, class_column='label', num_samples=10)
    dataset = Cifar10Dataset(DATA_DIR, sampler=sampler)
    rows = plt_result(dataset, 3)
    labels = [r[1] for r in rows]
    out["pk"] = (len(rows), max(labels.count(c) for c in set(labels)))

    from sporeling.ms.dataset import DistributedSampler
    data_source = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    sampler = DistributedSampler(num_shards=4, shard_id=0, shuffle=False, num_samples=3)
    dataset = NumpySlicesDataset(data_source, column_names=["data"], sampler=sampler)
    out["distributed"] = [data["data"] for data in dataset.create_dict_iterator()]

    import sporeling.ms.dataset as ds

    class MySampler(ds.Sampler):
        def __iter__(self):
            for i in range(0, 10, 2):
                yield i

    np_data = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']
    dataset = ds.NumpySlicesDataset(np_data, column_names=["data"], sampler=MySampler())
    out["custom_sampler"] = [str(data[0]) for data in
                             dataset.create_tuple_iterator(output_numpy=True)]

    class MySampler():
        def __init__(self):
            self.index_ids = [3, 4, 3, 2, 0, 11, 5, 5, 5, 9, 1, 11, 11, 11, 11, 8]

        def __getitem__(self, index):
            return self.index_ids[index]

        def __len__(self):
            return len(self.index_ids)

    dataset = ds.NumpySlicesDataset(np_data, column_names=["data"], sampler=MySampler())
    out["index_sampler"] = [str(data[0]) for data in
                            dataset.create_tuple_iterator(output_numpy=True)]
    return out


def test_sampler():
    check("test_sampler", "sampler_program", sampler_program())
