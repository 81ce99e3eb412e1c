"""Tutorial "Error Analysis: Data Processing Debugging" (docs r2.3.1, tutorials/source_en/advanced/error_analysis/minddata_debug.md): each snippet with only the import renamed,
wrapped in a function; the values it leaves (its local variables: tensors, numbers, strings,
containers of them) compared with MindSpore 2.10's, or "raised" where it raises. Snippets
that the facade runs differently are listed in ``FAILING`` (strict xfails)."""
import functools

import pytest

from ._tutorial import check, outcome, values

# flake8: noqa - the tutorial's code, as written there


def _snippet01():
    import sporeling.ms.dataset as ds

    class Loader:
        def __init__(self):
            self.data = [1, 6, 0, 1, 2]
            self.dividend = 1
        def __getitem__(self, index):
            a = self.dividend
            b = self.data[index]
            return a / b
        def __len__(self):
            return len(self.data)


    dataloader = ds.GeneratorDataset(Loader(), column_names=["data"])
    for data in dataloader:
        print("data", data)
    return values(locals())


def _snippet02():
    import numpy as np
    import sporeling.ms.dataset as ds
    import mindspore.dataset.vision as vision

    class MyDataset:
        def __init__(self):
            self.data = [np.ones((32, 32, 3)), np.ones((3, 48, 48))]
        def __getitem__(self, index):
            return self.data[index]
        def __len__(self):
            return len(self.data)


    dataset = ds.GeneratorDataset(MyDataset(), column_names=["data"])
    transforms_list = [vision.RandomResize((3, 16)), vision.Crop(coordinates=(0, 0), size=(8, 8))]
    dataset = dataset.map(operations=transforms_list)
    for data in dataset:
        print("data", data)
    return values(locals())


def _snippet03():
    import numpy as np
    import sporeling.ms.dataset as ds
    import mindspore.dataset.vision as vision

    class MyDataset:
        def __init__(self):
            self.data = [np.ones((32, 32, 3)), np.ones((3, 48, 48))]

        def __getitem__(self, index):
            return self.data[index]

        def __len__(self):
            return len(self.data)


    def MyWrapper(data):
        transforms_list = [vision.RandomResize((3, 16)), vision.Crop(coordinates=(0, 0), size=(8, 8))]
        for transforms in transforms_list:
            print(">>> debug: apply transforms: ", type(transforms))
            print(">>> debug: before apply transforms, data shape", data.shape)
            data = transforms(data)
            print(">>> debug: after apply transforms, data shape", data.shape)
        return data


    dataset = ds.GeneratorDataset(MyDataset(), column_names=["data"], shuffle=False)
    dataset = dataset.map(MyWrapper)
    ds.config.set_num_parallel_workers(1)
    for data in dataset:
        print("data", data[0].shape)
    return values(locals())


def _snippet04():
    import numpy as np
    import sporeling.ms.dataset as ds
    import mindspore.dataset.debug as debug
    import mindspore.dataset.vision as vision

    class MyDataset:
        def __init__(self):
            self.data = [np.ones((32, 32, 3)), np.ones((3, 48, 48))]

        def __getitem__(self, index):
            return self.data[index]

        def __len__(self):
            return len(self.data)


    # Enable dataset pipeline debug mode and use pre-defined debug hook provided by MindData.
    ds.config.set_debug_mode(True)

    # Define dataset pipeline
    dataset = ds.GeneratorDataset(MyDataset(), column_names=["data"])

    transforms_list = [vision.RandomResize((3, 16)), vision.Crop(coordinates=(0, 0), size=(8, 8))]
    dataset = dataset.map(operations=transforms_list)
    for i, data in enumerate(dataset):
        print("data count", i)

    ds.config.set_debug_mode(False)  # (not the tutorial's: restores the default)
    return values(locals())


SNIPPETS = {name[1:]: fn for name, fn in list(globals().items())
            if name.startswith("_") and not name.startswith("__") and callable(fn)
            and getattr(fn, "__module__", None) == __name__}


def snippets_program():
    return {name: outcome(fn) for name, fn in SNIPPETS.items()}


@functools.lru_cache(maxsize=None)
def _outputs():
    return snippets_program()


FAILING = {}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=FAILING[n])) if n in FAILING else n for n in SNIPPETS])
def test_snippet(name):
    check("test_error_analysis", "snippets_program", _outputs(), only=name)
