"""``sporeling.ms``'s MindSpore 2.10 top-level helpers: random state, dtype aliases,
graph-compiler hints, ``frombuffer``, the host-device functions and the re-exported
``mindspore.train`` names."""
import numpy as np
import pytest

import sporeling.ms as ms


def test_random_state_round_trips_and_seeds():
    ms.manual_seed(5)
    assert ms.initial_seed() == 5 and ms.get_seed() == 5
    state = ms.get_rng_state()
    first = ms.ops.rand(3).asnumpy()
    ms.set_rng_state(state)
    assert np.array_equal(ms.ops.rand(3).asnumpy(), first)
    drawn = ms.seed()
    assert ms.initial_seed() == drawn
    gen = ms.Generator().manual_seed(9)
    assert gen.initial_seed() == 9 and ms.initial_seed() == drawn  # its own state
    assert ms.default_generator.manual_seed(3) is ms.default_generator
    assert ms.get_seed() == 3
    with pytest.raises(ValueError):
        ms.manual_seed(-1)


def test_dtype_aliases():
    assert ms.byte is ms.int8 and ms.ubyte is ms.uint8 and ms.short is ms.int16
    assert ms.intc is ms.int32 and ms.intp is ms.int64 and ms.long is ms.int64
    assert ms.mstype.long is ms.int64 and isinstance(ms.float32, ms.Type)


def test_graph_hints_validate_and_pass_values_through():
    t = ms.Tensor(np.ones(2, np.float32))
    assert ms.mutable(t) is t and ms.mutable((1, [t])) == (1, [t])
    with pytest.raises(TypeError):
        ms.mutable("text")
    sym = ms.Symbol(max=16, min=2, divisor=4, remainder=1)
    assert [sym.fits(n) for n in (1, 5, 9, 17, 6)] == [False, True, True, False, False]
    with pytest.raises(ValueError):
        ms.Symbol(divisor=2, remainder=2)

    def f(x):
        return x * 2
    assert ms.lazy_inline(f) is f and ms.no_inline(f) is f
    assert ms.enable_dynamic(x=ms.Tensor(np.ones(1)))(f) is f
    assert np.array_equal(ms.recompute(f, t).asnumpy(), [2, 2])
    assert ms.LAX > ms.COMPATIBLE > ms.STRICT


def test_frombuffer_reads_the_bytes():
    raw = np.arange(6, dtype=np.int32).tobytes()
    out = ms.frombuffer(raw, ms.int32, count=3, offset=4)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [1, 2, 3]


def test_host_device_functions(capsys, monkeypatch):
    ms.run_check()
    assert "successfully" in capsys.readouterr().out
    assert ms.synchronize() is None
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    ms.set_deterministic(False)
    ms.set_device("CPU")
    assert ms.get_context("device_target") == "CPU"
    monkeypatch.setenv("GLOG_v", "1")
    assert ms.get_level() == "1" and ms.get_log_config()["GLOG_v"] == "1"


def test_train_names_are_at_the_top_level():
    for name in ("Accuracy", "ROC", "auc", "LambdaCallback", "ReduceLROnPlateau",
                 "FixedLossScaleManager", "DatasetHelper", "data_sink", "rearrange_inputs"):
        assert getattr(ms, name) is getattr(ms.train, name), name
        assert name in ms.__all__
    coo = ms.COOTensor(np.array([[0, 1]]), np.array([2.0], np.float32), (2, 2))
    assert coo.to_dense().asnumpy().tolist() == [[0, 2], [0, 0]]
