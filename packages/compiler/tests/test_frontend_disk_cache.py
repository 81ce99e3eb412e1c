"""Issue 21: the AST conversion is kept on disk, so a later process neither reads a
function's source nor rewrites nor compiles it; damaged, edited or stale entries are
rebuilt."""
import base64
import hashlib
import importlib.util
import inspect
import json
import marshal
import os
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

from sporeling.compiler.frontend import ast_convert, convert, disk_cache, is_converted
from sporeling.compiler.ir import make_graph

SOURCE = '''
from sporeling.compiler import ops


def scaled(x, flag=True):
    if ops.greater(ops.sum(x), 0.0):
        x = ops.mul(x, {factor})
    else:
        x = ops.neg(x)
    if not flag:
        raise ValueError("flag")
    return x


def calls_scaled(x):
    return scaled(x)
'''


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SPORELING_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(disk_cache.DISABLE_ENV, raising=False)
    # equal code objects share conversions in memory (code equality ignores the file)
    _new_process(monkeypatch, source_readable=True)
    return tmp_path / "home" / "cache" / "frontend"


def _module(path, factor=2.0, name="disk_cache_user"):
    path.write_text(SOURCE.format(factor=factor))
    spec = importlib.util.spec_from_file_location(f"{name}_{factor:g}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _new_process(monkeypatch, *, source_readable=False):
    """What a new process starts with: no conversion in memory (and, unless asked, no way
    to read a function's source: a hit must not need it)."""
    monkeypatch.setattr(ast_convert, "_CODE_CACHE", {})
    monkeypatch.setattr(ast_convert, "_SUMMARIES", {})
    monkeypatch.setattr(ast_convert, "_FN_CACHE", type(ast_convert._FN_CACHE)())
    if not source_readable:
        def no_source(obj):
            raise OSError("source read in a process that should find it on disk")
        monkeypatch.setattr(ast_convert, "_source", no_source)


def _error_line(fn, x):
    """The line of ``fn``'s file a Python error inside its converted body points at."""
    with pytest.raises(ValueError) as info:
        convert(fn)(x, flag=False)
    frames = [f for f in traceback.extract_tb(info.value.__traceback__)
              if f.filename == fn.__code__.co_filename]
    return frames[-1].lineno, frames[-1].colno


X = np.ones(3, np.float32)


def test_a_second_process_reads_no_source(tmp_path, home, monkeypatch):
    module = _module(tmp_path / "user.py")
    graph = make_graph(convert(module.calls_scaled), X)
    where = _error_line(module.scaled, X)
    assert sorted(os.listdir(home)) and "cond" in graph.primitive_counts()

    _new_process(monkeypatch)
    # nor compiles it: the entry holds the module's code
    monkeypatch.setattr(ast_convert, "module_from", lambda record: pytest.fail("recompiled"))
    again = convert(module.calls_scaled)
    assert is_converted(again) and is_converted(convert(module.scaled))
    assert make_graph(again, X).primitive_counts() == graph.primitive_counts()
    # positions survive the disk: tracebacks point at the same line and column
    assert _error_line(module.scaled, X) == where
    np.testing.assert_allclose(convert(module.scaled)(np.ones(3, np.float32)), 2.0)


def _entry(home, module):
    """The entry file of ``module.scaled`` (the one holding a rewrite)."""
    for name in os.listdir(home):
        body = json.loads((home / name).read_bytes().partition(b"\n")[2])
        if body["rewrite"] is not None and "ValueError" in body["rewrite"]["source"]:
            return home / name
    raise AssertionError("no entry with the rewrite of scaled")


def _resign(body: bytes) -> bytes:
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def _truncated(raw):
    return raw[:len(raw) // 2]


def _garbage(raw):
    return b"\x00\xff not json"


def _edited(raw):  # the digest written with it no longer matches
    return raw.replace(b"ops.neg", b"ops.abs")


def _positions_off(raw):  # a consistent file (without its compiled code, as an entry
    # written before the code was kept) whose positions do not fit its text
    body = json.loads(raw.partition(b"\n")[2])
    body["rewrite"]["positions"] = body["rewrite"]["positions"][:-4]
    del body["rewrite"]["code"]
    return _resign(json.dumps(body).encode())


def _not_python(raw):
    body = json.loads(raw.partition(b"\n")[2])
    body["rewrite"]["source"] = "def (:"
    del body["rewrite"]["code"]
    return _resign(json.dumps(body).encode())


def _code_garbage(raw):  # consistent, but its compiled code does not load
    body = json.loads(raw.partition(b"\n")[2])
    body["rewrite"]["code"] = base64.b64encode(b"\xe3 not marshal data").decode()
    return _resign(json.dumps(body).encode())


def _code_not_code(raw):
    body = json.loads(raw.partition(b"\n")[2])
    body["rewrite"]["code"] = base64.b64encode(marshal.dumps(42)).decode()
    return _resign(json.dumps(body).encode())


def _bad_summary(raw):  # consistent, but not a summary this version writes
    body = json.loads(raw.partition(b"\n")[2])
    body["calls"] = [["name"], 3]
    return _resign(json.dumps(body).encode())


@pytest.mark.parametrize("damage", [_truncated, _garbage, _edited, _positions_off,
                                    _not_python, _bad_summary, _code_garbage, _code_not_code])
def test_a_damaged_or_edited_entry_is_ignored_and_rebuilt(tmp_path, home, monkeypatch,
                                                          damage):
    module = _module(tmp_path / "user.py")
    convert(module.scaled)
    path = _entry(home, module)
    good = path.read_bytes()
    path.write_bytes(damage(good))

    _new_process(monkeypatch, source_readable=True)
    converted = convert(module.scaled)
    assert is_converted(converted)
    neg = np.full(3, -1.0, np.float32)
    np.testing.assert_allclose(converted(neg), 1.0)  # ops.neg, not an edited ops.abs
    assert _record(path.read_bytes()) == _record(good)  # rebuilt and written again


def _record(raw: bytes) -> dict:
    """An entry's record, its compiled code loaded: marshal's bytes for equal code may
    differ (it flags objects referenced more than once, which depends on what else holds
    them: an entry rebuilt in another state of the process)."""
    body = json.loads(raw.partition(b"\n")[2])
    if body.get("rewrite"):
        body["rewrite"]["code"] = marshal.loads(base64.b64decode(body["rewrite"]["code"]))
    return body


def test_an_edited_function_misses(tmp_path, home, monkeypatch):
    path = tmp_path / "user.py"
    first = _module(path, factor=2.0)
    np.testing.assert_allclose(convert(first.scaled)(X), 2.0)
    files = sorted(os.listdir(home))

    _new_process(monkeypatch, source_readable=True)
    second = _module(path, factor=3.0)  # same file, same function, another body
    np.testing.assert_allclose(convert(second.scaled)(X), 3.0)
    assert sorted(os.listdir(home)) == files  # one entry per function: replaced


def test_nothing_is_cached_when_switched_off(tmp_path, home, monkeypatch):
    monkeypatch.setenv(disk_cache.DISABLE_ENV, "0")
    module = _module(tmp_path / "user.py")
    assert is_converted(convert(module.scaled))
    assert not home.exists()


def test_an_unwritable_cache_only_costs_the_rewrite(tmp_path, home, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("SPORELING_HOME", str(blocker))  # a file: no folder can be made
    module = _module(tmp_path / "user.py")
    np.testing.assert_allclose(convert(module.scaled)(X), 2.0)


CASES = '''
def loops(x, n):
    total = x * 0
    for i in range(n):
        if i % 2:
            continue
        while total.sum() < 10:
            total = total + x
            if total.max() > 5:
                break
        total = total - f"{i}".count("1")
    return [t for t in (total,)][0] if n else (lambda: x)()


def early(x):
    try:
        y = x + 1
    except (TypeError, ValueError) as error:
        raise RuntimeError("no") from error
    if (z := y.sum()) > 0:
        return y, {"k": z}
    assert x is not None, "missing"
    return -y, {}
'''


@pytest.mark.parametrize("name", ["loops", "early"])
def test_stored_rewrites_compile_to_the_same_code(tmp_path, name):
    path = tmp_path / "cases.py"
    path.write_text(CASES)
    spec = importlib.util.spec_from_file_location("disk_cache_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)
    made = ast_convert._rewrite(fn, ast_convert._parse(fn))
    record = disk_cache.rewrite_record(made)
    assert record is not None
    record = json.loads(json.dumps(record))  # as read back from the file
    compiled = compile(made, fn.__code__.co_filename, "exec")
    before = ast_convert._converted(compiled, fn)
    after = ast_convert._converted(compile(disk_cache.module_from(record),
                                           fn.__code__.co_filename, "exec"), fn)
    stored = json.loads(json.dumps(disk_cache.with_code(record, compiled)))
    assert disk_cache.code_from(stored) == compiled  # the code itself, as compiled

    def codes(code):
        yield code
        for c in code.co_consts:
            if hasattr(c, "co_code"):
                yield from codes(c)
    for a, b in zip(codes(before), codes(after), strict=True):
        assert a.co_code == b.co_code and a.co_names == b.co_names
        assert list(a.co_positions()) == list(b.co_positions())


SCRIPT = textwrap.dedent('''
    import importlib.util, sys
    import numpy as np
    from sporeling.compiler.frontend import ast_convert, convert, is_converted
    reads = []
    source = ast_convert._source
    def counting(obj):
        reads.append(obj)
        return source(obj)
    ast_convert._source = counting
    spec = importlib.util.spec_from_file_location("user", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = convert(module.calls_scaled)(np.ones(3, np.float32))
    print(is_converted(convert(module.calls_scaled)), float(out.sum()), len(reads))
''')


def test_a_real_second_process_uses_the_disk_entry(tmp_path):
    user = tmp_path / "user.py"
    user.write_text(SOURCE.format(factor=2.0))
    env = dict(os.environ, SPORELING_HOME=str(tmp_path / "home"))
    env.pop(disk_cache.DISABLE_ENV, None)
    runs = [subprocess.run([sys.executable, "-c", SCRIPT, str(user)], env=env,
                           capture_output=True, text=True, timeout=120) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    first, second = (run.stdout.split() for run in runs)
    assert first[:2] == second[:2] == ["True", "6.0"]
    assert int(first[2]) > 0 and int(second[2]) == 0  # the second read no source


def test_conversions_run_one_at_a_time(monkeypatch):
    """CPython 3.11's ast.parse/compile are not thread-safe (a local parallel run's rank
    threads once raised "AST constructor recursion depth mismatch"): a conversion holds
    the frontend's lock."""
    from sporeling.compiler.frontend import ast_convert
    held = []
    real = ast_convert._converted_code

    def spy(fn, owner):
        held.append(ast_convert._LOCK._is_owned())
        return real(fn, owner)

    monkeypatch.setattr(ast_convert, "_converted_code", spy)

    def branchy(x):
        if x > 0:
            return x
        return -x

    ast_convert.convert(branchy)
    assert held == [True]


def _decorated(fn):
    return fn


class _Holder:
    @_decorated
    def method(self, x):
        if x > 0:
            return x
        return -x


def test_a_functions_source_is_what_inspect_reads():
    """ast_convert._source reads the lines itself (no search of sys.modules); it finds
    what inspect.getsource finds: decorated, nested and one-line definitions, methods."""
    def nested(x):
        def inner(y):
            return y * 2
        return inner(x)

    def one_line(x): return x + 1  # noqa: E704
    for fn in (_Holder.method, nested, one_line, _error_line, _new_process):
        assert ast_convert._source(fn.__code__) == inspect.getsource(fn.__code__)
    lam = lambda x: x  # noqa: E731 - a lambda's line is found by inspect's own search
    assert ast_convert._source(lam.__code__) == inspect.getsource(lam.__code__)
