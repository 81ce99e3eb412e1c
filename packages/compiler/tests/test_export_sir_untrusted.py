"""SIR files from strangers: zip bombs, damaged and crafted containers, deep JSON and every
field of the schema are refused with a SIRError naming the file and the field, quickly and
in bounded memory; the exporter records no folders of its machine."""
import io
import json
import struct
import time
import tracemalloc
import zipfile
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sporeling.compiler import ops
from sporeling.compiler.export import (MAX_JSON_DEPTH, SIRError, bind_constants, encode_graph,
                                       load_sir, save_sir)
from sporeling.compiler.export.sir_codec import portable_source
from sporeling.compiler.export.sir_container import read_capped
from sporeling.compiler.export.sir_json import json_depth
from sporeling.compiler.ir import make_graph


def _model(x, w):
    return ops.softmax(ops.matmul(x, w), axis=-1), ops.sum(ops.getitem(x, (slice(1, None),)))


def _graph(w=None):
    w = np.arange(15, dtype=np.float32).reshape(5, 3) if w is None else w
    return bind_constants(make_graph(_model, np.zeros((4, 5), np.float32), w), [w], keep=1)


@pytest.fixture
def sir(tmp_path):
    return save_sir(_graph(), tmp_path / "m.sir", meta={"note": "hi"})


def _members(path) -> dict:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def _write(path, members: dict, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)


def _raw_zip(path, name: str, payload: bytes, *, size: int, crc: int, method: int = 8,
             flags: int = 0):
    """A one-member zip written byte by byte: ``payload`` as stored, with whatever size,
    CRC, method and flags the directory should declare."""
    head = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc,
                       len(payload), size, len(name), 0) + name.encode()
    central = struct.pack("<4s4B4H3L5H2L", b"PK\x01\x02", 20, 0, 20, 0, flags, method, 0,
                          0x21, crc, len(payload), size, len(name), 0, 0, 0, 0, 0, 0)
    central += name.encode()
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central),
                      len(head) + len(payload), 0)
    path.write_bytes(head + payload + central + end)


def _bomb(path, mib: int, declared: int | None = None):
    """``graph.json`` inflating to ``mib`` MiB of spaces inside a JSON string, deflated
    to about 1 KB per MiB: one block compressed once and repeated (each block after a
    full flush refers to nothing before it)."""
    spaces = b" " * 2**20
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    head, tail = b'{"format":"sporeling-sir","version":1,"meta":{"pad":"', b'"}}'
    parts = [z.compress(head) + z.flush(zlib.Z_FULL_FLUSH),
             z.compress(spaces) + z.flush(zlib.Z_FULL_FLUSH), z.compress(tail) + z.flush()]
    crc = zlib.crc32(head)
    for _ in range(mib):
        crc = zlib.crc32(spaces, crc)
    size = len(head) + mib * 2**20 + len(tail)
    _raw_zip(path, "graph.json", parts[0] + parts[1] * mib + parts[2],
             size=size if declared is None else declared, crc=zlib.crc32(tail, crc))
    return size


def _refused(path, match: str, **kw) -> SIRError:
    with pytest.raises(SIRError, match=match) as info:
        load_sir(path, **kw)
    assert str(path) in str(info.value)
    return info.value


def _bounded(path, match: str):
    tracemalloc.start()
    start = time.perf_counter()
    try:
        error = _refused(path, match)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seconds < 2 and peak < 8 * 2**20, (seconds, peak)
    return error


# ---- zip bombs and size limits ---------------------------------------------------------

def test_zip_bomb_is_refused_by_its_declared_size(tmp_path):
    path = tmp_path / "bomb.sir"
    size = _bomb(path, 1024)  # 1 GiB of graph.json in a 1 MB file
    assert path.stat().st_size < 2 * 2**20
    error = _bounded(path, rf"larger than the limit in graph.json; expected at most "
                           rf"{64 * 2**20} bytes \(max_graph_bytes\), got {size} bytes")
    assert error.field == "graph.json"


def test_zip_bomb_declaring_a_small_size_is_read_no_further(tmp_path):
    path = tmp_path / "bomb.sir"
    _bomb(path, 256, declared=100)  # zipfile stops at the declared size: the CRC differs
    assert _bounded(path, "damaged or foreign file in graph.json.*CRC").field == "graph.json"


class _Counting(io.BytesIO):
    def __init__(self, data):
        super().__init__(data)
        self.served = 0

    def read(self, n=-1):
        data = super().read(n)
        self.served += len(data)
        return data


@pytest.mark.parametrize("size, limit", [(0, 0), (10, 10), (11, 10), (5 * 2**20, 2**20 + 3)])
def test_reading_stops_one_byte_past_the_limit(size, limit):
    stream = _Counting(b"x" * size)
    data = read_capped(stream, limit)
    assert data == (b"x" * size if size <= limit else None)
    assert stream.served == min(size, limit + 1)


def test_graph_limit_is_an_argument(sir):
    size = len(_members(sir)["graph.json"])
    _refused(sir, rf"larger than the limit.*at most {size - 1} bytes.*"
                  "pass a larger max_graph_bytes", max_graph_bytes=size - 1)
    assert load_sir(sir, max_graph_bytes=size)[1] == {"note": "hi"}


def test_constants_limit_defaults_to_the_file_size(tmp_path):
    # the writer stores constants; deflated, 1 MiB of zeros fits in a few KB
    w = np.zeros((512, 512), np.float32)
    graph = bind_constants(make_graph(ops.add, w, w), [w], keep=1)
    path = save_sir(graph, tmp_path / "z.sir")
    _write(path, _members(path))
    assert path.stat().st_size < 2**16
    error = _refused(path, r"larger than the limit.*\(max_constants_bytes\), got 1048\d+ bytes")
    assert error.field == "constants.safetensors"
    loaded, _ = load_sir(path, max_constants_bytes=2 * 2**20)
    assert loaded.primitive_counts() == graph.primitive_counts()


# ---- damaged and crafted containers ----------------------------------------------------

def _graph_payload(sir):
    text = _members(sir)["graph.json"]
    return text, zlib.crc32(text)


def _encrypted(sir):
    text, crc = _graph_payload(sir)
    _raw_zip(sir, "graph.json", text, size=len(text), crc=crc, method=0, flags=1)


def _method_99(sir):  # AES, which zipfile does not implement
    text, crc = _graph_payload(sir)
    _raw_zip(sir, "graph.json", text, size=len(text), crc=crc, method=99)


def _bad_deflate(sir):  # block type 3 does not exist: zlib.error
    text, crc = _graph_payload(sir)
    _raw_zip(sir, "graph.json", b"\xff" + zlib.compress(text)[3:], size=len(text), crc=crc)


def _extra_member(sir):
    _write(sir, {**_members(sir), "run_me.py": b"import os"})


def _member_twice(sir):
    text = _members(sir)["graph.json"]
    with zipfile.ZipFile(sir, "a") as z, pytest.warns(UserWarning, match="Duplicate name"):
        z.writestr("graph.json", text)


@pytest.mark.parametrize("damage, words", [
    (_encrypted, r"an encrypted member in graph.json"),
    (_method_99, r"unsupported compression method in graph.json; expected stored or "
                 r"deflate, got 99"),
    (_bad_deflate, r"damaged or foreign file in graph.json.*invalid block type"),
    (_extra_member, r"unexpected zip members.*got \['run_me.py'\]"),
    (_member_twice, r"unexpected zip members.*'graph.json twice'"),
])
def test_crafted_containers_are_refused(sir, damage, words):
    damage(sir)
    _refused(sir, words)


# ---- graph.json: JSON itself -----------------------------------------------------------

def _with_text(sir, text: bytes):
    _write(sir, {**_members(sir), "graph.json": text})


def _nested_meta(sir, levels: int, opener=b"["):
    """graph.json nested ``levels`` deep in all (the document and meta are 2)."""
    doc = json.loads(_members(sir)["graph.json"])
    doc["meta"] = {"deep": "HOLE"}
    n = levels - 2
    body = (b"[" * n + b"0" + b"]" * n) if opener == b"[" else (b'{"a":' * n + b"0" + b"}" * n)
    _with_text(sir, json.dumps(doc).encode().replace(b'"HOLE"', body))


def test_depth_up_to_the_limit_loads(sir):
    _nested_meta(sir, MAX_JSON_DEPTH)
    assert load_sir(sir)[1]["deep"]


@pytest.mark.parametrize("opener", [b"[", b"{"])
def test_deeper_json_is_refused_without_recursing(sir, opener):
    _nested_meta(sir, MAX_JSON_DEPTH + 1, opener)
    _refused(sir, rf"nested too deeply in graph.json; expected at most {MAX_JSON_DEPTH}")


def test_a_hundred_thousand_levels_are_refused_quickly(sir):
    _with_text(sir, b"[" * 100_000 + b"]" * 100_000)
    start = time.perf_counter()
    _refused(sir, "nested too deeply")
    assert time.perf_counter() - start < 1


def _depth(node) -> int:
    children = node.values() if isinstance(node, dict) else node if isinstance(
        node, list) else None
    return 0 if children is None else 1 + max(map(_depth, children), default=0)


_TRICKY = st.text(alphabet='[]{}"\\ab\n\u00e9', max_size=8)
_JSON = st.recursive(st.none() | st.integers() | _TRICKY,
                     lambda inner: st.lists(inner, max_size=3) |
                     st.dictionaries(_TRICKY, inner, max_size=3), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(doc=_JSON, ascii_only=st.booleans())
def test_depth_is_counted_without_parsing(doc, ascii_only):
    """Strings full of brackets, quotes and backslashes, escaped or raw UTF-8."""
    data = json.dumps(doc, ensure_ascii=ascii_only).encode()
    assert json_depth(data, 1000) == _depth(doc)


def test_brackets_inside_strings_do_not_count(sir):
    doc = json.loads(_members(sir)["graph.json"])
    doc["meta"] = {"text": "[{" * 500 + '\\"[' * 10}
    _with_text(sir, json.dumps(doc).encode())
    assert load_sir(sir)[1]["text"].startswith("[{[{")


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace(b'"note":"hi"', b'"note":NaN'), "invalid JSON.*NaN is not JSON"),
    (lambda t: t.replace(b'"note":"hi"', b'"note":"hi","note":"ho"'), r"given twice.*'note'"),
    (lambda t: t.replace(b'"note":"hi"', b'"note":' + b"7" * 5000), "invalid JSON.*digits"),
    (lambda t: t.replace(b'"hi"', b'"h\xff"'), "not UTF-8 text in graph.json"),
    (lambda t: b"\xef\xbb\xbf" + t, "invalid JSON.*BOM"),
    (lambda t: t + b"]", "invalid JSON.*Extra data"),
])
def test_malformed_json_is_refused(sir, change, words):
    _with_text(sir, change(_members(sir)["graph.json"]))
    assert _refused(sir, words).field == "graph.json"


# ---- graph.json: the schema ------------------------------------------------------------

def _doc(sir):
    return json.loads(_members(sir)["graph.json"])


def _eq(doc, prim):
    return next(e for e in doc["graph"]["equations"] if e["prim"] == prim)


def _edit(change):
    def apply(sir):
        doc = _doc(sir)
        change(doc)
        _with_text(sir, json.dumps(doc).encode())
    return apply


def _softmax_field(doc):
    return f"graph.equations[{doc['graph']['equations'].index(_eq(doc, 'softmax'))}]"


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d.update(version=True), "version", r"not an integer in range.*got True"),
    (lambda d: d.update(version=1.0), "version", "not an integer in range"),
    (lambda d: d.update(extra=1), "graph.json", r"unknown keys.*got \['extra'\]"),
    (lambda d: d.update(meta=[]), "meta", "not a JSON object"),
    (lambda d: d.update(producer=5), "producer", "not a string"),
    (lambda d: d["graph"].update(name=5), "graph.name", "not a string"),
    (lambda d: d["graph"].update(inputs={}), "graph.inputs", "not a JSON list"),
    (lambda d: d["graph"]["inputs"][0].update(id=True), "graph.inputs[0].id",
     "not an integer in range"),
    (lambda d: d["graph"]["inputs"][0].update(shape=[4, -5]), "graph.inputs[0].shape[1]",
     "not an integer in range"),
    (lambda d: d["graph"]["inputs"][0].update(shape=[2] * 65), "graph.inputs[0].shape",
     "impossible shape"),
    (lambda d: d["graph"]["inputs"][0].update(shape=[2**40, 2**40]), "graph.inputs[0].shape",
     "impossible shape"),
    (lambda d: d["graph"]["inputs"][0].update(dtype="object"), "graph.inputs[0].dtype",
     "not a numeric dtype name"),
    (lambda d: d["graph"]["inputs"][0].update(dtype=">f4"), "graph.inputs[0].dtype",
     "not a numeric dtype name"),
    (lambda d: d["graph"]["inputs"][0].update(name="x"), "graph.inputs[0]",
     r"unknown keys.*\['name'\]"),
    (lambda d: d["graph"]["equations"][0].update(source=5), "graph.equations[0].source",
     "not a string"),
    (lambda d: d["graph"]["equations"][0].update(inputs=[{"v": 0, "c": "c0"}]),
     "graph.equations[0].inputs[0]", "malformed operand"),
    (lambda d: d["graph"]["outputs"].append({"s": 300, "dtype": "int8"}), "graph.outputs[2].s",
     "scalar that its dtype cannot hold"),
])
def test_schema_fields_are_checked(sir, change, field, words):
    _edit(change)(sir)
    assert _refused(sir, words).field == field


@pytest.mark.parametrize("params, field, words", [
    ({"axis": -1, "lambda": 1}, "params", r"bad parameter name.*not a keyword.*got 'lambda'"),
    ({"axis": -1, "out": 1}, "params", "bad parameter name"),
    ({"axis": -1, "x y": 1}, "params", "bad parameter name"),
    ({"axis": -1, "foo": 1}, "params", r"unknown parameter.*expected axis, got 'foo'"),
    ({"axis": {"$code": "rm"}}, "params['axis']", "unknown parameter tag"),
    ({"axis": {"$tuple": [0], "x": 1}}, "params['axis']", r"unknown keys.*\['x'\]"),
    ({"axis": {"$slice": [1, 2]}}, "params['axis'].$slice", "a list of 3"),
    ({"axis": {"$scalar": 300, "dtype": "int8"}}, "params['axis'].$scalar", "cannot hold"),
    ({"axis": {"$float": "1e3"}}, "params['axis']", "malformed non-finite float"),
    ({"axis": {"$ellipsis": 1}}, "params['axis'].$ellipsis", "malformed Ellipsis"),
    ({"axis": {"$exception": "ValueError", "args": 5}}, "params['axis'].args",
     "not a JSON list"),
    ({"axis": {"$exception": "UnicodeDecodeError", "args": []}}, "params['axis'].args",
     "arguments its class refuses"),
    ({"axis": {"$exception": "os", "args": []}}, "params['axis'].$exception",
     "not a builtin one"),
])
def test_equation_parameters_are_checked(sir, params, field, words):
    doc = _doc(sir)
    _edit(lambda d: _eq(d, "softmax").update(params=params))(sir)
    assert _refused(sir, words).field == f"{_softmax_field(doc)}.{field}"


def test_unused_constants_are_refused(sir):
    from safetensors.numpy import save
    members = _members(sir)
    members["constants.safetensors"] = save({"c0": np.ones((5, 3), np.float32),
                                             "payload": np.zeros(3, np.float32)})
    _write(sir, members)
    assert _refused(sir, r"never refers to.*\['payload'\]").field == "constants.safetensors"


# ---- random damage ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def original(tmp_path_factory):
    graph = _graph()
    path = save_sir(graph, tmp_path_factory.mktemp("fuzz") / "m.sir", meta={"n": [1, 2]})
    return path, path.read_bytes(), encode_graph(graph)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)),
                      max_size=4),
       cut=st.none() | st.floats(0, 1, exclude_max=True))
def test_random_bytes_damage_is_a_sir_error_or_the_original(original, flips, cut):
    path, data, (want, want_consts) = original
    data = bytearray(data)
    for at, xor in flips:
        data[int(at * len(data))] ^= xor
    damaged = path.with_name("damaged.sir")
    damaged.write_bytes(bytes(data if cut is None else data[:int(cut * len(data))]))
    try:
        graph, meta = load_sir(damaged)
    except SIRError:
        return
    got, consts = encode_graph(graph)  # what loads is what was saved
    assert (got, meta) == (want, {"n": [1, 2]})
    assert consts.keys() == want_consts.keys()
    for name, value in consts.items():
        np.testing.assert_array_equal(value, want_consts[name])


# ---- what the exporter records ---------------------------------------------------------

def test_sources_keep_the_file_name_and_line_but_no_folders(sir):
    sources = {e["source"] for e in _doc(sir)["graph"]["equations"]}
    assert sources and all(s.startswith("test_export_sir_untrusted.py:") for s in sources)
    assert portable_source("C:\\Users\\me\\net.py:12") == "net.py:12"
    assert portable_source("/home/me/net.py:12") == "net.py:12"
    assert portable_source("<stdin>:3") == "<stdin>:3" and portable_source(None) is None
