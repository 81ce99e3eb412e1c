"""Every broken checkpoint file raises CheckpointError naming the file -- never a raw
JSONDecodeError, KeyError, AttributeError or a NumPy error."""
import json
import struct

import numpy as np
import pytest

from sporeling.expression.serialization import CheckpointError, load_checkpoint, save_checkpoint


def _file(header, data=b"", raw_header=None):
    """Safetensors bytes from a header dict (or raw header bytes) and a data section."""
    text = raw_header if raw_header is not None else json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


_W = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
_GOOD = _file({"w": _W}, np.ones(2, np.float32).tobytes())


def _with_meta(meta):
    return _file({"__metadata__": meta, "w": _W}, np.ones(2, np.float32).tobytes())


BAD_FILES = {
    "empty": b"",
    "shorter than the length prefix": b"\x05\x00\x00",
    "header length past the end": struct.pack("<Q", 10_000) + b"{}",
    "header length absurd": struct.pack("<Q", 2 ** 63) + b"{}",
    "header not UTF-8": _file(None, raw_header=b"{\xff\xfe}"),
    "header not JSON": _file(None, raw_header=b"{not json"),
    "header a JSON list": _file(None, raw_header=b"[1, 2, 3]"),
    "entry not an object": _file({"w": [1, 2]}),
    "data truncated": _GOOD[:-3],
    "offsets past the end": _file({"w": dict(_W, data_offsets=[0, 16])},
                                  np.ones(2, np.float32).tobytes()),
    "offsets reversed": _file({"w": dict(_W, data_offsets=[8, 0])},
                              np.ones(2, np.float32).tobytes()),
    "offsets overlap": _file({"a": _W, "b": dict(_W, data_offsets=[4, 12])},
                             np.ones(3, np.float32).tobytes()),
    "offsets leave a gap": _file({"w": dict(_W, data_offsets=[4, 12])},
                                 np.ones(3, np.float32).tobytes()),
    "shape disagrees with offsets": _file({"w": dict(_W, shape=[3])},
                                          np.ones(2, np.float32).tobytes()),
    "negative shape": _file({"w": dict(_W, shape=[-2])}, np.ones(2, np.float32).tobytes()),
    "unknown dtype string": _file({"w": dict(_W, dtype="F33")},
                                  np.ones(2, np.float32).tobytes()),
    "lower-case dtype": _file({"w": dict(_W, dtype="f32")}, np.ones(2, np.float32).tobytes()),
    "dtype safetensors knows, Sporeling does not": _file(
        {"w": dict(_W, dtype="F8_E8M0", shape=[8])}, bytes(8)),
    "missing dtype": _file({"w": {"shape": [2], "data_offsets": [0, 8]}},
                           np.ones(2, np.float32).tobytes()),
    "metadata not an object": _with_meta([1]),
    "metadata value not a string": _with_meta({"format": 3}),
    "sporeling.strings not JSON": _with_meta({"sporeling.strings": "{oops"}),
    "sporeling.strings a JSON list": _with_meta({"sporeling.strings": "[1, 2]"}),
    "sporeling.strings value not a string": _with_meta({"sporeling.strings": '{"tag": 5}'}),
    "a pickle (MindSpore/PyTorch .ckpt)": b"\x80\x04\x95" + bytes(40),
    "a zip archive (torch.save)": b"PK\x03\x04" + bytes(60),
    "text": b"hello, I am not a checkpoint\n" * 4,
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_file_raises_checkpoint_error_naming_it(tmp_path, kind):
    path = tmp_path / "broken_model.safetensors"
    path.write_bytes(BAD_FILES[kind])
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(str(path))
    assert "broken_model.safetensors" in str(info.value)


def test_the_good_file_of_these_cases_loads(tmp_path):
    path = tmp_path / "m.safetensors"
    path.write_bytes(_GOOD)
    np.testing.assert_array_equal(load_checkpoint(str(path))["w"].asnumpy(), [1, 1])


def test_random_truncations_and_byte_changes_never_escape_as_other_errors(tmp_path):
    """300 mutants of a real checkpoint: each loads or raises CheckpointError."""
    src = tmp_path / "src.safetensors"
    save_checkpoint({"a.weight": np.arange(12, dtype=np.float32).reshape(3, 4),
                     "b": np.array([1.5], np.float64)}, str(src),
                    append_dict={"epoch_num": 3, "tag": "best"})
    good = src.read_bytes()
    header_end = 8 + struct.unpack("<Q", good[:8])[0]
    rng = np.random.default_rng(0)
    path = tmp_path / "mutant.safetensors"
    outcomes = {"loaded": 0, "CheckpointError": 0}
    for trial in range(300):
        data = bytearray(good)
        if trial % 3 == 0:
            data = data[:rng.integers(0, len(data))]
        else:  # change 1-4 bytes of the length prefix or the header
            for pos in rng.integers(0, header_end, size=rng.integers(1, 5)):
                data[pos] = rng.integers(0, 256)
        path.write_bytes(bytes(data))
        try:
            load_checkpoint(str(path))
            outcomes["loaded"] += 1
        except CheckpointError as exc:
            assert "mutant.safetensors" in str(exc)
            outcomes["CheckpointError"] += 1
    assert outcomes["CheckpointError"] > 150, outcomes
