"""MindIR: ``ms.export(..., file_format="MINDIR")``, ``ms.load`` and ``nn.GraphCell``.

The fixtures in data/mindir/ were written by real MindSpore 2.10 (see
data/make_mindir_fixtures.py, which documents how to regenerate them). The reverse check
-- files written here, run by real MindSpore -- needs a Python with MindSpore 2.10: the
one in ``SPORELING_MINDSPORE_PYTHON``, else /work/ms-venv/bin/python; skipped without.
"""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import descriptor_pb2
from hypothesis import given, settings, strategies as st

import sporeling.ms as ms
from sporeling.compiler.export import ExportError
from sporeling.core import ShapeError
from sporeling.ms import nn, ops
from sporeling.ms.mindir import MindIRError, MindIRUnsupportedError, proto

DATA = Path(__file__).parent / "data"
FIXTURES = DATA / "mindir"
ORACLE = os.environ.get("SPORELING_MINDSPORE_PYTHON") or (
    "/work/ms-venv/bin/python" if os.path.exists("/work/ms-venv/bin/python") else None)


def _io(path):
    io = np.load(path)
    xs = [io[f"x{i}"] for i in range(sum(k.startswith("x") for k in io.files))]
    ys = [io[f"y{i}"] for i in range(sum(k.startswith("y") for k in io.files))]
    return xs, ys


def _outputs(out):
    return [o.asnumpy() for o in (out if isinstance(out, tuple) else (out,))]


def _model(path):
    return proto.ModelProto.FromString(Path(path).read_bytes())


# ------------------------------------------------------------------ the format

def _normalised(messages):
    return {m.name: (sorted((f.name, f.number, f.label, f.type, f.type_name) for f in m.field),
                     _normalised(m.nested_type), m.options.map_entry,
                     {e.name: [(v.name, v.number) for v in e.value] for e in m.enum_type})
            for m in messages}


def test_descriptor_is_mindspores():
    theirs = descriptor_pb2.FileDescriptorProto.FromString(
        (FIXTURES / "mind_ir_descriptor.pb").read_bytes())
    ours = proto.descriptor()
    assert (ours.package, ours.syntax) == (theirs.package, theirs.syntax or "proto2")
    assert _normalised(ours.message_type) == _normalised(theirs.message_type)
    assert [(e.name, [(v.name, v.number) for v in e.value]) for e in ours.enum_type] == \
        [(e.name, [(v.name, v.number) for v in e.value]) for e in theirs.enum_type]


def test_mindspores_files_reserialise_byte_for_byte():
    data = (FIXTURES / "lenet.mindir").read_bytes()
    assert proto.ModelProto.FromString(data).SerializeToString() == data


# ------------------------------------------------------------------ MindSpore's files

@pytest.mark.parametrize("name", ["mlp", "lenet", "quickstart", "convs", "ops", "resnet",
                                  "lstm"])
def test_mindspore_files_run_to_mindspores_outputs(name):
    xs, ys = _io(FIXTURES / f"{name}_io.npz")
    graph = ms.load(str(FIXTURES / f"{name}.mindir"))
    outs = _outputs(nn.GraphCell(graph)(*map(ms.Tensor, xs)))
    assert len(outs) == len(ys)
    for got, want in zip(outs, ys):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_loaded_graph_names_its_parameters_and_inputs():
    graph = ms.load(FIXTURES / "lenet.mindir")
    assert sorted(graph.parameters) == ["conv1.weight", "conv2.weight", "fc1.bias",
                                        "fc1.weight", "fc2.bias", "fc2.weight"]
    assert graph.producer == "MindSpore"
    assert [(shape, str(dtype)) for _, shape, dtype in graph.inputs] == [
        ((2, 1, 16, 16), "float32")]
    assert "lenet" not in repr(graph) and "6 parameters" in repr(graph)


def test_params_init_replaces_weights_by_name():
    xs, ys = _io(FIXTURES / "mlp_io.npz")
    graph = ms.load(FIXTURES / "mlp.mindir")
    zero = ms.Tensor(np.zeros((3,), np.float32))
    cell = nn.GraphCell(graph, params_init={"d2.bias": zero, "not.there": zero})
    bias = graph.parameters["d2.bias"]
    np.testing.assert_allclose(cell(ms.Tensor(xs[0])).asnumpy(), ys[0] - bias, rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(TypeError, match="params_init"):
        nn.GraphCell(graph, params_init=[("d2.bias", zero)])
    with pytest.raises(TypeError, match="Tensor or Parameter"):
        nn.GraphCell(graph, params_init={"d2.bias": np.zeros(3, np.float32)})
    with pytest.raises(ValueError, match="does not fit"):
        nn.GraphCell(graph, params_init={"d2.bias": ms.Tensor(np.zeros(4, np.float32))})
    with pytest.raises(TypeError, match="FuncGraph"):
        nn.GraphCell("mlp.mindir")


def test_graph_cell_checks_its_inputs_and_is_differentiable():
    xs, _ = _io(FIXTURES / "mlp_io.npz")
    cell = nn.GraphCell(ms.load(FIXTURES / "mlp.mindir"))
    with pytest.raises(ShapeError):
        cell(ms.Tensor(np.ones((5, 4), np.float32)))
    x = ms.Tensor(xs[0])
    grad = ms.grad(lambda v: cell(v).sum())(x).asnumpy()
    eps = 1e-3
    bumped = xs[0].copy()
    bumped[0, 0] += eps
    numeric = (cell(ms.Tensor(bumped)).sum().asnumpy() - cell(x).sum().asnumpy()) / eps
    np.testing.assert_allclose(grad[0, 0], numeric, rtol=1e-2, atol=1e-3)


# ------------------------------------------------------------------ ours -> ours

class MLP(nn.Cell):
    def __init__(self, n_in=4, hidden=8, n_out=3, act=None):
        super().__init__()
        self.d1, self.act, self.d2 = nn.Dense(n_in, hidden), act or nn.ReLU(), \
            nn.Dense(hidden, n_out)

    def construct(self, x):
        return self.d2(self.act(self.d1(x)))


class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.bn = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 16, 3, pad_mode="same", has_bias=True)
        self.relu, self.pool, self.flatten = nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten()
        self.fc1, self.fc2 = nn.Dense(16 * 3 * 3, 12), nn.Dense(12, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.bn(self.conv1(x))))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


class Zoo(nn.Cell):
    """One network through most lowering rules, two inputs and two outputs."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1),
                              dilation=1, group=2, has_bias=True)
        self.avg = nn.AvgPool2d(2, 1)
        self.w = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32)
                                        .reshape(3, 4)), name="w")

    def construct(self, img, x):
        c = self.avg(self.conv(img))                              # (2, 4, 3, 4)
        v = ops.reshape(c, (2, 48))[:, 1:17:2] + c[:, 0, 1:, None][..., 0].sum() \
            + c[1, ::-1, 0, 0][None, :2].mean()
        y = ops.matmul(x, self.w)                                 # (2, 4)
        t = ops.reshape(ops.transpose(ops.reshape(v, (2, 4, 2)), (0, 2, 1)), (2, 8))
        y = ops.concat((y, t[:, :4]), 1)                           # (2, 8)
        y = ops.softmax(y, -1) * 3 + ops.log_softmax(y, 0) - ops.exp(-ops.abs(y))
        y = ops.gelu(y) + ops.gelu(y, approximate="tanh") + ops.silu(y) + ops.sigmoid(y)
        y = ops.leaky_relu(y, 0.1) + ops.tanh(y) * ops.sqrt(ops.abs(y) + 1)
        y = ops.where(y > 0.5, y, ops.maximum(y, -0.25)) / (ops.square(y) + 1)
        s = y.sum(axis=1, keepdims=True) + y.mean(axis=1, keepdims=True) + \
            y.max(axis=1, keepdims=True) - y.min(axis=1, keepdims=True)
        z = ops.broadcast_to(s, (2, 8)).astype(ms.float16).astype(ms.float32)
        b = ops.bmm(ops.reshape(z, (2, 2, 4)), ops.reshape(ops.tanh(y), (2, 4, 2)))
        return z + ops.log(ops.abs(y) + 1), ops.floor(b * 4) + ops.round(b)


def _zoo_inputs(rng):
    return [rng.normal(size=(2, 2, 9, 9)).astype(np.float32),
            rng.normal(size=(2, 3)).astype(np.float32)]


def _randomise(net, rng):
    for name, p in net.parameters_and_names():
        values = (rng.uniform(0.5, 2.0, p.shape) if "variance" in name else
                  rng.normal(0.0, 0.5, p.shape))
        p.set_data(ms.Tensor(values.astype(np.float32)))
    net.set_train(False)
    return net


def _nets(rng):
    return {"mlp": (MLP(), [rng.normal(size=(3, 4)).astype(np.float32)]),
            "lenet": (LeNet(), [rng.normal(size=(2, 1, 16, 16)).astype(np.float32)]),
            "zoo": (Zoo(), _zoo_inputs(rng))}


@pytest.mark.parametrize("name", ["mlp", "lenet", "zoo"])
def test_round_trip_ours_to_ours(tmp_path, name):
    rng = np.random.default_rng(3)
    net, xs = _nets(rng)[name]
    _randomise(net, rng)
    want = _outputs(net(*map(ms.Tensor, xs)))
    assert ms.export(net, *map(ms.Tensor, xs), file_name=str(tmp_path / name),
                     file_format="MINDIR") is None
    graph = ms.load(str(tmp_path / f"{name}.mindir"))
    assert graph.producer == "Sporeling"
    got = _outputs(nn.GraphCell(graph)(*map(ms.Tensor, xs)))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


@settings(max_examples=8, deadline=None)
@given(batch=st.integers(1, 4), n_in=st.integers(1, 6), hidden=st.integers(1, 6),
       act=st.sampled_from(["ReLU", "Sigmoid", "Tanh", "GELU", "SiLU"]),
       seed=st.integers(0, 2 ** 16))
def test_round_trip_any_mlp(tmp_path_factory, batch, n_in, hidden, act, seed):
    rng = np.random.default_rng(seed)
    net = _randomise(MLP(n_in, hidden, 2, getattr(nn, act)()), rng)
    x = ms.Tensor(rng.normal(size=(batch, n_in)).astype(np.float32))
    path = tmp_path_factory.mktemp("mlp") / "net"
    ms.export(net, x, file_name=str(path), file_format="MINDIR")
    got = nn.GraphCell(ms.load(f"{path}.mindir"))(x).asnumpy()
    np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_export_writes_mindspores_structure(tmp_path):
    """Weights are named parameters with embedded raw_data; Dense is MatMul(x, w, False,
    True) + BiasAdd as in MindSpore's own files; Conv2D/MaxPool are PRIMITIVEs with the
    attribute names MindSpore writes."""
    rng = np.random.default_rng(0)
    net = _randomise(LeNet(), rng)
    ms.export(net, ms.Tensor(rng.normal(size=(2, 1, 16, 16)).astype(np.float32)),
              file_name=str(tmp_path / "lenet.mindir"), file_format="MINDIR")
    ours, theirs = _model(tmp_path / "lenet.mindir"), _model(FIXTURES / "lenet.mindir")
    params = {p.ref_key: p for p in ours.graph.parameter}
    assert {"conv1.weight", "fc1.weight", "fc1.bias", "bn.moving_mean"} <= set(params)
    w = params["fc1.weight"]
    assert list(w.dims) == [12, 144] and len(w.raw_data) == 12 * 144 * 4
    np.testing.assert_array_equal(np.frombuffer(w.raw_data, np.float32).reshape(12, 144),
                                  net.fc1.weight.asnumpy())
    prims = {p.name: p for p in ours.primitives}
    ops_used = [prims[n.op_type[5:]].op_type for n in ours.graph.node
                if n.op_type.startswith("REF::")]
    assert ops_used.count("MatMul") == 2 and ops_used.count("BiasAdd") == 2
    assert "Transpose" not in ops_used

    def attrs(model, op):
        prim = next(p for p in model.primitives if p.op_type == op)
        return prim.prim_type, sorted(a.name for a in prim.attribute)

    for op in ("Conv2D", "MaxPool", "MatMul", "BiasAdd", "ReLU"):
        assert attrs(ours, op) == attrs(theirs, op), op
    assert ours.mind_ir_version == theirs.mind_ir_version and ours.little_endian


def test_export_suffix_formats_and_options(tmp_path):
    net, x = MLP(), ms.Tensor(np.ones((2, 4), np.float32))
    ms.export(net, x, file_name=str(tmp_path / "a.mindir"), file_format="mindir")
    assert (tmp_path / "a.mindir").exists() and not (tmp_path / "a.mindir.mindir").exists()
    with pytest.raises(MindIRError, match="unsupported export format"):
        ms.export(net, x, file_name=str(tmp_path / "b"), file_format="AIR")
    with pytest.raises(MindIRError, match="encrypted"):
        ms.export(net, x, file_name=str(tmp_path / "c"), file_format="MINDIR",
                  enc_key=b"0" * 16)
    with pytest.raises(MindIRError, match="encrypted"):
        ms.load(str(tmp_path / "a.mindir"), dec_key=b"0" * 16)
    with pytest.raises(ExportError, match="example inputs"):
        ms.export(net, file_name=str(tmp_path / "d"), file_format="MINDIR")


def test_unsupported_primitives_are_all_listed(tmp_path):
    class Odd(nn.Cell):
        def construct(self, x):
            return ops.cumsum(x, 0) + ops.sort(x, 0)[0]

    with pytest.raises(MindIRUnsupportedError) as info:
        ms.export(Odd(), ms.Tensor(np.ones((3, 2), np.float32)),
                  file_name=str(tmp_path / "odd"), file_format="MINDIR")
    assert "cumsum" in info.value.names and len(info.value.names) >= 2
    assert "cumsum" in str(info.value) and not (tmp_path / "odd.mindir").exists()
    model = _model(FIXTURES / "mlp.mindir")
    for prim, name in zip([p for p in model.primitives if p.op_type in ("ReLU", "BiasAdd")],
                          ("FancyOp", "OtherOp")):
        prim.op_type = name
    (tmp_path / "odd.mindir").write_bytes(model.SerializeToString())
    with pytest.raises(MindIRUnsupportedError) as info:
        ms.load(tmp_path / "odd.mindir")
    assert info.value.names == ["FancyOp", "OtherOp"]


def test_load_mindir_and_save_mindir_edit_the_proto(tmp_path):
    model = ms.load_mindir(str(FIXTURES / "mlp.mindir"))
    model.user_info["version"] = "v100"
    ms.save_mindir(model, str(tmp_path / "edited"))
    again = ms.load_mindir(str(tmp_path / "edited.mindir"))
    assert dict(again.user_info) == {"version": "v100"}
    xs, ys = _io(FIXTURES / "mlp_io.npz")
    out = nn.GraphCell(ms.load(str(tmp_path / "edited.mindir")))(ms.Tensor(xs[0]))
    np.testing.assert_allclose(out.asnumpy(), ys[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="ModelProto"):
        ms.save_mindir(b"bytes", str(tmp_path / "x"))
    with pytest.raises(MindIRError, match="no such MindIR file"):
        ms.load_mindir(str(tmp_path / "nothing.mindir"))


# ------------------------------------------------------------------ damaged files

def _damaged(tmp_path, data: bytes, name="bad.mindir"):
    (tmp_path / name).write_bytes(data)
    return str(tmp_path / name)


def test_damaged_files_give_named_errors(tmp_path):
    good = (FIXTURES / "lenet.mindir").read_bytes()
    with pytest.raises(MindIRError, match="no such MindIR file"):
        ms.load(str(tmp_path / "missing.mindir"))
    with pytest.raises(MindIRError, match="empty"):
        ms.load(_damaged(tmp_path, b""))
    with pytest.raises(MindIRError, match="cannot be parsed"):
        ms.load(_damaged(tmp_path, good[:len(good) // 2]))
    with pytest.raises(MindIRError, match="no MindIR graph|cannot be parsed"):
        ms.load(str(DATA / "lenet.ckpt"))
    with pytest.raises(MindIRError):
        ms.load(_damaged(tmp_path, bytes(np.random.default_rng(0).integers(
            0, 256, 4096, dtype=np.uint8))))


def test_inconsistent_contents_name_the_tensor_or_node(tmp_path):
    model = _model(FIXTURES / "lenet.mindir")
    p = model.graph.parameter[0]
    p.raw_data = p.raw_data[:-4]
    with pytest.raises(MindIRError, match=r"conv1\.weight'.*600 bytes") as info:
        ms.load(_damaged(tmp_path, model.SerializeToString()))
    assert "damaged" in str(info.value)
    model = _model(FIXTURES / "lenet.mindir")
    node = next(n for n in model.graph.node if n.op_type != "Constant")
    node.input[0] = "nowhere"
    with pytest.raises(MindIRError, match="reads 'nowhere'"):
        ms.load(_damaged(tmp_path, model.SerializeToString()))
    model = _model(FIXTURES / "lenet.mindir")
    node.op_type = "REF::Nothing:99"
    model.graph.node[[n.name for n in model.graph.node].index(node.name)].op_type = \
        "REF::Nothing:99"
    with pytest.raises(MindIRError, match="does not define"):
        ms.load(_damaged(tmp_path, model.SerializeToString()))


def test_external_data_is_read_next_to_the_model_only(tmp_path):
    model = _model(FIXTURES / "mlp.mindir")
    p = model.graph.parameter[0]
    (tmp_path / "weights.bin").write_bytes(b"pad!" + p.raw_data)
    p.external_data.location, p.external_data.offset = "weights.bin", 4
    p.external_data.length = len(p.raw_data)
    p.ClearField("raw_data")
    xs, ys = _io(FIXTURES / "mlp_io.npz")
    cell = nn.GraphCell(ms.load(_damaged(tmp_path, model.SerializeToString(), "ext.mindir")))
    np.testing.assert_allclose(cell(ms.Tensor(xs[0])).asnumpy(), ys[0], rtol=1e-5, atol=1e-6)
    p.external_data.length += 8
    with pytest.raises(MindIRError, match="past the end"):
        ms.load(_damaged(tmp_path, model.SerializeToString(), "ext.mindir"))
    p.external_data.location = "../" + tmp_path.name + "/../weights.bin"
    with pytest.raises(MindIRError, match="outside the model's directory"):
        ms.load(_damaged(tmp_path, model.SerializeToString(), "ext.mindir"))


# ------------------------------------------------------------------ ours -> real MindSpore

class Network(nn.Cell):
    """The quickstart tutorial's network (hidden width 32)."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 32), nn.ReLU(), nn.Dense(32, 32), nn.ReLU(), nn.Dense(32, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


@pytest.mark.skipif(not ORACLE, reason="needs a Python with MindSpore 2.10 "
                                       "(SPORELING_MINDSPORE_PYTHON or /work/ms-venv)")
def test_real_mindspore_runs_ours(tmp_path):
    rng = np.random.default_rng(9)
    nets = _nets(rng)
    nets["quickstart"] = (Network(), [rng.normal(size=(2, 1, 28, 28)).astype(np.float32)])
    files = []
    for name, (net, xs) in nets.items():
        _randomise(net, rng)
        want = _outputs(net(*map(ms.Tensor, xs)))
        ms.export(net, *map(ms.Tensor, xs), file_name=str(tmp_path / name),
                  file_format="MINDIR")
        np.savez(tmp_path / f"{name}_io.npz", **{f"x{i}": x for i, x in enumerate(xs)},
                 **{f"y{i}": y for i, y in enumerate(want)})
        files += [str(tmp_path / f"{name}.mindir"), str(tmp_path / f"{name}_io.npz")]
    run = subprocess.run([ORACLE, str(DATA / "make_mindir_fixtures.py"), "check", *files],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout.count(": ok") == len(nets)
