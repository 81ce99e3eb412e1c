"""Per-record checksums in the ``.ckpt`` files sporeling.ms writes (and per-tensor ones in its
safetensors files): a damaged file is a CheckpointError naming the tensor, never weights
changed in silence; MindSpore's parser still reads the files (it skips the extra field)."""
import random
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.expression.serialization import CheckpointError
from sporeling.ms import nn
from sporeling.ms.train import _ckpt_format as fmt

DATA = Path(__file__).parent / "data"


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn1 = nn.BatchNorm2d(4)
        self.fc = nn.Dense(36, 10)

    def construct(self, x):
        return self.fc(self.bn1(self.conv1(x)))


@pytest.fixture(scope="module", params=[("ckpt", False), ("ckpt", True), ("safetensors", False)],
                ids=["ckpt", "ckpt-crc_check", "safetensors"])
def saved(request, tmp_path_factory):
    """A real checkpoint in each format sporeling.ms writes, and what it loads as."""
    format, crc_check = request.param
    path = tmp_path_factory.mktemp("ckpt") / f"net.{format}"
    ms.save_checkpoint(_Net(), str(path), format=format, crc_check=crc_check,
                       append_dict={"epoch_num": 3, "note": "run a"})
    return path, path.read_bytes(), _snapshot(path)


def _snapshot(path):
    return {k: v if isinstance(v, str) else
            (v.asnumpy().dtype.str, v.asnumpy().shape, v.asnumpy().tobytes())
            for k, v in ms.load_checkpoint(str(path)).items()}


def _refused(path, data, want) -> bool:
    """True when the damaged file is refused; False when it loads exactly as the original.
    Anything else fails the test."""
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
    """Issue 23's experiment: before checksums, 45 of these 50 loaded other weights from a
    .ckpt (40 from safetensors)."""
    path, data, want = saved
    rng = random.Random(23)
    refused = sum(_refused(tmp_path / path.name, _flipped(data, rng.randrange(len(data)),
                                                          rng.randrange(1, 256)), want)
                  for _ in range(50))
    assert refused >= 45


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_changed_byte_is_refused_or_harmless(saved, tmp_path_factory, data):
    path, raw, want = saved
    at = data.draw(st.integers(0, len(raw) - 1), label="byte")
    delta = data.draw(st.integers(1, 255), label="delta")
    _refused(tmp_path_factory.mktemp("flip") / path.name, _flipped(raw, at, delta), want)


def _ckpt(tmp_path, net=None, **kwargs) -> tuple[Path, bytes]:
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint(net or _Net(), str(path), **kwargs)
    return path, path.read_bytes()


@pytest.mark.parametrize("crc_check", [False, True])
def test_a_changed_number_names_its_tensor(tmp_path, crc_check):
    """Also with MindSpore's whole-file CRC32 (which cannot say where): the record's check
    comes first."""
    path, data = _ckpt(tmp_path, crc_check=crc_check)
    at = data.index(b"fc.weight") + 40  # inside its tensor_content
    path.write_bytes(_flipped(data, at, 1))
    with pytest.raises(CheckpointError, match=r"tensor 'fc\.weight': record \d+ at byte \d+: "
                                              r"its bytes do not match the checksum") as info:
        ms.load_checkpoint(str(path))
    assert str(path) in str(info.value)


def test_a_changed_name_is_caught(tmp_path):
    """Without checksums a flipped letter of a name loaded the tensor under another name."""
    path, data = _ckpt(tmp_path)
    path.write_bytes(data.replace(b"fc.bias", b"fc.bia5", 1))
    with pytest.raises(CheckpointError, match=r"tensor 'fc\.bia5': .*do not match"):
        ms.load_checkpoint(str(path))


def test_records_have_checksums_all_or_none(tmp_path):
    """A record without one among records with one (a damaged checksum key) is refused;
    MindSpore's files, which have none, load."""
    theirs = (DATA / "lenet.ckpt").read_bytes()
    ours = fmt._record("extra", [2], "Float32", np.ones(2, np.float32).tobytes())
    path = tmp_path / "mixed.ckpt"
    path.write_bytes(ours + theirs)
    with pytest.raises(CheckpointError, match=r"'conv1\.weight': record 1 at byte \d+ lacks "
                                              "a checksum, unlike record 0"):
        ms.load_checkpoint(str(path))
    path.write_bytes(theirs + ours)
    with pytest.raises(CheckpointError, match=r"'extra': record 8 at byte \d+ has a checksum"):
        ms.load_checkpoint(str(path))
    assert len(ms.load_checkpoint(str(DATA / "lenet.ckpt"))) == 8


def test_the_checksum_field_is_last_and_encoded_as_protobuf_encodes_it():
    record = fmt._record("w", [2], "Float32", np.ones(2, np.float32).tobytes())
    value = fmt._Value()
    value.ParseFromString(record[2:])
    assert value.HasField("sporeling_crc32")
    alone = fmt._Value(sporeling_crc32=value.sporeling_crc32)
    assert record.endswith(alone.SerializePartialToString())
    assert alone.SerializePartialToString()[:2] == fmt._CHECKSUM_TAG


def _mindspores_checkpoint_class():
    """The message class MindSpore's loader parses with, from its own descriptor."""
    proto = descriptor_pb2.FileDescriptorProto.FromString(
        (DATA / "checkpoint_descriptor.pb").read_bytes())
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(proto.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(
        f"{proto.package + '.' if proto.package else ''}Checkpoint"))


@pytest.mark.parametrize("crc_check", [False, True])
def test_mindspores_parser_reads_our_files_as_before(tmp_path, crc_check):
    """As MindSpore's load_checkpoint does: strip a crc_num trailer, ParseFromString the
    rest with checkpoint.proto's Checkpoint, read tag and tensor: every value is there."""
    net = _Net()
    path, data = _ckpt(tmp_path, net, crc_check=crc_check)
    if data[-17:-10] == b"crc_num":
        data = data[:-17]
    checkpoint = _mindspores_checkpoint_class()()
    checkpoint.ParseFromString(data)
    got = {v.tag: np.frombuffer(v.tensor.tensor_content, np.float32).reshape(v.tensor.dims)
           for v in checkpoint.value}
    want = {p.name: p.asnumpy() for _, p in net.parameters_and_names()}
    assert sorted(got) == sorted(want)
    for name, value in want.items():
        np.testing.assert_array_equal(got[name], value)
