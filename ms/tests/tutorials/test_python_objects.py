"""Tutorial "Supporting Python Objects in Dataset Pipeline" (docs r2.3.1, tutorials/source_en/advanced/dataset/python_objects.md): each snippet with only the import renamed,
wrapped in a function; the values it leaves (its local variables: tensors, numbers, strings,
containers of them) compared with MindSpore 2.10's, or "raised" where it raises. Dict
columns stay dicts through map, batch (per key) and the iterators, as in 2.10."""
import functools

import pytest

from ._tutorial import check, outcome, values

# flake8: noqa - the tutorial's code, as written there


def _snippet01():
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(5):
            col1 = {"number": i, "square": i ** 2}
            col2 = i
            yield col1, col2

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1", "col2"])

    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)
    return values(locals())


def _snippet02():
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(5):
            yield i

    def my_pyfunc(col1):
        new_col1 = {"original_col1": col1, "square": col1 ** 2}
        return new_col1

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1"])
    data = data.map(operations=my_pyfunc, input_columns=["col1"])

    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)
    return values(locals())


def _snippet03():
    import numpy as np
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(5):
            col1 = {"nested_dict": {"powers": np.power(i, [1, 2, 3])}}
            col2 = i
            yield (col1, col2)

    def my_pyfunc(col1):
        assert isinstance(col1, dict)
        new_col1 = col1["nested_dict"]
        return new_col1

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1", "col2"])
    data = data.map(operations=my_pyfunc, input_columns=["col1"])

    print(">>> before batch")
    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)

    data = data.batch(batch_size=5)

    print(">>> after batch")
    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)
    return values(locals())


def _snippet04():
    import numpy as np
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(9):
            yield i

    def my_per_batch_map(col1, batch_info):
        new_col1 = {"original_col1": col1, "index": np.arange(3)}
        new_col2 = {"copied_col1": col1}
        return new_col1, new_col2

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1"])
    data = data.batch(batch_size=3, per_batch_map=my_per_batch_map, output_columns=["col1", "col2"])

    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)
    return values(locals())


def _snippet05():
    import numpy as np
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(5):
            col1 = {"my_data": np.array(i)}
            col2 = i
            yield col1, col2

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1", "col2"])

    print(">>> Iter dataset with converting all data to Tensor")
    for d in data.create_dict_iterator(num_epochs=1):
        print(d)

    print(">>> Iter dataset with converting all data to Numpy")
    for d in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        print(d)
    return values(locals())


def _snippet06():
    import numpy as np
    import sporeling.ms.dataset as ds

    def my_generator():
        for i in range(5):
            col1 = {'my_data': np.array(i), 'my_data2': np.array(i + 1)}
            yield col1

    data = ds.GeneratorDataset(source=my_generator, column_names=['col1'])

    print('>>> get data in dict type')
    for d in data:
        print(d)

    def dict_to_tuple(d):
        return tuple([i for i in d.values()])

    # flatten the dict object bedfore it passed into network
    data = data.map(dict_to_tuple, input_columns=['col1'], output_columns=['my_data', 'my_data2'])

    print('>>> get data in sequence type')
    for d in data:
        print(d)

    return values(locals())


SNIPPETS = {name[1:]: fn for name, fn in list(globals().items())
            if name.startswith("_") and not name.startswith("__") and callable(fn)
            and getattr(fn, "__module__", None) == __name__}


def snippets_program():
    return {name: outcome(fn) for name, fn in SNIPPETS.items()}


@functools.lru_cache(maxsize=None)
def _outputs():
    return snippets_program()


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_snippet(name):
    check("test_python_objects", "snippets_program", _outputs(), only=name)
