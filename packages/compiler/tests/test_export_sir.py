"""SIR files: a graph and its constants written and read back equal; damaged files, unknown
versions, unknown primitives and unencodable parameters refused with a clear SIRError."""
import json
import zipfile

import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.export import (SIRError, bind_constants, load_sir,
                                       prepare_for_export, save_sir)
from sporeling.compiler.ir import Equation, evaluate, make_graph
from sporeling.compiler.pipeline import compile_graph

RNG = np.random.default_rng(0)


def _mlp(x, w1, w2):
    h = ops.tanh(ops.matmul(x, w1))
    return ops.softmax(ops.matmul(h, w2), axis=-1), ops.sum(h)


def _weights():
    return [RNG.standard_normal((5, 7)).astype(np.float32),
            RNG.standard_normal((7, 3)).astype(np.float32)]


def _graph():
    x = np.zeros((4, 5), np.float32)
    g = make_graph(_mlp, x, *_weights())
    return prepare_for_export(bind_constants(g, _weights(), keep=1))


def test_round_trip_equal_outputs(tmp_path):
    w = _weights()
    g = prepare_for_export(bind_constants(make_graph(_mlp, np.zeros((4, 5), np.float32), *w),
                                          w, keep=1))
    path = save_sir(g, tmp_path / "m.sir", meta={"note": "hi"})
    loaded, meta = load_sir(path)
    assert meta == {"note": "hi"}
    x = RNG.standard_normal((4, 5)).astype(np.float32)
    want = _mlp(x, *w)
    for got, ref in zip(compile_graph(loaded)(x), want):
        np.testing.assert_array_equal(got, ref)
    assert [v.aval for v in loaded.inputs] == [v.aval for v in g.inputs]
    assert loaded.primitive_counts() == g.primitive_counts()


def test_control_flow_sub_graphs_and_special_params(tmp_path):
    def f(x):
        y = ops.cond(ops.greater(ops.sum(x), 0.0), ops.exp, ops.neg, x)
        carry, ys = ops.scan(lambda c, v: (ops.add(c, v), ops.mul(c, v)),
                             ops.mul(ops.getitem(x, 0), 0.0), x)
        big = ops.where(ops.greater(x, 0.0), x, float("-inf"))
        return y, carry, ys, ops.max(big), ops.cast(ops.getitem(x, (slice(1, None),
                                                                   slice(None, None, 2))),
                                                    np.float64)
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    g = make_graph(f, x)
    loaded, _ = load_sir(save_sir(g, tmp_path / "cf.sir"))
    for xi in (x, -np.abs(x)):
        for got, ref in zip(evaluate(loaded, xi), evaluate(g, xi)):
            np.testing.assert_array_equal(got, ref)


def test_file_has_only_json_and_safetensors(tmp_path):
    path = save_sir(_graph(), tmp_path / "m.sir")
    with zipfile.ZipFile(path) as z:
        assert sorted(z.namelist()) == ["constants.safetensors", "graph.json"]
        doc = json.loads(z.read("graph.json"))
    assert doc["format"] == "sporeling-sir" and doc["version"] == 1
    assert {e["prim"] for e in doc["graph"]["equations"]} >= {"matmul", "tanh", "softmax"}


def _rewrite(path, doc_change=None, blob=None, drop=None):
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    if doc_change:
        doc = json.loads(members["graph.json"])
        doc_change(doc)
        members["graph.json"] = json.dumps(doc).encode()
    if blob is not None:
        members["constants.safetensors"] = blob
    if drop:
        members.pop(drop)
    with zipfile.ZipFile(path, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)


def _set(*keys, value):
    def change(doc):
        node = doc
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return change


@pytest.mark.parametrize("damage, words", [
    (lambda p: _rewrite(p, _set("version", value=2)), "unsupported SIR version"),
    (lambda p: _rewrite(p, _set("version", value="1")), "not an integer in range in version"),
    (lambda p: _rewrite(p, _set("format", value="onnx")), "not a SIR file"),
    (lambda p: _rewrite(p, _set("graph", "equations", 0, "prim", value="os.system")),
     "unknown primitive 'os.system'"),
    (lambda p: _rewrite(p, _set("graph", "equations", 0, "params",
                                value={"x": {"$code": 1}})),
     r"unknown parameter in graph.equations\[0\].params; expected no parameters, got 'x'"),
    (lambda p: _rewrite(p, _set("graph", "equations", 0, "inputs", 0, value={"v": 999})),
     "undefined value"),
    (lambda p: _rewrite(p, _set("graph", "outputs", value=[{"c": "nope"}])), "constant is missing"),
    (lambda p: _rewrite(p, _set("graph", "equations", value=[])), "undefined value"),
    (lambda p: _rewrite(p, _set("graph", "equations", value=[{"prim": "add"}])),
     r"missing keys in graph.equations\[0\]; expected inputs, outputs, params, prim, "
     r"source, got \['inputs', 'outputs', 'params', 'source'\]"),
    (lambda p: _rewrite(p, blob=b"\x10\x00\x00\x00\x00\x00\x00\x00{not json at all"),
     "damaged safetensors in constants.safetensors"),
    (lambda p: _rewrite(p, drop="graph.json"), "not a SIR file"),
    (lambda p: p.write_bytes(p.read_bytes()[:len(p.read_bytes()) // 2]), "damaged or foreign"),
    (lambda p: p.write_bytes(b"\x80\x04\x95 a pickle"), "damaged or foreign"),
])
def test_bad_files_are_refused(tmp_path, damage, words):
    path = save_sir(_graph(), tmp_path / "m.sir")
    damage(path)
    with pytest.raises(SIRError, match=words) as info:
        load_sir(path)
    assert str(path) in str(info.value)


def test_flipped_byte_in_constants_fails_the_crc(tmp_path):
    path = save_sir(_graph(), tmp_path / "m.sir")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("constants.safetensors")
    # the member's data starts after its local header (30 bytes + name + extra)
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.file_size - 8
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(SIRError, match="damaged or foreign.*CRC"):
        load_sir(path)


def test_missing_file(tmp_path):
    with pytest.raises(SIRError, match="no such SIR file"):
        load_sir(tmp_path / "absent.sir")


def test_unencodable_parameter_names_primitive_and_parameter(tmp_path):
    g = _graph()
    eq = g.equations[0]
    g.equations[0] = Equation(eq.prim, eq.inputs, eq.outputs, {**eq.params, "fn": len},
                              eq.source)
    with pytest.raises(SIRError, match=f"{eq.prim.name}.*parameter 'fn'.*builtin_function"):
        save_sir(g, tmp_path / "m.sir")
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_save_replaces_atomically(tmp_path):
    path = save_sir(_graph(), tmp_path / "m.sir")
    before = path.read_bytes()
    g = _graph()
    g.equations[0] = Equation(g.equations[0].prim, g.equations[0].inputs,
                              g.equations[0].outputs, {"bad": object()}, None)
    with pytest.raises(SIRError):
        save_sir(g, path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["m.sir"]


def _leaves(node, path=()):
    """Every (path, value) of a JSON document, containers included."""
    yield path, node
    items = node.items() if isinstance(node, dict) else (
        enumerate(node) if isinstance(node, list) else ())
    for k, v in items:
        yield from _leaves(v, path + (k,))


_JUNK = [None, True, -1, 10**9, 0.5, "x", "float32", "add", [], [1, "a"], {}, {"v": 0},
         {"$tuple": 3}, {"$dtype": "nope"}, {"$slice": ["a"]}, {"$exception": "ValueError",
                                                               "args": 5}]


def test_random_damage_is_always_a_sir_error(tmp_path):
    """300 random edits of graph.json values and truncations: a SIRError or a graph that
    loads, never another exception."""
    rng = np.random.default_rng(1)
    x = np.zeros((2, 3), np.float32)
    g = make_graph(lambda x: ops.sum(ops.cast(ops.getitem(ops.exp(x), (slice(None), 1)),
                                              np.float64)), x)
    path = save_sir(g, tmp_path / "m.sir")
    original = path.read_bytes()
    with zipfile.ZipFile(path) as z:
        doc = json.loads(z.read("graph.json"))
    spots = [p for p, _ in _leaves(doc) if p]
    for trial in range(300):
        path.write_bytes(original)
        if trial % 3 == 0:
            path.write_bytes(original[:int(rng.integers(0, len(original)))])
        else:
            spot = spots[int(rng.integers(len(spots)))]
            junk = _JUNK[int(rng.integers(len(_JUNK)))]
            _rewrite(path, _set(*spot, value=junk))
        try:
            load_sir(path)
        except SIRError:
            pass
