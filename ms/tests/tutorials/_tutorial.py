"""Shared by the tutorial tests: start both frameworks from the same weights, and compare a
program's outputs with those ``data/record.py`` recorded from MindSpore 2.10 (CPU).

A tutorial program is a function ``<name>_program()`` (or ``<name>_program(mode)`` when its
code is a network: ``mode`` is ``"PYNATIVE_MODE"`` or ``"GRAPH_MODE"``) in a ``test_*.py`` file
here; it runs the tutorial's code and returns a dict of named outputs (tensors, arrays,
numbers, strings, or tuples of them). The recorder runs the very same function with
``sporeling.ms`` standing for ``mindspore``."""
import zlib
from pathlib import Path

import numpy as np

import sporeling.ms as mindspore

DATA = Path(__file__).parent / "data"
MODES = ("PYNATIVE_MODE", "GRAPH_MODE")


def set_mode(mode):
    """The tutorial's ``mindspore.set_context(mode=...)``, with the mode under test."""
    mindspore.set_context(mode=getattr(mindspore, mode))


def init_weights(net, scale=0.1):
    """Every parameter from a NumPy generator seeded by its name: the same start in MindSpore
    and in the facade, whatever each framework's initializers draw. ``scale="fan_in"``: a
    standard deviation of 1/sqrt(fan in) for weights (deep networks stay finite)."""
    for name, p in net.parameters_and_names():
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        std = scale
        if scale == "fan_in":
            std = 1 / np.sqrt(np.prod(p.shape[1:])) if len(p.shape) > 1 else 0.1
        value = rng.normal(0, std, p.shape).astype(p.asnumpy().dtype)
        if "gamma" in name or "moving_variance" in name:  # normalisation scales stay near 1
            value = 1 + value
        p.set_data(mindspore.Tensor(value))
    return net


def flatten(outputs):
    """``{name: value}`` -> ``{key: ndarray}``; tuples and lists become ``name.0``, ``name.1``."""
    flat = {}

    def put(key, value):
        if isinstance(value, dict):
            for k, v in value.items():
                put(f"{key}.{k}", v)
            return
        if isinstance(value, (tuple, list)) and any(hasattr(v, "asnumpy") or
                                                    isinstance(v, (tuple, list)) for v in value):
            for i, v in enumerate(value):
                put(f"{key}.{i}", v)
            return
        try:
            array = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
        except ValueError:  # arrays of different shapes
            array = np.empty(0, object)
        if array.dtype != object:
            flat[key] = array
        elif isinstance(value, (tuple, list)):  # mixed kinds (numbers and strings, ...)
            for i, v in enumerate(value):
                put(f"{key}.{i}", v)
        else:
            flat[key] = np.asarray(repr(value))

    for name, value in outputs.items():
        put(name, value)
    return flat


def recorded(module):
    path = DATA / f"{module}.npz"
    with np.load(path) as data:
        return dict(data)


def check(module, program, outputs, mode=None, rtol=1e-5, atol=1e-6, skip=(), values_only=(),
          only=None):
    """``outputs`` equal what MindSpore 2.10 gave for ``program`` (``mode``): same keys,
    shapes, dtypes; numbers within ``rtol``/``atol``. ``skip``: keys not compared;
    ``values_only``: keys whose dtype differs (a documented difference), values compared;
    ``only``: compare the outputs named ``only`` (and ``only.0``, ...) alone."""
    prefix = f"{program}[{mode}]/" if mode else f"{program}/"
    expected = {k[len(prefix):]: v for k, v in recorded(module).items() if k.startswith(prefix)}
    got = flatten(outputs)
    if only is not None:
        def mine(key):
            return key == only or key.startswith(only + ".")
        expected = {k: v for k, v in expected.items() if mine(k)}
        got = {k: v for k, v in got.items() if mine(k)}
    assert expected, f"nothing recorded for {prefix} in data/{module}.npz"
    assert sorted(got) == sorted(expected), (sorted(got), sorted(expected))
    for key, want in expected.items():
        if key in skip:
            continue
        have = got[key]
        assert have.shape == want.shape, (key, have.shape, want.shape)
        if want.dtype.kind in "US":
            assert have.tolist() == want.tolist(), (key, have, want)
            continue
        if key not in values_only:
            assert have.dtype == want.dtype, (key, have.dtype, want.dtype)
        if want.dtype.kind == "f":
            np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=key)
        else:
            np.testing.assert_array_equal(have, want, err_msg=key)


def fake_mnist(n_train=96, n_test=32):
    """A small synthetic MNIST in the IDX format (the tutorials download the real one), in a
    fresh temporary folder: ``<root>/train`` and ``<root>/test``."""
    import tempfile
    from test_quickstart import _fake_mnist  # ms/tests: the quickstart test's writer
    root = Path(tempfile.mkdtemp()) / "MNIST_Data"
    return str(_fake_mnist(root, n_train=n_train, n_test=n_test))


def mnist_pipe(path, batch_size, drop_remainder=False):
    """The tutorials' ``datapipe`` (MnistDataset + Rescale/Normalize/HWC2CHW + TypeCast +
    batch), reading in order: MindSpore and the facade shuffle differently."""
    from sporeling.ms.dataset import MnistDataset, transforms, vision
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW()
    ]
    label_transform = transforms.TypeCast(mindspore.int32)
    dataset = MnistDataset(path, shuffle=False)
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    return dataset.batch(batch_size, drop_remainder=drop_remainder)


def step_losses(out, key):
    """A callback (not the tutorials'): appends each training step's loss to ``out[key]``."""
    out.setdefault(key, [])

    class StepLosses(mindspore.train.Callback):
        def on_train_step_end(self, run_context):
            out[key].append(run_context.original_args().net_outputs.asnumpy())

    return StepLosses()


def outcome(fn, *args):
    """``fn(*args)``, or ``"raised"`` where it raises (the tutorials show some errors; the
    frameworks' exception classes differ)."""
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 - the error itself is the outcome
        return "raised"


def values(namespace):
    """The values a snippet left in ``namespace`` (its ``locals()``), comparable across the
    frameworks: tensors and arrays as they are, numbers, strings, containers of them (dicts
    as sorted ``[key, value]`` pairs, other iterables as lists), types by name; modules,
    functions, classes and cells (callables) left out."""
    import types as pytypes

    def norm(v):
        if hasattr(v, "asnumpy") or isinstance(v, (np.ndarray, np.generic, bool, int, float,
                                                   str)):
            return v
        if v is None:
            return "None"
        if isinstance(v, type):
            return v.__name__
        if isinstance(v, dict):
            return [[repr(k), norm(x)] for k, x in sorted(v.items(), key=lambda kv: repr(kv[0]))]
        if isinstance(v, (tuple, list, range, map, zip, filter, enumerate, pytypes.GeneratorType)):
            return [norm(x) for x in v]
        return type(v).__name__

    return {k: norm(v) for k, v in namespace.items()
            if k.isidentifier() and not k.startswith("_") and not callable(v)
            and not isinstance(v, pytypes.ModuleType)}  # (pytest's assert rewriting adds @py_*)
