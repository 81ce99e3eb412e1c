"""Checkpoints: safetensors round trip, atomic writes, strict loading, bad files."""
import os

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import serialization as ser
from sporeling.expression.serialization import (CheckpointError, load_checkpoint,
                                                load_param_into_net, save_checkpoint)


class Holder:
    """The part of a Cell checkpoints use: parameters_and_names()."""

    def __init__(self, **params):
        self.params = {n: sx.Parameter(v, name=n) for n, v in params.items()}

    def parameters_and_names(self):
        return list(self.params.items())


def _net():
    return Holder(**{"fc.weight": np.arange(6, dtype=np.float32).reshape(2, 3),
                     "fc.bias": np.zeros(2, np.float32)})


def test_round_trip_dtypes_and_append_dict(tmp_path):
    values = {"f32": np.arange(4, dtype=np.float32).reshape(2, 2),
              "bf16": np.array([1.5, -2.25, 3.0], sx.bfloat16),
              "f16": np.array([0.5], np.float16), "i64": np.array([1, 2]),
              "mask": np.array([True, False])}
    params = [sx.Parameter(v, name=n) for n, v in values.items()]
    path = str(tmp_path / "model")
    save_checkpoint(params, path, append_dict={"epoch_num": 7, "lr": 0.5, "tag": "best",
                                               "extra": sx.Tensor(np.ones(2, np.float32))})
    assert os.path.exists(path + ".safetensors")
    loaded = load_checkpoint(path + ".safetensors")
    for n, v in values.items():
        got = loaded[n]
        assert isinstance(got, sx.Parameter) and got.name == n
        assert got.dtype == v.dtype
        np.testing.assert_array_equal(got.asnumpy(), v)
    assert int(loaded["epoch_num"]) == 7 and loaded["tag"] == "best"
    assert float(loaded["lr"]) == 0.5


def test_file_is_standard_safetensors(tmp_path):
    from safetensors.numpy import load_file
    path = str(tmp_path / "x.safetensors")
    save_checkpoint({"a": np.ones(3, np.float32)}, path)
    np.testing.assert_array_equal(load_file(path)["a"], np.ones(3, np.float32))


def test_filters_on_load(tmp_path):
    path = str(tmp_path / "m.safetensors")
    save_checkpoint(_net(), path)
    assert list(load_checkpoint(path, filter_prefix="fc.b")) == ["fc.weight"]
    assert list(load_checkpoint(path, specify_prefix=["fc.b"])) == ["fc.bias"]
    assert list(load_checkpoint(path, choice_func=lambda n: "w" in n)) == ["fc.weight"]


def test_load_into_net_keeps_identity(tmp_path):
    path = str(tmp_path / "m.safetensors")
    save_checkpoint(_net(), path)
    net = _net()
    w = net.params["fc.weight"]
    w.set_data(np.zeros((2, 3), np.float32))
    param_dict = load_checkpoint(path, net=net)
    assert net.params["fc.weight"] is w
    np.testing.assert_array_equal(w.asnumpy(), np.arange(6).reshape(2, 3))
    assert set(param_dict) == {"fc.weight", "fc.bias"}


def test_non_strict_reports_and_matches_suffix():
    net = Holder(**{"fc.weight": np.zeros(2, np.float32), "head.b": np.zeros(1, np.float32)})
    d = {"backbone.fc.weight": sx.Parameter(np.ones(2, np.float64)),
         "other": sx.Parameter(np.ones(1))}
    with pytest.warns(ser.CheckpointWarning, match="head.b"):
        not_loaded, unused = load_param_into_net(net, d)
    assert not_loaded == ["head.b"] and unused == ["other"]
    np.testing.assert_array_equal(net.params["fc.weight"].asnumpy(), [1, 1])
    assert net.params["fc.weight"].dtype == np.float32  # cast, non-strict


def test_strict_names_every_problem_and_changes_nothing():
    net = Holder(**{"a": np.zeros(2, np.float32), "b": np.zeros(2, np.float32),
                    "c": np.zeros(3, np.float32), "d": np.zeros(1, np.float32)})
    d = {"a": np.ones(2, np.float32), "c": np.ones(4, np.float32),
         "d": np.ones(1, np.float64), "zz": np.ones(1)}
    with pytest.raises(CheckpointError) as info:
        load_param_into_net(net, d, strict_load=True)
    text = str(info.value)
    for piece in ("missing from the checkpoint: b", "unexpected in the checkpoint: zz",
                  "c (net (3,), checkpoint 'c' (4,))", "dtype mismatch: d"):
        assert piece in text
    np.testing.assert_array_equal(net.params["a"].asnumpy(), [0, 0])  # nothing loaded


def test_shape_mismatch_is_an_error_even_when_not_strict():
    net = Holder(w=np.zeros(3, np.float32))
    with pytest.raises(CheckpointError, match="shape mismatch"):
        load_param_into_net(net, {"w": np.ones(2, np.float32)})


def test_atomic_write_survives_a_crash(tmp_path, monkeypatch):
    path = str(tmp_path / "m.safetensors")
    save_checkpoint(_net(), path)
    before = open(path, "rb").read()

    def crash_before_the_rename(fd):  # the new file is written in full, not yet in place
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "fsync", crash_before_the_rename)
    net = _net()
    net.params["fc.weight"].set_data(np.full((2, 3), 9.0, np.float32))
    with pytest.raises(OSError, match="disk on fire"):
        save_checkpoint(net, path)
    assert open(path, "rb").read() == before
    assert os.listdir(tmp_path) == ["m.safetensors"]  # no temporary left behind
    monkeypatch.undo()
    save_checkpoint(net, path)
    assert load_checkpoint(path)["fc.weight"].asnumpy()[0, 0] == 9.0


def test_atomic_write_fsyncs_file_and_directory(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    ser.atomic_write(str(tmp_path / "f"), lambda tmp: open(tmp, "wb").write(b"x"))
    assert len(synced) == 2 and open(tmp_path / "f", "rb").read() == b"x"


def test_truncated_and_foreign_files_name_the_file(tmp_path):
    path = str(tmp_path / "m.safetensors")
    save_checkpoint(_net(), path)
    data = open(path, "rb").read()
    bad = tmp_path / "cut.safetensors"
    bad.write_bytes(data[:-5])
    with pytest.raises(CheckpointError, match="cut.safetensors"):
        load_checkpoint(str(bad))
    pickle_like = tmp_path / "old.ckpt"
    pickle_like.write_bytes(b"\x80\x04\x95 not a safetensors file at all")
    with pytest.raises(CheckpointError, match="old.ckpt"):
        load_checkpoint(str(pickle_like))
    with pytest.raises(FileNotFoundError, match="nope"):
        load_checkpoint(str(tmp_path / "nope.safetensors"))


def test_save_errors(tmp_path):
    with pytest.raises(CheckpointError, match="two values are named 'a'"):
        save_checkpoint({"a": np.ones(1)}, str(tmp_path / "x"), append_dict={"a": 1})
    with pytest.raises(TypeError, match="expected a Cell"):
        save_checkpoint(42, str(tmp_path / "x"))
