"""The top level of ``sporeling.ms``: dtype objects, Tensor, context, jit/grad, checkpoints,
communication, dataset config, amp managers and ``ms.train.Model``."""
import pickle

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import ContextError, DTypeError, SporelingError
from sporeling.ms import communication, nn


@pytest.mark.parametrize("dtype, name, np_dtype", [
    (ms.float32, "Float32", np.float32), (ms.float16, "Float16", np.float16),
    (ms.float64, "Float64", np.float64), (ms.int32, "Int32", np.int32),
    (ms.int64, "Int64", np.int64), (ms.int8, "Int8", np.int8), (ms.uint8, "UInt8", np.uint8),
    (ms.bool_, "Bool", np.bool_), (ms.bfloat16, "BFloat16", None)])
def test_dtype_objects_print_like_mindspore_and_carry_numpy(dtype, name, np_dtype):
    assert str(dtype) == repr(dtype) == name
    if np_dtype is not None:
        assert dtype.np_dtype == np.dtype(np_dtype)
        assert dtype == np.dtype(np_dtype) and np.dtype(np_dtype) == dtype
        assert np.zeros(2, dtype=dtype).dtype == np_dtype
    assert pickle.loads(pickle.dumps(dtype)) == dtype


def test_dtype_module_aliases_and_conversions():
    assert ms.mstype is ms.dtype and ms.dtype.float32 is ms.float32
    assert ms.half is ms.float16 and ms.double is ms.float64 and ms.single is ms.float32
    assert ms.dtype_to_nptype(ms.int16) is np.int16
    assert ms.dtype_to_pytype(ms.float16) is float and ms.dtype_to_pytype(ms.bool_) is bool
    assert ms.pytype_to_dtype(int) is ms.int64 and ms.pytype_to_dtype(np.float16) is ms.float16
    assert ms.common.to_numpy(ms.int8) == np.int8 and ms.common.to_numpy(None) is None
    with pytest.raises(DTypeError, match="complex32"):
        ms.common.to_numpy("complex32")
    with pytest.raises(DTypeError, match="pytype_to_dtype"):
        ms.pytype_to_dtype(dict)


def test_tensor_takes_facade_dtypes_everywhere():
    x = ms.Tensor([1.5, 2.5], ms.float16)
    assert x.dtype == ms.float16
    assert x.astype(ms.int32).dtype == ms.int32
    p = ms.Parameter(ms.Tensor(np.ones(3), ms.float32), name="p")
    assert p.dtype == ms.float32 and ms.is_tensor(p) and not ms.is_tensor(np.ones(1))
    assert "Float32" in repr(ms.Tensor([1.0], ms.float32))


def test_set_context_passes_known_keys_and_accepts_mindspore_only_ones():
    before = ms.get_context("mode")
    try:
        ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU", pynative_synchronize=True)
        assert ms.get_context("mode") == ms.GRAPH_MODE == 0
        assert ms.get_context("pynative_synchronize") is True
        assert ms.context.GRAPH_MODE == ms.GRAPH_MODE
    finally:
        ms.set_context(mode=before)
    with pytest.raises(ContextError, match="no_such_key"):
        ms.set_context(no_such_key=1)


def test_auto_parallel_context_roundtrip_without_sporeling_parallel(monkeypatch):
    """The facade's own bookkeeping; with sporeling.parallel: tests/test_ms_with_parallel.py."""
    import sys
    monkeypatch.setitem(sys.modules, "sporeling.parallel", None)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    try:
        assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    finally:
        ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    with pytest.raises(Exception, match="everything"):
        ms.set_auto_parallel_context(parallel_mode="everything")


def test_value_and_grad_and_jit_follow_mindspore():
    w = ms.Parameter(ms.Tensor(np.array([2.0, -1.0], np.float32)), name="w")

    def f(x):
        return (x * w).sum()

    x = ms.Tensor(np.array([3.0, 4.0], np.float32))
    value, (gx, gw) = ms.value_and_grad(f, 0, [w])(x)
    assert float(value) == 2.0
    np.testing.assert_allclose(gx.asnumpy(), [2.0, -1.0])
    np.testing.assert_allclose(gw[0].asnumpy() if isinstance(gw, tuple) else gw.asnumpy(),
                               [3.0, 4.0])
    np.testing.assert_allclose(ms.grad(lambda x: (x * x).sum())(x).asnumpy(), [6.0, 8.0])
    jitted = ms.jit(lambda x: x * 2.0 + 1.0)
    np.testing.assert_allclose(jitted(x).asnumpy(), [7.0, 9.0])
    assert ms.jit_class(int) is int


def test_checkpoint_roundtrip_returns_mindspore_pair(tmp_path):
    ms.set_seed(1)
    net = nn.Dense(3, 2)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    other = nn.Dense(3, 2)
    params = ms.load_checkpoint(path)
    not_loaded, unused = ms.load_param_into_net(other, params)
    assert not_loaded == [] and unused == []
    np.testing.assert_array_equal(other.weight.asnumpy(), net.weight.asnumpy())


@pytest.fixture
def without_parallel(monkeypatch):
    """The facade's own single-process implementation (as when sporeling-parallel is not
    installed)."""
    import sys
    monkeypatch.setitem(sys.modules, "sporeling.parallel", None)


def test_communication_single_process(without_parallel):
    communication.init()
    try:
        assert communication.get_rank() == 0 and communication.get_group_size() == 1
        assert communication.get_local_rank() == 0
        assert communication.GlobalComm.INITED
        communication.create_group("pair", [0])
        assert communication.get_group_size("pair") == 1
        assert communication.get_world_rank_from_group_rank("pair", 0) == 0
        assert communication.get_group_rank_from_world_rank(0, "pair") == 0
        with pytest.raises(SporelingError, match="group exists"):
            communication.create_group("pair", [0])
        with pytest.raises(SporelingError, match="rank_ids"):
            communication.create_group("big", [0, 1])
        with pytest.raises(SporelingError, match="unknown group"):
            communication.get_rank("nope")
        communication.destroy_group("pair")
        with pytest.raises(SporelingError, match="unknown group"):
            communication.get_group_size("pair")
    finally:
        communication.release()
    with pytest.raises(SporelingError, match="init"):
        communication.get_rank()
    with pytest.raises(SporelingError, match="backend"):
        communication.init("gloo")


def test_communication_delegates_to_a_module_that_implements_it(monkeypatch):
    import sys
    import types
    fake = types.ModuleType("sporeling.parallel")
    fake.get_rank = lambda group=None: 3
    monkeypatch.setitem(sys.modules, "sporeling.parallel", fake)
    assert communication.get_rank() == 3
    communication.init()          # fake has no init: the facade's own bookkeeping
    try:
        assert communication.get_group_size() == 1
    finally:
        communication.release()


def test_dataset_config_seed_reproduces_the_pipeline_order():
    def order():
        ms.dataset.config.set_seed(5)
        ds = ms.dataset.NumpySlicesDataset(np.arange(20), shuffle=True)
        return [int(row[0]) for row in ds.create_tuple_iterator(output_numpy=True)] \
            if _takes_output_numpy(ds) else [int(np.asarray(row[0])) for row in ds]

    first = order()
    assert first == order() and sorted(first) == list(range(20)) and first != list(range(20))
    assert ms.dataset.config.get_seed() == 5
    with pytest.raises(SporelingError, match="seed"):
        ms.dataset.config.set_seed(-1)


def _takes_output_numpy(ds):
    import inspect
    return "output_numpy" in inspect.signature(ds.create_tuple_iterator).parameters


def test_dataset_transforms_under_mindspore_names():
    from sporeling.ms.dataset import transforms, vision
    assert transforms.TypeCast(ms.int32)(np.array([1.7])).dtype == np.int32
    np.testing.assert_array_equal(transforms.OneHot(3)(np.array(1)), [0, 1, 0])
    np.testing.assert_array_equal(transforms.Fill(7)(np.zeros(2, np.int64)), [7, 7])
    a, b = transforms.Duplicate()(np.array([1, 2]))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        transforms.Concatenate(0, np.array([0]), np.array([9]))(np.array([5])), [0, 5, 9])
    img = np.full((2, 2, 1), 255, np.uint8)
    out = vision.HWC2CHW()(vision.Rescale(1.0 / 255.0, 0.0)(img))
    assert out.shape == (1, 2, 2) and np.allclose(out, 1.0)


def test_amp_loss_scale_managers():
    fixed = ms.amp.FixedLossScaleManager(128.0, drop_overflow_update=False)
    assert fixed.get_loss_scale() == 128.0 and fixed.get_update_cell() is None
    dynamic = ms.amp.DynamicLossScaleManager(2 ** 10, 2, 50)
    cell = dynamic.get_update_cell()
    assert isinstance(cell, nn.DynamicLossScaleUpdateCell) and cell.get_loss_scale() == 1024
    net = ms.amp.auto_mixed_precision(nn.Dense(4, 2), "O2", dtype=ms.float16)
    out = net(ms.Tensor(np.ones((1, 4)), ms.float32))
    assert out.dtype == ms.float32               # O2 casts the output back
    assert not bool(ms.amp.all_finite([ms.Tensor([1.0, np.inf])]).asnumpy())
    scaler = ms.amp.DynamicLossScaler(1024, 2, 1000)
    assert scaler.scale_value == 1024.0


def test_model_trains_with_mindspore_arguments():
    ms.set_seed(0)
    x = np.random.default_rng(0).normal(size=(32, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32)).astype(np.float32)
    ds = ms.dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8)
    net = nn.Dense(4, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05),
                     metrics={"mae": ms.train.MAE()}, amp_level="O0")
    before = model.eval(ds)["mae"]
    model.train(5, ds, callbacks=[ms.LossMonitor(100)])
    assert model.eval(ds)["mae"] < before
    with pytest.raises(SporelingError, match="boost_level"):
        ms.Model(net, boost_level="O1")


def test_sporeling_cells_take_facade_dtypes():
    assert nn.Dense(2, 2, dtype=ms.float64).weight.dtype == ms.float64
    assert nn.Conv2d(1, 1, 3, dtype=ms.float16).weight.dtype == ms.float16
    assert nn.Embedding(4, 2, dtype=ms.int32)(ms.Tensor([1, 2], ms.int32)).shape == (2, 2)


def test_eager_only_refuses_graph_mode_tracing():
    from sporeling.ms.common import EagerOnlyError, eager_only

    @eager_only("ops.demo_special")
    def demo(x):
        return ms.Tensor(np.sinc(x.asnumpy()))

    x = ms.Tensor(np.array([0.5], np.float32))
    np.testing.assert_allclose(demo(x).asnumpy(), np.sinc(0.5), rtol=1e-6)
    assert demo.__ms_eager_only__ and demo.__name__ == "demo"
    with pytest.raises(EagerOnlyError, match="ops.demo_special has no Graph-mode/gradient"):
        ms.jit(lambda x: demo(x) * 2.0)(x)
    with pytest.raises(EagerOnlyError, match="silently lost"):
        ms.grad(lambda x: (demo(x) * x).sum())(x)
    # an input grad does not differentiate is fine (a constant inside the loss)
    const = ms.Tensor(np.array([0.25], np.float32))
    np.testing.assert_allclose(ms.grad(lambda x: (demo(const) * x).sum())(x).asnumpy(),
                               np.sinc(0.25), rtol=1e-6)


def test_common_initializer_as_mindspore_scripts_import_it():
    from sporeling.ms.common.initializer import Normal, One, XavierUniform, initializer
    ms.set_seed(0)
    w = initializer(Normal(0.02), (200, 50), ms.float32)
    assert w.dtype == ms.float32 and abs(float(w.asnumpy().std()) - 0.02) < 0.002
    np.testing.assert_array_equal(initializer(One(), (2, 2), ms.float16).asnumpy(),
                                  np.ones((2, 2), np.float16))
    dense = nn.Dense(4, 3, weight_init=XavierUniform())
    bound = np.sqrt(6 / (4 + 3))
    assert np.abs(dense.weight.asnumpy()).max() <= bound


def test_model_train_with_checkpoint_callbacks_and_accuracy(tmp_path):
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    data = rng.normal(size=(64, 2)).astype(np.float32)
    labels = (data[:, 0] + data[:, 1] > 0).astype(np.int32)

    class Source:                       # MindSpore's random-access GeneratorDataset source
        def __getitem__(self, i):
            return data[i], labels[i]

        def __len__(self):
            return len(data)

    ds = ms.dataset.GeneratorDataset(Source(), ["data", "label"], shuffle=False).batch(16)
    net = nn.SequentialCell(nn.Dense(2, 8), nn.ReLU(), nn.Dense(8, 2))
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9),
                     metrics={"acc": ms.train.Accuracy()})
    config = ms.CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=2)
    ckpt = ms.ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    model.train(6, ds, callbacks=[ckpt, ms.TimeMonitor(), ms.LossMonitor(8)])
    assert model.eval(ds)["acc"] > 0.9
    # MindSpore's files: net-<epoch>_<step>.ckpt
    saved = sorted(p.name for p in tmp_path.glob("net-*.ckpt"))
    assert 1 <= len(saved) <= 2, saved
    restored = nn.SequentialCell(nn.Dense(2, 8), nn.ReLU(), nn.Dense(8, 2))
    not_loaded, _ = ms.load_param_into_net(restored, ms.load_checkpoint(str(tmp_path /
                                                                            saved[-1])))
    assert not_loaded == []


def test_mindspore_source_style_imports():
    from sporeling.ms.common import Parameter, Tensor
    from sporeling.ms.common import dtype as mstype
    from sporeling.ms.common.parameter import ParameterTuple
    from sporeling.ms.common.tensor import Tensor as Tensor2
    assert Tensor is Tensor2 is ms.Tensor and Parameter is ms.Parameter
    assert mstype.float32 is ms.float32 and ParameterTuple is ms.ParameterTuple
    from sporeling.ms.train.callback import LossMonitor
    from sporeling.ms.train.metrics import Accuracy
    assert LossMonitor is ms.LossMonitor and Accuracy is ms.train.Accuracy
    acc = Accuracy()
    acc.update(ms.Tensor(np.array([[0.1, 0.9], [0.8, 0.2]], np.float32)), ms.Tensor([1, 1]))
    assert acc.eval() == 0.5


def test_dataset_pipeline_operations_keep_the_tensor_contract():
    def gen():
        for i in range(5):
            yield np.array([i], np.float32), np.array(i % 2)

    ds = ms.dataset.GeneratorDataset(gen, ["x", "y"], shuffle=False).batch(2)
    rows = list(ds.create_tuple_iterator())
    assert [tuple(r[0].shape) for r in rows] == [(2, 1), (2, 1), (1, 1)]
    assert all(isinstance(c, ms.Tensor) for r in rows for c in r)
    assert ds.get_dataset_size() == 3 and isinstance(ds, ms.dataset.Dataset)
    row = next(ds.create_dict_iterator(num_epochs=1))
    assert sorted(row) == ["x", "y"] and isinstance(row["x"], ms.Tensor)
    first, second = ms.dataset.NumpySlicesDataset({"a": np.arange(6)}, shuffle=False).split(
        [0.5, 0.5], randomize=False)
    assert [int(r[0].asnumpy()) for r in first] == [0, 1, 2]
    zipped = ms.dataset.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False).zip(
        ms.dataset.NumpySlicesDataset({"b": np.arange(3) * 10}, shuffle=False))
    assert [(int(a.asnumpy()), int(b.asnumpy())) for a, b in zipped] == [(0, 0), (1, 10),
                                                                          (2, 20)]
    texts = ms.dataset.NumpySlicesDataset({"t": np.array(["ab", "cd"])}, shuffle=False)
    assert isinstance(next(iter(texts))[0], np.ndarray)        # strings stay NumPy
