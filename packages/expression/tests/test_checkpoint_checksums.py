"""Per-tensor checksums: a damaged checkpoint is a CheckpointError naming the tensor (and the
file), never weights changed in silence; files without checksums still load."""
import json
import random
import struct

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from safetensors.numpy import save

from sporeling.expression import nn
from sporeling.expression.serialization import (CheckpointError, load_checkpoint,
                                                read_tensors, save_checkpoint, write_tensors)
from sporeling.expression.serialization.checksums import KEY


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, has_bias=True)
        self.fc = nn.Dense(36, 10)

    def construct(self, x):
        return self.fc(self.conv(x))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real checkpoint (a net, plus append_dict entries) and what it loads as."""
    path = tmp_path_factory.mktemp("ckpt") / "net.safetensors"
    save_checkpoint(_Net(), str(path), append_dict={"epoch_num": 3, "note": "run a",
                                                    "mask": np.array([True, False])})
    return path.read_bytes(), _snapshot(path)


def _snapshot(path):
    return {k: v if isinstance(v, str) else
            (v.asnumpy().dtype.str, v.asnumpy().shape, v.asnumpy().tobytes())
            for k, v in load_checkpoint(str(path)).items()}


def _loads_intact_or_raises(path, data, want) -> bool:
    """True when the damaged file is refused, False when it loads exactly as the original;
    anything else (other values, another error) fails the test."""
    path.write_bytes(data)
    try:
        got = _snapshot(path)
    except CheckpointError as exc:
        assert str(path) in str(exc)
        return True
    assert got == want, "a damaged checkpoint loaded with other values"
    return False


def _flipped(data: bytes, at: int, delta: int) -> bytes:
    damaged = bytearray(data)
    damaged[at] = (damaged[at] + delta) % 256
    return bytes(damaged)


def test_fifty_random_byte_flips_change_no_weight_in_silence(saved, tmp_path):
    """Issue 23's experiment: before checksums, 41 of these 50 loaded other weights."""
    data, want = saved
    rng = random.Random(23)
    refused = sum(_loads_intact_or_raises(tmp_path / "flip.safetensors",
                                          _flipped(data, rng.randrange(len(data)),
                                                   rng.randrange(1, 256)), want)
                  for _ in range(50))
    assert refused >= 45  # the few others hit JSON padding or the checksums' own key


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_changed_byte_is_refused_or_harmless(saved, tmp_path_factory, data):
    raw, want = saved
    at = data.draw(st.integers(0, len(raw) - 1), label="byte")
    delta = data.draw(st.integers(1, 255), label="delta")
    path = tmp_path_factory.mktemp("flip") / "f.safetensors"
    _loads_intact_or_raises(path, _flipped(raw, at, delta), want)


def _header(data: bytes) -> tuple[int, dict]:
    n = struct.unpack("<Q", data[:8])[0]
    return n, json.loads(data[8:8 + n])


def test_a_changed_number_names_its_tensor(saved, tmp_path):
    data, _ = saved
    n, header = _header(data)
    at = 8 + n + header["fc.weight"]["data_offsets"][0] + 17
    path = tmp_path / "bad.safetensors"
    path.write_bytes(_flipped(data, at, 1))
    with pytest.raises(CheckpointError, match=r"tensor 'fc\.weight': its bytes.*do not match"
                                              r".*CRC32") as info:
        load_checkpoint(str(path))
    assert str(path) in str(info.value)


@pytest.mark.parametrize("old, new, message", [
    (b'"dtype":"F32","shape":[10,36]', b'"dtype":"I32","shape":[10,36]',
     r"tensor 'fc\.weight': its bytes, dtype or shape do not match"),
    (b'"fc.bias"', b'"fc.bia5"', r"tensor 'fc\.bia5': no checksum was stored"),
    (b"run a", b"run b", r"the header's metadata entries do not match their checksum"),
])
def test_header_changes_are_caught(saved, tmp_path, old, new, message):
    """Changes the data checks of safetensors let through: a dtype of the same size, a
    name, a string of append_dict."""
    data, _ = saved
    assert data.count(old) == 1
    path = tmp_path / "bad.safetensors"
    path.write_bytes(data.replace(old, new))
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(str(path))


def test_a_tensor_left_out_is_named(saved, tmp_path):
    data, _ = saved
    tensors, _ = read_tensors(_write(tmp_path / "good.safetensors", data))
    _, header = _header(data)
    del tensors["conv.bias"]
    path = tmp_path / "short.safetensors"
    path.write_bytes(save(tensors, metadata=header["__metadata__"]))
    with pytest.raises(CheckpointError, match=r"'conv\.bias': it has a checksum but is "
                                              "missing from the file"):
        load_checkpoint(str(path))


def _write(path, data):
    path.write_bytes(data)
    return str(path)


def test_a_damaged_checksum_entry_is_an_error(tmp_path):
    path = tmp_path / "t.safetensors"
    path.write_bytes(save({"w": np.ones(2, np.float32)}, metadata={KEY: "{not json"}))
    with pytest.raises(CheckpointError, match="sporeling.checksums.*not a JSON object"):
        load_checkpoint(str(path))


def test_files_without_checksums_load_unchecked(tmp_path):
    """Other tools' (and older Sporeling's) files have no checksums: nothing to verify."""
    path = tmp_path / "other.safetensors"
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    path.write_bytes(save({"w": w}, metadata={"format": "pt"}))
    np.testing.assert_array_equal(load_checkpoint(str(path))["w"].asnumpy(), w)


def test_checksums_are_written_and_kept_out_of_the_metadata(tmp_path):
    path = str(tmp_path / "t.safetensors")
    big_endian = np.arange(5, dtype=">i4")
    write_tensors(path, {"a": big_endian, "b": np.zeros((0, 3), np.float16)}, {"k": "v"})
    _, header = _header(open(path, "rb").read())
    assert set(json.loads(header["__metadata__"][KEY])) == {"a", "b", "__metadata__"}
    tensors, metadata = read_tensors(path)
    assert metadata == {"k": "v"}
    np.testing.assert_array_equal(tensors["a"], big_endian)


def test_a_0d_tensor_keeps_its_shape(tmp_path):
    """np.ascontiguousarray made every 0-d tensor (1,) on the way out."""
    from sporeling.expression.serialization.safetensors_io import read_tensors, write_tensors
    path = str(tmp_path / "scalar.safetensors")
    write_tensors(path, {"step": np.array(7, np.int64), "w": np.ones(2, np.float32)})
    tensors = read_tensors(path)
    tensors = tensors[0] if isinstance(tensors, tuple) else tensors
    assert tensors["step"].shape == () and tensors["step"] == 7


def test_the_same_checkpoint_saved_twice_is_the_same_file(tmp_path):
    """safetensors writes metadata from a hash map, in an order that changes per call."""
    from sporeling.expression.serialization.safetensors_io import read_tensors, write_tensors
    tensors = {"w": np.arange(6, dtype=np.float32), "b": np.ones(2, np.float32)}
    metadata = {f"key{k}": str(k) for k in range(6)}
    files = []
    for k in range(6):
        path = str(tmp_path / f"c{k}.safetensors")
        write_tensors(path, tensors, metadata)
        files.append(open(path, "rb").read())
    assert all(f == files[0] for f in files)
    loaded, meta = read_tensors(str(tmp_path / "c0.safetensors"))
    assert {k: meta[k] for k in metadata} == metadata and set(loaded) == {"w", "b"}
