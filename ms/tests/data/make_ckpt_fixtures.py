"""The MindSpore side of test_ckpt_format.py: writes the fixture files with real MindSpore,
and loads files written by sporeling.ms back into real MindSpore.

Run with a Python that has MindSpore 2.10 (not in CI; the fixtures are committed):

    python ms/tests/data/make_ckpt_fixtures.py              # (re)write the fixtures here
    python ms/tests/data/make_ckpt_fixtures.py check FILE IO.npz
        # load FILE (.ckpt or .safetensors, written by sporeling.ms) into MindSpore's LeNet
        # and compare its output on IO.npz's x with IO.npz's y (sporeling's output)
    python ms/tests/data/make_ckpt_fixtures.py dump FILE OUT.json
        # MindSpore's load_checkpoint(FILE) as JSON (dtype, shape, values; strings)

Fixtures (all small):
    lenet.ckpt, lenet_crc.ckpt (crc_check=True), lenet.safetensors (format="safetensors"):
        a LeNet-like net (Conv2d, BatchNorm2d with non-trivial moving statistics, MaxPool2d,
        Dense) saved by MindSpore; lenet_io.npz: its input x, MindSpore's eval output y and
        every parameter's values.
    dtypes.ckpt: one parameter per dtype MindSpore writes (Float32, Float16, Float64,
        BFloat16, Int8, Int16, Int32, Int64, UInt8, Bool), a scalar, and append_dict entries
        (int, float, bool, str); dtypes.json: MindSpore's own load_checkpoint of it.
    checkpoint_descriptor.pb: MindSpore's checkpoint.proto descriptor (serialized
        FileDescriptorProto from mindspore.train.checkpoint_pb2).
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))


class LeNet(nn.Cell):
    """conv(1->4, 3x3) -> BN -> ReLU -> maxpool 2 -> flatten -> dense(36 -> 10)."""

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


def lenet_input() -> np.ndarray:
    return np.random.default_rng(1).normal(size=(2, 1, 8, 8)).astype(np.float32)


def lenet_values() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {
        "conv1.weight": rng.normal(0, 0.5, (4, 1, 3, 3)).astype(np.float32),
        "conv1.bias": rng.normal(0, 0.1, (4,)).astype(np.float32),
        "bn1.gamma": rng.uniform(0.5, 1.5, (4,)).astype(np.float32),
        "bn1.beta": rng.normal(0, 0.1, (4,)).astype(np.float32),
        "bn1.moving_mean": rng.normal(0, 0.3, (4,)).astype(np.float32),
        "bn1.moving_variance": rng.uniform(0.5, 2.0, (4,)).astype(np.float32),
        "fc.weight": rng.normal(0, 0.2, (10, 36)).astype(np.float32),
        "fc.bias": rng.normal(0, 0.1, (10,)).astype(np.float32),
    }


def dtype_values() -> list[tuple[str, np.ndarray, object]]:
    """(name, values, MindSpore dtype) of dtypes.ckpt's parameters."""
    base = np.arange(-3, 3, dtype=np.float64).reshape(2, 3) * 0.75
    return [
        ("f32", base.astype(np.float32) + np.float32(1e-3), ms.float32),
        ("f16", base.astype(np.float16), ms.float16),
        ("f64", base / 3.0, ms.float64),
        ("bf16", base.astype(np.float32), ms.bfloat16),
        ("i8", np.array([-128, -1, 0, 1, 127], np.int8), ms.int8),
        ("i16", np.array([-32768, 0, 32767], np.int16), ms.int16),
        ("i32", np.arange(-5, 7, dtype=np.int32).reshape(3, 2, 2), ms.int32),
        ("i64", np.array([-(2 ** 40), 0, 2 ** 62], np.int64), ms.int64),
        ("u8", np.array([0, 7, 255], np.uint8), ms.uint8),
        ("flags", np.array([[True, False, True], [False, False, True]]), ms.bool_),
        ("scalar", np.array(2.5, np.float32), ms.float32),
    ]


APPEND = {"epoch_num": 3, "lr": 0.125, "done": True, "note": "LeNet ü 1"}


def loaded_as_json(params: dict) -> dict:
    out = {}
    for name, value in params.items():
        if isinstance(value, str):
            out[name] = {"str": value}
            continue
        dtype = str(value.dtype)
        array = (ops.cast(value, ms.float32) if dtype == "BFloat16" else value).asnumpy()
        out[name] = {"dtype": dtype, "shape": list(value.shape),
                     "values": array.astype(np.float64 if array.dtype.kind == "f"
                                            else array.dtype).tolist()}
    return out


def write_fixtures() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    net = LeNet()
    for name, param in net.parameters_and_names():
        param.set_data(Tensor(lenet_values()[param.name]))
    net.set_train(False)
    x = lenet_input()
    y = net(Tensor(x)).asnumpy()
    np.savez(os.path.join(HERE, "lenet_io.npz"), x=x, y=y,
             **{k.replace(".", "__"): v for k, v in lenet_values().items()})
    ms.save_checkpoint(net, os.path.join(HERE, "lenet.ckpt"))
    ms.save_checkpoint(net, os.path.join(HERE, "lenet_crc.ckpt"), crc_check=True)
    ms.save_checkpoint(net, os.path.join(HERE, "lenet"), format="safetensors")

    params = [{"name": name, "data": Parameter(Tensor(values, dtype=dtype), name=name)}
              for name, values, dtype in dtype_values()]
    path = os.path.join(HERE, "dtypes.ckpt")
    ms.save_checkpoint(params, path, append_dict=dict(APPEND))
    with open(os.path.join(HERE, "dtypes.json"), "w") as f:
        json.dump(loaded_as_json(ms.load_checkpoint(path)), f, indent=1)

    from mindspore.train import checkpoint_pb2
    with open(os.path.join(HERE, "checkpoint_descriptor.pb"), "wb") as f:
        f.write(checkpoint_pb2.DESCRIPTOR.serialized_pb)
    for name in sorted(os.listdir(HERE)):
        print(f"{os.path.getsize(os.path.join(HERE, name)):8d}  {name}")


def _format(path: str) -> str:
    return "safetensors" if path.endswith(".safetensors") else "ckpt"


def check(path: str, io_path: str) -> None:
    """Load a sporeling-written LeNet checkpoint into MindSpore; compare outputs."""
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    io = np.load(io_path, allow_pickle=False)
    net = LeNet()
    params = ms.load_checkpoint(path, format=_format(path))
    not_loaded, unused = ms.load_param_into_net(net, params, strict_load=True)
    assert not not_loaded and not unused, (not_loaded, unused)
    net.set_train(False)
    y = net(Tensor(io["x"])).asnumpy()
    err = float(np.abs(y - io["y"]).max())
    print(json.dumps({"file": path, "max_abs_diff": err, "shape": list(y.shape)}))
    assert err < 1e-5, err


def dump(path: str, out: str) -> None:
    with open(out, "w") as f:
        json.dump(loaded_as_json(ms.load_checkpoint(path, format=_format(path))), f)


if __name__ == "__main__":
    if len(sys.argv) == 1:
        write_fixtures()
    elif sys.argv[1] == "check" and len(sys.argv) == 4:
        check(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "dump" and len(sys.argv) == 4:
        dump(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
