"""MindSpore's ``.ckpt`` format in ``sporeling.ms``: files written by real MindSpore 2.10
(``data/``, made by ``data/make_ckpt_fixtures.py``) load with MindSpore's values and
reproduce its outputs; ours are byte-identical to MindSpore's for the same values once the
checksum field Sporeling adds to each record is taken out; damaged files are
``CheckpointError``s; safetensors still works; the conversion functions.

Set ``SPORELING_MINDSPORE_PYTHON`` to a Python with MindSpore 2.10 to also check the other
way round: files written here load in real MindSpore and reproduce our outputs.
"""
import json
import os
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import descriptor_pb2

import sporeling.ms as ms
from sporeling.expression.serialization import CheckpointError, CheckpointWarning
from sporeling.ms import nn
from sporeling.ms.train import _ckpt_format as fmt

DATA = Path(__file__).parent / "data"
ORACLE = os.environ.get("SPORELING_MINDSPORE_PYTHON")
LENET_NAMES = ["conv1.weight", "conv1.bias", "bn1.gamma", "bn1.beta", "bn1.moving_mean",
               "bn1.moving_variance", "fc.weight", "fc.bias"]


class LeNet(nn.Cell):
    """make_ckpt_fixtures.py's LeNet, in sporeling.ms."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(36, 10)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.bn1(self.conv1(x))))))


@pytest.fixture(scope="module")
def io():
    with np.load(DATA / "lenet_io.npz", allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def _record(name, dims, type_name, content):
    return fmt._record(name, dims, type_name, content)


def _load_bytes(tmp_path, data, name="x.ckpt", **kwargs):
    path = tmp_path / name
    path.write_bytes(data)
    return ms.load_checkpoint(str(path), **kwargs)


# ------------------------------------------------------------------ the format itself

def _normalised(messages):
    out = {}
    for m in messages:
        fields = sorted((f.name, f.number, f.label, f.type, f.type_name,
                         f.oneof_index if f.HasField("oneof_index") else None)
                        for f in m.field)
        out[m.name] = (fields, [o.name for o in m.oneof_decl], _normalised(m.nested_type))
    return out


def test_descriptor_is_mindspores():
    theirs = descriptor_pb2.FileDescriptorProto.FromString(
        (DATA / "checkpoint_descriptor.pb").read_bytes())
    assert theirs.package == "" and theirs.syntax in ("", "proto2")
    assert _normalised(fmt.descriptor().message_type) == _normalised(theirs.message_type)


def test_type_names_are_mindspores():
    assert fmt.tensor_type_name(np.float32) == "Float32"
    assert fmt.tensor_type_name(ms.bfloat16.np_dtype) == "BFloat16"
    assert fmt.tensor_type_name(np.dtype(">f4")) == "Float32"
    assert fmt.tensor_type_name(np.bool_) == "Bool"
    assert fmt.tensor_type_name(np.complex64) is None


# ------------------------------------------------------------------ MindSpore's files

@pytest.mark.parametrize("name", ["lenet.ckpt", "lenet_crc.ckpt", "lenet.safetensors"])
def test_mindspore_lenet_loads_and_reproduces_its_outputs(name, io):
    params = ms.load_checkpoint(str(DATA / name))
    assert sorted(params) == sorted(LENET_NAMES)
    for key in LENET_NAMES:
        assert params[key].name == key
        np.testing.assert_array_equal(params[key].asnumpy(), io[key.replace(".", "__")])
    net = LeNet()
    assert ms.load_param_into_net(net, params, strict_load=True) == ([], [])
    net.set_train(False)
    y = net(ms.Tensor(io["x"])).asnumpy()
    np.testing.assert_allclose(y, io["y"], rtol=1e-5, atol=1e-5)


def test_mindspore_lenet_loads_through_net_argument(io):
    net = LeNet()
    ms.load_checkpoint(str(DATA / "lenet.ckpt"), net=net, strict_load=True)
    net.set_train(False)
    np.testing.assert_allclose(net(ms.Tensor(io["x"])).asnumpy(), io["y"], rtol=1e-5,
                               atol=1e-5)


def test_mindspore_dtypes_load_as_mindspore_loads_them():
    expected = json.loads((DATA / "dtypes.json").read_text())
    params = ms.load_checkpoint(str(DATA / "dtypes.ckpt"))
    assert list(params) == list(expected)
    for name, want in expected.items():
        got = params[name]
        if "str" in want:
            assert got == want["str"]
            continue
        array = got.asnumpy()
        assert fmt.tensor_type_name(array.dtype) == want["dtype"], name
        assert list(array.shape) == want["shape"], name
        np.testing.assert_array_equal(array.astype(np.float64),
                                      np.array(want["values"], np.float64), err_msg=name)
    assert params["epoch_num"].asnumpy().dtype == np.int64
    assert params["lr"].asnumpy().dtype == np.float32
    assert params["done"].asnumpy().dtype == np.bool_ and params["done"].shape == ()
    assert params["note"] == "LeNet ü 1"


def _without_checksums(data):
    """A file written here as MindSpore writes it: every record without its checksum field
    (which each must have), the crc_check trailer computed again."""
    trailer = data[-17:-10] == fmt.CRC_MARK
    if trailer:
        data = data[:-17]
    out = b""
    for record in _records(data):
        start = fmt._varint(record, 1, len(record))[1]
        body = record[start:]
        assert body[-6:-4] == fmt._CHECKSUM_TAG
        body = body[:-6]
        out += b"\n" + fmt._varint_bytes(len(body)) + body
    if trailer:
        out += fmt.CRC_MARK + zlib.crc32(out).to_bytes(10, "big")
    return out


@pytest.mark.parametrize("name", ["lenet.ckpt", "lenet_crc.ckpt", "dtypes.ckpt"])
def test_resaving_mindspores_file_is_byte_identical(name, tmp_path):
    """The same entries, saved by sporeling.ms, give MindSpore's very bytes (plus the
    records' checksums)."""
    params = ms.load_checkpoint(str(DATA / name))
    out = tmp_path / "again.ckpt"
    ms.save_checkpoint(params, str(out), crc_check=name == "lenet_crc.ckpt")
    assert _without_checksums(out.read_bytes()) == (DATA / name).read_bytes()


def test_saving_a_net_is_byte_identical_to_mindspore(io, tmp_path):
    net = LeNet()
    for _, p in net.parameters_and_names():
        p.set_data(io[p.name.replace(".", "__")])
    out = tmp_path / "lenet.ckpt"
    ms.save_checkpoint(net, str(out))
    # the same records; their order is the nets' parameter order, which differs (MindSpore's
    # BatchNorm2d lists moving_mean, moving_variance before gamma, beta)
    ours = _without_checksums(out.read_bytes())
    assert sorted(_records(ours)) == sorted(_records(_lenet_bytes()))


def _records(data):
    starts = _record_starts(data) + [len(data)]
    return [data[a:b] for a, b in zip(starts, starts[1:])]


# ------------------------------------------------------------------ round trips

ROUND_TRIP = {
    "f32": np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3),
    "f16": np.array([0.5, -2.0, 65504.0], np.float16),
    "f64": np.array([[np.pi]], np.float64),
    "bf16": np.array([1.0, -0.5, 3.0], np.float32).astype(ms.bfloat16.np_dtype),
    "i8": np.array([-128, 127], np.int8), "u8": np.array([0, 255], np.uint8),
    "i16": np.array([-7], np.int16), "i32": np.arange(12, dtype=np.int32).reshape(2, 2, 3),
    "i64": np.array([-(2 ** 63), 2 ** 63 - 1], np.int64),
    "b": np.array([True, False, True]),
    "scalar": np.array(-3.25, np.float32),
    "empty": np.zeros((0, 4), np.float32),
    "big_endian": np.arange(3, dtype=">i4"),
}


@pytest.mark.parametrize("crc_check", [False, True])
def test_round_trip_every_dtype(tmp_path, crc_check):
    path = tmp_path / "all"
    ms.save_checkpoint(dict(ROUND_TRIP), str(path), crc_check=crc_check,
                       append_dict={"epoch": 5, "loss": 0.25, "ok": False, "tag": "λ-run",
                                    "empty_text": ""})
    assert (tmp_path / "all.ckpt").exists() and not path.exists()
    params = ms.load_checkpoint(str(tmp_path / "all.ckpt"), crc_check=crc_check)
    assert list(params) == [*ROUND_TRIP, "epoch", "loss", "ok", "tag", "empty_text"]
    for name, want in ROUND_TRIP.items():
        got = params[name].asnumpy()
        assert got.dtype == want.dtype.newbyteorder("=") and got.shape == want.shape, name
        np.testing.assert_array_equal(got, want)
    assert params["epoch"].asnumpy().dtype == np.int64 and int(params["epoch"]) == 5
    assert params["loss"].asnumpy().dtype == np.float32
    assert params["ok"].asnumpy().dtype == np.bool_
    assert params["tag"] == "λ-run" and params["empty_text"] == ""


def test_unsigned_types_round_trip(tmp_path):
    """UInt16/32/64 are written, loaded into Parameters and converted."""
    wide = {"u16": np.array([65535], np.uint16), "u32": np.array([2 ** 32 - 1], np.uint32),
            "u64": np.array([2 ** 64 - 1], np.uint64), "w": np.ones(2, np.float32)}
    path = tmp_path / "u.ckpt"
    ms.save_checkpoint(wide, str(path))
    loaded = ms.load_checkpoint(str(path))
    for name, value in wide.items():
        assert loaded[name].asnumpy().dtype == value.dtype
        np.testing.assert_array_equal(loaded[name].asnumpy(), value)
    assert list(ms.load_checkpoint(str(path), choice_func=lambda n: n == "w")) == ["w"]
    ms.ckpt_to_safetensors(str(path))
    ms.safetensors_to_ckpt(str(tmp_path / "u.safetensors"), save_path=str(tmp_path / "back"))
    assert sorted(n for n, _ in fmt.read_ckpt(str(tmp_path / "back" / "u.ckpt"))) == \
        sorted(wide)
    for name, value in fmt.read_ckpt(str(tmp_path / "back" / "u.ckpt")):
        np.testing.assert_array_equal(value, wide[name])
        assert value.dtype == wide[name].dtype


def test_round_trip_net_and_list_and_choice_func(tmp_path):
    ms.set_seed(3)
    net = LeNet()
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path, choice_func=lambda n: not n.startswith("fc"),
                       append_dict={"epoch_num": 2})
    params = ms.load_checkpoint(path)
    assert list(params) == [n for n in LENET_NAMES if not n.startswith("fc")] + ["epoch_num"]
    ms.save_checkpoint(net.trainable_params(), path)
    names = list(ms.load_checkpoint(path))
    assert names == [p.name for p in net.trainable_params()]
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.ones(2, np.float32))}], path)
    assert list(ms.load_checkpoint(path)) == ["w"]


def test_suffixes_follow_mindspore(tmp_path):
    one = {"w": np.ones(2, np.float32)}
    ms.save_checkpoint(one, str(tmp_path / "a"))
    ms.save_checkpoint(one, str(tmp_path / "b.ckpt"))
    ms.save_checkpoint(one, str(tmp_path / "cckpt"))               # ends with "ckpt": kept
    ms.save_checkpoint(one, str(tmp_path / "d"), format="safetensors")
    ms.save_checkpoint(one, str(tmp_path / "e.ckpt"), format="safetensors")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "a.ckpt", "b.ckpt", "cckpt", "d.safetensors", "e.ckpt.safetensors"]
    with pytest.raises(ValueError, match="format"):
        ms.save_checkpoint(one, str(tmp_path / "f"), format="npz")
    with pytest.raises(IsADirectoryError):
        ms.save_checkpoint(one, str(tmp_path))


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint({"w": np.ones(3, np.float32)}, str(path))
    before = path.read_bytes()
    real = fmt._entry_records

    def failing(name, value, where=None):
        if name == "second":
            raise OSError("disk full")
        yield from real(name, value, where)

    monkeypatch.setattr(fmt, "_entry_records", failing)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint({"w": np.zeros(3, np.float32), "second": np.zeros(1)}, str(path))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.ckpt"]


def test_save_rejects_what_a_ckpt_cannot_hold(tmp_path):
    with pytest.raises(CheckpointError, match="complex64.*safetensors"):
        ms.save_checkpoint({"z": np.ones(2, np.complex64)}, str(tmp_path / "z"))
    with pytest.raises(CheckpointError, match="two values are named 'w'"):
        ms.save_checkpoint({"w": np.ones(1)}, str(tmp_path / "w"), append_dict={"w": 1})
    with pytest.raises(TypeError, match="append_dict"):
        ms.save_checkpoint({"w": np.ones(1)}, str(tmp_path / "w"), append_dict={"x": None})
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint("net", str(tmp_path / "w"))
    with pytest.raises(CheckpointError, match="enc_key"):
        ms.save_checkpoint({"w": np.ones(1)}, str(tmp_path / "w"), enc_key=b"0" * 16)
    assert not list(tmp_path.iterdir())


def test_large_parameter_is_sliced_as_mindspore_slices(tmp_path, monkeypatch):
    monkeypatch.setattr(fmt, "SLICE_BYTES", 16)
    w = np.arange(30, dtype=np.float32).reshape(5, 6)
    path = tmp_path / "s.ckpt"
    ms.save_checkpoint({"w": w, "b": np.ones(2, np.float32)}, str(path))
    data = path.read_bytes()
    assert data.count(b"\n\x01w") == 8  # 120 bytes in 16-byte slices, each with full dims
    params = ms.load_checkpoint(str(path))
    np.testing.assert_array_equal(params["w"].asnumpy(), w)
    np.testing.assert_array_equal(params["b"].asnumpy(), [1, 1])


def test_load_filters_as_mindspore(tmp_path):
    path = str(tmp_path / "f.ckpt")
    ms.save_checkpoint({"a.w": np.ones(1), "a.b": np.ones(1), "b.w": np.ones(1)}, path)
    assert list(ms.load_checkpoint(path, specify_prefix="a.")) == ["a.w", "a.b"]
    assert list(ms.load_checkpoint(path, filter_prefix=["a.w", "b"])) == ["a.b"]
    assert list(ms.load_checkpoint(path, choice_func=lambda n: n.endswith("w"))) == \
        ["a.w", "b.w"]
    # either prefix overrides choice_func, as in MindSpore
    assert list(ms.load_checkpoint(path, specify_prefix="b", choice_func=lambda n: False)) \
        == ["b.w"]
    with pytest.raises(CheckpointError, match="empty after filter"):
        ms.load_checkpoint(path, specify_prefix="z")
    with pytest.raises(CheckpointError, match="dec_key"):
        ms.load_checkpoint(path, dec_key=b"0" * 16)
    with pytest.raises(FileNotFoundError):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))


def test_load_param_into_net_reports_unloaded(tmp_path):
    path = str(tmp_path / "part.ckpt")
    ms.save_checkpoint(LeNet(), path, choice_func=lambda n: n.startswith("conv1"))
    with pytest.warns(CheckpointWarning, match="6 of 8"):
        not_loaded, unused = ms.load_param_into_net(LeNet(), ms.load_checkpoint(path))
    assert sorted(not_loaded) == sorted(n for n in LENET_NAMES if not n.startswith("conv1"))
    assert unused == []


# ------------------------------------------------------------------ safetensors, by content

def test_safetensors_still_works(tmp_path):
    net = LeNet()
    ms.save_checkpoint(net, str(tmp_path / "net"), format="safetensors",
                       append_dict={"epoch_num": 4, "note": "st"})
    path = tmp_path / "net.safetensors"
    assert path.read_bytes()[8:9] == b"{"
    params = ms.load_checkpoint(str(path), format="safetensors")
    assert set(params) == {*LENET_NAMES, "epoch_num", "note"} and params["note"] == "st"
    other = LeNet()
    ms.load_param_into_net(other, params, strict_load=False)
    for (_, a), (_, b) in zip(net.parameters_and_names(), other.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # sporeling.expression reads it too
    from sporeling.expression import load_checkpoint as sx_load
    assert set(sx_load(str(path))) == set(params)


def test_format_is_told_by_content_not_suffix(tmp_path):
    one = {"w": np.arange(3, dtype=np.float32)}
    ms.save_checkpoint(one, str(tmp_path / "real.ckpt"))
    ms.save_checkpoint(one, str(tmp_path / "real"), format="safetensors")
    (tmp_path / "ckpt_named.safetensors").write_bytes((tmp_path / "real.ckpt").read_bytes())
    (tmp_path / "st_named.ckpt").write_bytes((tmp_path / "real.safetensors").read_bytes())
    for name in ("ckpt_named.safetensors", "st_named.ckpt"):
        np.testing.assert_array_equal(
            ms.load_checkpoint(str(tmp_path / name))["w"].asnumpy(), [0, 1, 2])


def test_legacy_safetensors_beside_a_ckpt_name_loads(tmp_path):
    """Before it wrote .ckpt, sporeling.ms saved "x.ckpt" as "x.ckpt.safetensors"."""
    from sporeling.expression import save_checkpoint as sx_save
    sx_save({"w": np.ones(2, np.float32)}, str(tmp_path / "old.ckpt"))
    assert (tmp_path / "old.ckpt.safetensors").exists()
    assert list(ms.load_checkpoint(str(tmp_path / "old.ckpt"))) == ["w"]


# ------------------------------------------------------------------ damaged files

def _lenet_bytes():
    return (DATA / "lenet.ckpt").read_bytes()


def _record_starts(data):
    starts, pos = [], 0
    while pos < len(data):
        starts.append(pos)
        length, nxt = fmt._varint(data, pos + 1, len(data))
        pos = nxt + length
    assert pos == len(data)
    return starts


def test_truncation_anywhere_is_an_error_or_a_record_boundary(tmp_path):
    data = _lenet_bytes()
    starts = set(_record_starts(data))
    for cut in range(len(data)):
        path = tmp_path / "cut.ckpt"
        path.write_bytes(data[:cut])
        if cut in starts and cut:
            # a file cut between records is a valid smaller checkpoint (the format has no
            # count): crc_check=True files, or strict loading, catch it
            assert len(ms.load_checkpoint(str(path))) == sorted(starts).index(cut)
            continue
        with pytest.raises(CheckpointError) as info:
            ms.load_checkpoint(str(path))
        assert str(path) in str(info.value)


def test_truncated_record_names_the_tensor(tmp_path):
    data = _lenet_bytes()
    fc = data.index(b"fc.weight")
    with pytest.raises(CheckpointError, match=r"'fc.weight'.*declares \d+ bytes but only"):
        _load_bytes(tmp_path, data[:fc + 200])


def test_any_flipped_byte_of_a_crc_file_is_an_error(tmp_path):
    data = (DATA / "lenet_crc.ckpt").read_bytes()
    path = tmp_path / "flip.ckpt"
    for i in range(len(data)):
        damaged = bytearray(data)
        damaged[i] ^= 0xFF
        path.write_bytes(bytes(damaged))
        with pytest.raises(CheckpointError):
            ms.load_checkpoint(str(path))


def test_flipped_bytes_never_escape_as_other_errors(tmp_path):
    """Without a CRC a flip inside a tensor's numbers (or a name) is undetectable; any other
    flip must be a CheckpointError, never a raw protobuf/NumPy error."""
    data = _lenet_bytes()
    path = tmp_path / "flip.ckpt"
    for i in range(len(data)):
        for mask in (0x01, 0x80, 0xFF):
            damaged = bytearray(data)
            damaged[i] ^= mask
            path.write_bytes(bytes(damaged))
            try:
                ms.load_checkpoint(str(path))
            except CheckpointError:
                pass


def test_flipped_header_bytes_are_errors(tmp_path):
    data = _lenet_bytes()
    for start in _record_starts(data):
        for offset in (0, 1):  # the record tag, the record length
            damaged = bytearray(data)
            damaged[start + offset] ^= 0x40
            with pytest.raises(CheckpointError):
                _load_bytes(tmp_path, bytes(damaged))
    at = data.index(b"Float32")      # the first tensor_type
    damaged = bytearray(data)
    damaged[at + 5] = ord("4")
    with pytest.raises(CheckpointError, match="'conv1.weight': unknown tensor_type"):
        _load_bytes(tmp_path, bytes(damaged))


def test_wrong_tensor_type_and_size_mismatch_name_the_tensor(tmp_path):
    good = _record("ok", [2], "Float32", np.ones(2, np.float32).tobytes())
    for bad, pattern in [
        (_record("w", [2, 3], "Float33", bytes(24)), r"'w': unknown tensor_type"),
        (_record("w", [2, 3], "Float32", bytes(20)), r"'w': dims \(2, 3\) of Float32 need 24"),
        (_record("w", [2, 3], "Int64", bytes(24)), r"'w': dims \(2, 3\) of Int64 need 48"),
        (_record("w", [-1, 3], "Float32", bytes(12)), r"'w': negative dims"),
        (_record("w", [2], "Bool", b"\x00\x02"), r"'w': a Bool tensor"),
        (_record("w", [3], "str", b"a\x00\x00\x00"), r"'w': a 'str' entry"),
        (_record("w", [0], "str", b"\xff\xff\xff\xff"), r"'w': its string content"),
    ]:
        with pytest.raises(CheckpointError, match=pattern):
            _load_bytes(tmp_path, good + bad)


def test_slices_must_agree(tmp_path):
    half = np.ones(3, np.float32).tobytes()
    ok = _record("w", [2, 3], "Float32", half) + _record("w", [2, 3], "Float32", half)
    assert _load_bytes(tmp_path, ok)["w"].shape == (2, 3)
    bad = _record("w", [2, 3], "Float32", half) + _record("w", [6], "Float32", half)
    with pytest.raises(CheckpointError, match="'w': record 1 continues the tensor"):
        _load_bytes(tmp_path, bad)


def test_values_without_a_tensor_are_errors(tmp_path):
    message = fmt.Checkpoint()
    message.value.add(tag="m").maptensor.tensor.add(dims=[1], tensor_type="Float32",
                                                    tensor_content=bytes(4))
    with pytest.raises(CheckpointError, match="'m': record 0 holds a MapParameter"):
        _load_bytes(tmp_path, message.SerializeToString())
    # a Value missing its required tag: protobuf's own parser refuses it
    raw = _record("x", [1], "Float32", bytes(4))
    value = fmt.Checkpoint.Value.FromString(raw[2:])
    value.ClearField("tag")
    body = value.SerializePartialToString()
    with pytest.raises(CheckpointError, match="record 0 at byte 0 lacks required fields"):
        _load_bytes(tmp_path, b"\n" + bytes([len(body)]) + body)


def test_not_a_checkpoint(tmp_path):
    with pytest.raises(CheckpointError, match="the file is empty"):
        _load_bytes(tmp_path, b"")
    with pytest.raises(CheckpointError, match="neither a MindSpore .ckpt nor a safetensors"):
        _load_bytes(tmp_path, b"PK\x03\x04 a zip file")
    with pytest.raises(CheckpointError, match="crc_check=True but the file has no CRC32"):
        ms.load_checkpoint(str(DATA / "lenet.ckpt"), crc_check=True)
    ms.save_checkpoint({"w": np.ones(4, np.float32)}, str(tmp_path / "t"),
                       format="safetensors")
    data = (tmp_path / "t.safetensors").read_bytes()
    with pytest.raises(CheckpointError, match="safetensors"):
        _load_bytes(tmp_path, data[:-3], name="cut.safetensors")


# ------------------------------------------------------------------ conversion

def test_ckpt_to_safetensors_and_back_one_file(tmp_path):
    ms.ckpt_to_safetensors(str(DATA / "lenet.ckpt"), save_path=str(tmp_path / "st"),
                           name_map={"fc.weight": "head.weight"})
    st = tmp_path / "st" / "lenet.safetensors"
    params = ms.load_checkpoint(str(st), format="safetensors")
    assert "head.weight" in params and "fc.weight" not in params
    ms.safetensors_to_ckpt(str(st), save_path=str(tmp_path / "ck"),
                           name_map={"head.weight": "fc.weight"})
    back = tmp_path / "ck" / "lenet.ckpt"
    assert set(ms.load_checkpoint(str(back))) == set(LENET_NAMES)
    # default save_path: beside the source
    ms.safetensors_to_ckpt(str(st))
    assert (tmp_path / "st" / "lenet.ckpt").exists()


def test_conversion_of_rank_folders(tmp_path):
    for rank in (0, 1):
        folder = tmp_path / "src" / f"rank{rank}"
        folder.mkdir(parents=True)
        for step in (1, 2):
            ms.save_checkpoint({"w": np.full(2, rank * 10 + step, np.float32)},
                               str(folder / f"net-{step}.ckpt"))
    (tmp_path / "src" / "notes").mkdir()
    ms.ckpt_to_safetensors(str(tmp_path / "src"), save_path=str(tmp_path / "dst"),
                           file_name_regex=r"-2\.ckpt$", processes_num=2)
    written = sorted(str(p.relative_to(tmp_path / "dst")) for p in
                     (tmp_path / "dst").rglob("*") if p.is_file())
    assert written == ["rank0/net-2.safetensors", "rank1/net-2.safetensors"]
    w = ms.load_checkpoint(str(tmp_path / "dst" / "rank1" / "net-2.safetensors"))["w"]
    np.testing.assert_array_equal(w.asnumpy(), [12, 12])
    ms.safetensors_to_ckpt(str(tmp_path / "dst"))  # back, in place
    assert (tmp_path / "dst" / "rank0" / "net-2.ckpt").exists()


def test_conversion_errors_are_mindspores(tmp_path):
    with pytest.raises(ValueError, match="valid path or file"):
        ms.ckpt_to_safetensors(str(tmp_path / "nothing"))
    with pytest.raises(ValueError, match="save_path must be a directory"):
        ms.ckpt_to_safetensors(str(DATA / "lenet.ckpt"), save_path=str(tmp_path / "x.st"))
    with pytest.raises(ValueError, match=r"must be a \.ckpt file"):
        ms.ckpt_to_safetensors(str(DATA / "lenet.safetensors"))
    with pytest.raises(ValueError, match="no directories starting with 'rank'"):
        ms.safetensors_to_ckpt(str(tmp_path))
    with pytest.raises(ValueError, match="regular expression"):
        ms.ckpt_to_safetensors(str(DATA / "lenet.ckpt"), str(tmp_path), file_name_regex="zz")


# ------------------------------------------------------------------ the other way round

@pytest.mark.skipif(not ORACLE, reason="set SPORELING_MINDSPORE_PYTHON to a MindSpore 2.10 "
                                       "Python to load our files in real MindSpore")
def test_real_mindspore_loads_ours(tmp_path):
    ms.set_seed(11)
    net = LeNet()
    rng = np.random.default_rng(5)
    for _, p in net.parameters_and_names():
        values = (rng.uniform(0.5, 2.0, p.shape) if "variance" in p.name else
                  rng.normal(0.0, 0.3, p.shape))
        p.set_data(values.astype(np.float32))
    net.set_train(False)
    x = rng.normal(size=(3, 1, 8, 8)).astype(np.float32)
    y = net(ms.Tensor(x)).asnumpy()
    np.savez(tmp_path / "io.npz", x=x, y=y)
    ms.save_checkpoint(net, str(tmp_path / "ours.ckpt"), crc_check=True)
    ms.save_checkpoint(net, str(tmp_path / "ours"), format="safetensors")
    script = str(DATA / "make_ckpt_fixtures.py")
    for name in ("ours.ckpt", "ours.safetensors"):
        run = subprocess.run([ORACLE, script, "check", str(tmp_path / name),
                              str(tmp_path / "io.npz")], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
    every = {**ROUND_TRIP, "u16": np.array([65535], np.uint16),
             "u32": np.array([2 ** 32 - 1], np.uint32), "u64": np.array([2 ** 63], np.uint64)}
    ms.save_checkpoint(every, str(tmp_path / "dtypes.ckpt"),
                       append_dict={"epoch": 5, "loss": 0.25, "ok": True, "tag": "λ"})
    run = subprocess.run([ORACLE, script, "dump", str(tmp_path / "dtypes.ckpt"),
                          str(tmp_path / "dtypes.json")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    seen = json.loads((tmp_path / "dtypes.json").read_text())
    assert seen["tag"] == {"str": "λ"}
    assert seen["epoch"]["dtype"] == "Int64" and seen["loss"]["dtype"] == "Float32"
    for name, want in every.items():
        assert seen[name]["dtype"] == fmt.tensor_type_name(want.dtype), name
        assert seen[name]["shape"] == list(want.shape), name
        np.testing.assert_array_equal(
            np.array(seen[name]["values"], np.float64).reshape(want.shape),
            want.astype(np.float64), err_msg=name)
