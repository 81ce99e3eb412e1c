"""TVM's fused chains against NumPy's kernel: every node kind, broadcasting, NaN, odd
alignment, chains it does not generate, the backend stack, one module per program and
the disk cache."""
import os
import threading
import time

import numpy as np
import pytest

from sporeling.runtime import get_backend, get_kernels
from sporeling.runtime.testing import check_backend

from sporeling.tvm_backend import cache, kernels, subnormals
from sporeling.tvm_backend.elementwise import EXPRESSIONS

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")

_UNARY = ["neg", "abs", "square", "sqrt", "rsqrt", "reciprocal", "exp", "log", "sin", "cos",
          "tanh", "relu", "sigmoid", "silu"]
_BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "relu_grad", "tanh_grad",
           "sigmoid_grad"]
_WITH_PARAMS = [("pow_scalar", {"exponent": 3}), ("pow_scalar", {"exponent": 2}),
                ("clip_scalar", {"min": 0.7, "max": 1.5}), ("clip_scalar", {"max": 1.1}),
                ("leaky_relu", {"alpha": 0.2}), ("rsqrt_eps", {"eps": 1e-3})]


def _chain(dtype, shape, b_shape):
    """Every node kind once, each feeding the result with its own weight (so a wrong
    expression changes it); ``b`` broadcasts against ``a``."""
    nodes = []

    def node(name, operands, params=(), node_shape=shape):
        nodes.append((name, operands, tuple(sorted(dict(params).items())), node_shape, dtype))
        return ("node", len(nodes) - 1)

    a, b, cond = ("in", 0), ("in", 1), ("in", 2)
    terms = [node(n, (a,)) for n in _UNARY]
    terms += [node(n, (a, b)) for n in _BINARY]
    terms += [node(n, (b,), p, b_shape) for n, p in _WITH_PARAMS]
    terms.append(node("broadcast_to", (b,), {"shape": shape}))
    terms.append(node("where", (cond, a, b)))
    terms.append(node("leaky_relu", (node("sub", (a, ("const", 1.25, dtype))),), {"alpha": 0.5}))
    terms.append(node("cast", (node("cast", (a,), {"dtype": "int32"}, shape[:0] + shape),),
                      {"dtype": dtype}))
    acc = terms[0]
    for k, t in enumerate(terms[1:], 1):
        acc = node("add", (acc, node("mul", (t, ("const", 1.0 + k / 64, dtype)))))
    return tuple(nodes)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, b_shape", [((3, 50), (3, 50)), ((2, 8, 5, 6), (1, 8, 1, 1)),
                                            ((4, 33), (33,)), ((7,), ())])
def test_every_node_kind_agrees_with_numpys_kernel(dtype, shape, b_shape):
    kinds = set(_UNARY + _BINARY) | {n for n, _ in _WITH_PARAMS} | {"where", "cast",
                                                                   "broadcast_to"}
    assert kinds == set(EXPRESSIONS)
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 2.0, shape).astype(dtype)  # inside every node's domain
    b = rng.uniform(0.5, 2.0, b_shape).astype(dtype)
    cond = rng.random(shape) > 0.5
    expr = _chain(dtype, shape, b_shape)
    got = kernels.fused_elementwise(TVM, a, b, cond, expr=expr)
    want = NUMPY.run("fused_elementwise", a, b, cond, expr=expr)
    np.testing.assert_allclose(got, want, rtol=2e-6 if dtype == "float32" else 1e-13)


def test_the_conformance_suite_passes():
    assert check_backend(TVM, primitives=["fused_elementwise"], max_examples=40).checked == \
        ["fused_elementwise"]


def test_nan_propagates_as_in_numpy():
    x = np.array([np.nan, -1.0, 2.0, np.nan], np.float32)
    y = np.array([0.0, np.nan, 1.0, 3.0], np.float32)
    expr = (("maximum", (("in", 0), ("in", 1)), (), (4,), "float32"),
            ("relu", (("node", 0),), (), (4,), "float32"))
    np.testing.assert_array_equal(kernels.fused_elementwise(TVM, x, y, expr=expr),
                                  NUMPY.run("fused_elementwise", x, y, expr=expr))


@pytest.mark.parametrize("bound", [0.5, np.nan])
def test_a_constant_bound_keeps_numpys_nan_and_signed_zero(bound):
    # relu/clip compare with a constant (a form TVM vectorises); bit for bit NumPy's:
    # NaN propagates, equal values give the second (relu(-0.0) is 0.0), a NaN bound gives
    # NaN. Blocked-layout shape: the 16-channel inner loop is vectorised whole
    x = np.tile(np.array([np.nan, -0.0, 0.0, -1.0, 2.0, 0.5, -np.inf, np.inf], np.float32),
                2 * 3 * 2 * 2 * 2).reshape(2, 3, 2, 2, 16)
    shape = x.shape
    expr = (("relu", (("in", 0),), (), shape, "float32"),
            ("maximum", (("node", 0), ("const", bound, np.dtype("float32"))), (), shape,
             "float32"),
            ("minimum", (("in", 0), ("const", bound, np.dtype("float32"))), (), shape,
             "float32"),
            ("clip_scalar", (("node", 2),), (("max", 1.0), ("min", -0.25)), shape,
             "float32"),
            ("add", (("node", 1), ("node", 3)), (), shape, "float32"))
    got = kernels.fused_elementwise(TVM, x, expr=expr)
    want = NUMPY.run("fused_elementwise", x, expr=expr)
    np.testing.assert_array_equal(got, want)
    relu = (("relu", (("in", 0),), (), shape, "float32"),)
    for chain in (expr, relu):
        assert np.array_equal(np.signbit(kernels.fused_elementwise(TVM, x, expr=chain)),
                              np.signbit(NUMPY.run("fused_elementwise", x, expr=chain)))


@pytest.mark.skipif(not subnormals.FLUSHES, reason="subnormals flush on x86-64 only")
def test_subnormals_flush_to_zero_in_generated_code_and_nowhere_else():
    # XLA's way (JAX's jit): a subnormal result is zero, a subnormal operand reads as zero
    # -- and the caller's floating-point register is restored: NumPy keeps subnormals
    x = np.array([2e-38, 1e-39, 1.0, -3e-39], np.float32)
    expr = (("mul", (("in", 0), ("const", 0.5, "float32")), (), (4,), "float32"),
            ("mul", (("in", 0), ("const", 1e10, "float32")), (), (4,), "float32"),
            ("add", (("node", 0), ("node", 1)), (), (4,), "float32"))
    got = kernels.fused_elementwise(TVM, x, expr=expr)
    want = np.float32([0, 0, 0.5, 0]) + x * np.float32(1e10)  # 2e-38 / 2 is subnormal
    want[[1, 3]] = 0
    np.testing.assert_array_equal(got, want)
    assert np.float32(2e-38) * np.float32(0.5) == np.float32(1e-38)  # NumPy's, after
    assert NUMPY.run("fused_elementwise", x, expr=expr)[1] > 0


def test_arrays_at_any_alignment_and_strides():
    """NumPy's arrays are 16-byte aligned at best; views are not even that."""
    base = np.arange(1 + 4 * 64, dtype=np.float32)
    x = base[1:].reshape(4, 64)          # 4 bytes past an aligned start
    y = np.arange(128, dtype=np.float32).reshape(64, 2).T[0]  # strided
    expr = (("mul", (("in", 0), ("in", 1)), (), (4, 64), "float32"),)
    out = np.empty(4 * 64 + 1, np.float32)[1:].reshape(4, 64)
    got = kernels.fused_elementwise(TVM, x, y, out=out, expr=expr)
    assert got is out
    np.testing.assert_array_equal(out, x * y)


def test_a_chain_tvm_does_not_generate_runs_the_provider_below(caplog):
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    expr = (("erf", (("in", 0),), (), (3, 4), "float32"),
            ("mul", (("node", 0), ("const", 2.0, "float32")), (), (3, 4), "float32"))
    with caplog.at_level("INFO", logger="sporeling.tvm"):
        got = kernels.fused_elementwise(TVM, x, expr=expr)
    np.testing.assert_array_equal(got, NUMPY.run("fused_elementwise", x, expr=expr))
    assert "erf" in caplog.text


def test_trailing_axes_read_whole_or_not_at_all_are_one_loop():
    from sporeling.tvm_backend.elementwise import collapsed
    f = "float32"
    shape = (4, 6, 3, 3)
    expr = (("mul", (("in", 0), ("in", 1)), (), shape, f),
            ("add", (("node", 0), ("const", 0.5, f)), (), shape, f))
    specs = ((shape, "<f4"), ((4, 6, 1, 1), "<f4"))
    merged, merged_specs = collapsed(expr, specs)
    assert [n[3] for n in merged] == [(4, 6, 9)] * 2
    assert [s for s, _ in merged_specs] == [(4, 6, 9), (4, 6, 1)]
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal((4, 6, 1, 1)).astype(np.float32)
    want = NUMPY.run("fused_elementwise", a, b, expr=expr)
    np.testing.assert_allclose(kernels.fused_elementwise(TVM, a, b, expr=expr), want,
                               rtol=1e-6)
    out = np.zeros((4, 6, 3, 6), np.float32)[..., ::2]     # a strided out=
    kernels.fused_elementwise(TVM, a, b, out=out, expr=expr)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    strided = np.repeat(a, 2, axis=-1)[..., ::2]            # a strided input
    np.testing.assert_allclose(kernels.fused_elementwise(TVM, strided, b, expr=expr), want,
                               rtol=1e-6)


def test_one_function_serves_every_batch_size():
    # the outermost extent is the function's argument where every operand has that axis
    # whole or broadcast: a last partial batch or an evaluation's batch compiles nothing
    from sporeling.tvm_backend.elementwise import GENERIC, generic
    f = "float32"

    def chain(n):
        return (("add", (("in", 0), ("in", 1)), (), (n, 6, 5), f),
                ("mul", (("node", 0), ("in", 2)), (), (n, 6, 5), f),
                ("relu", (("node", 1),), (), (n, 6, 5), f))
    rng = np.random.default_rng(5)
    kernels.forget()  # count what this test compiles
    b = rng.standard_normal((6, 1)).astype(np.float32)       # per channel
    s = rng.standard_normal((1, 6, 5)).astype(np.float32)    # broadcast over the batch
    for n in (32, 30, 7, 32):
        x = rng.standard_normal((n, 6, 5)).astype(np.float32)
        got = kernels.fused_elementwise(TVM, x, b, s, expr=chain(n))
        np.testing.assert_array_equal(got, NUMPY.run("fused_elementwise", x, b, s,
                                                     expr=chain(n)))
    assert len(kernels._COMPILED) == 1
    # operands read whole: the loop over all but the batch axis is the vectorised one
    full = lambda n: (("mul", (("in", 0), ("in", 1)), (), (n, 4, 3), f),)  # noqa: E731
    for n in (32, 5):
        x, y = rng.standard_normal((2, n, 4, 3)).astype(np.float32)
        np.testing.assert_array_equal(kernels.fused_elementwise(TVM, x, y, expr=full(n)), x * y)
    assert len(kernels._COMPILED) == 2
    assert (((GENERIC, 12), "<f4"),) * 2 in [key[1] for key in kernels._COMPILED]
    expr, specs = generic(chain(30), (((30, 6, 5), "<f4"), ((6, 1), "<f4"), ((1, 6, 5), "<f4")))
    assert [n[3] for n in expr] == [(GENERIC, 6, 5)] * 3
    assert [s for s, _ in specs] == [(GENERIC, 6, 5), (6, 1), (1, 6, 5)]
    # an operand with another extent there (NumPy would refuse it) or a batch of one:
    # as it is
    assert generic(chain(1), (((1, 6, 5), "<f4"),) * 3) == (chain(1), (((1, 6, 5), "<f4"),) * 3)
    mixed = (((30, 6, 5), "<f4"), ((2, 6, 5), "<f4"))
    assert generic(chain(30), mixed) == (chain(30), mixed)


def test_zero_dimensional_chains_are_generated_too(caplog):
    f = "float32"
    expr = (("mul", (("in", 0), ("const", 2.0, f)), (), (), f),
            ("exp", (("node", 0),), (), (), f),
            ("add", (("node", 1), ("in", 1)), (), (), f))
    x, y = np.array(0.25, np.float32), np.array(1.5, np.float32)
    kernels.forget()
    with caplog.at_level("INFO", logger="sporeling.tvm"):
        got = kernels.fused_elementwise(TVM, x, y, expr=expr)
    assert got.shape == () and "not generated" not in caplog.text
    np.testing.assert_allclose(got, np.exp(0.5) + 1.5, rtol=1e-6)
    out = np.empty((), np.float32)
    assert kernels.fused_elementwise(TVM, x, y, out=out, expr=expr) is out
    np.testing.assert_allclose(out, np.exp(0.5) + 1.5, rtol=1e-6)


def test_16_bit_brain_floats_run_on_the_provider_below(caplog):
    import ml_dtypes   # NumPy has no bfloat16: its dtype is ml_dtypes' (kind "V")
    bf16 = np.dtype(ml_dtypes.bfloat16)
    x = np.linspace(-2, 2, 8).astype(bf16)
    expr = (("mul", (("in", 0), ("const", 2.0, bf16)), (), (8,), bf16),
            ("exp", (("node", 0),), (), (8,), bf16))
    with caplog.at_level("INFO", logger="sporeling.tvm"):
        got = kernels.fused_elementwise(TVM, x, expr=expr)
    assert got.dtype == bf16 and "bfloat16" in caplog.text
    np.testing.assert_array_equal(got, NUMPY.run("fused_elementwise", x, expr=expr))


def test_a_module_tvm_fails_on_is_retried_chain_by_chain(monkeypatch, caplog):
    kernels.forget()
    calls = []

    def failing(functions):
        calls.append(len(functions))
        raise RuntimeError("LLVM said no")

    monkeypatch.setattr(kernels, "_build", failing)
    monkeypatch.setattr(kernels.os, "cpu_count", lambda: 2)
    chains = _chains(4)
    with caplog.at_level("INFO", logger="sporeling.tvm"):
        kernels.compile_chains(chains)
    # two modules of two (built at once), then each chain alone
    assert calls == [2, 2, 1, 1, 1, 1] and all(kernels._COMPILED[c] is None for c in chains)
    assert "a module of 2 chains" in caplog.text
    x = np.ones(5, np.float32)
    np.testing.assert_array_equal(kernels.fused_elementwise(TVM, x, expr=chains[1][0]), x + 1)
    kernels.forget()


def test_the_two_modules_share_the_work_the_same_way_every_time():
    chains = _chains(5)
    keys = [kernels._key(c) for c in chains]
    first, second = kernels._halves(chains, keys)
    assert sorted(first[0] + second[0]) == sorted(chains)
    assert {len(first[0]), len(second[0])} == {2, 3}
    assert kernels._halves(chains, keys) == (first, second)  # a second process's too


def test_one_module_makes_its_tensorir_before_the_other_starts(monkeypatch):
    """Making TensorIR holds the GIL: the second module's waits for the first's, whose
    LLVM then runs while the second's is made."""
    kernels.forget()
    monkeypatch.setattr(kernels.os, "cpu_count", lambda: 2)
    spans = []
    real = kernels._prim_func

    def timed(chain):
        start = time.perf_counter()
        try:
            return real(chain)
        finally:
            spans.append((threading.current_thread().name, start, time.perf_counter()))

    monkeypatch.setattr(kernels, "_prim_func", timed)
    kernels.compile_chains(_chains(4))
    other = [s for s in spans if s[0] == "sporeling-tvm-compile"]
    mine = [s for s in spans if s[0] != "sporeling-tvm-compile"]
    assert len(other) == len(mine) == 2
    assert max(end for _, _, end in other) <= min(start for _, start, _ in mine)
    kernels.forget()


def test_the_stack_tvm_then_onednn_then_numpy():
    chain = TVM.chain()
    assert chain[0] == "tvm" and chain[-1] == "numpy"
    assert TVM.provider("fused_elementwise") == "tvm"
    assert TVM.provider("add") == "numpy"
    if "onednn" in chain:  # installed: its convolutions serve
        assert TVM.provider("conv2d") == "onednn"
    assert get_kernels().lookup("tvm", "conv2d") is None


def _chains(n):
    return [((("add", (("in", 0), ("const", float(k), "float32")), (), (5,), "float32"),),
             (((5,), "<f4"),)) for k in range(n)]


def test_a_programs_chains_compile_in_two_modules_kept_on_disk(monkeypatch):
    kernels.forget()
    monkeypatch.setattr(kernels.os, "cpu_count", lambda: 2)  # two, built at once
    built = []
    real = cache.load_or_build

    def counting(chains, build):
        built.append(len(chains))
        return real(chains, build)

    monkeypatch.setattr(cache, "load_or_build", counting)
    calls = [("fused_elementwise", {"expr": expr}, [((5,), np.float32)])
             for expr, _ in _chains(3)]
    TVM.prepare_kernels(calls + [("add", {}, [((5,), np.float32)] * 2)])
    assert sorted(built) == [1, 2]
    x = np.ones(5, np.float32)
    for k, (expr, _) in enumerate(_chains(3)):  # already compiled: no second build
        np.testing.assert_array_equal(kernels.fused_elementwise(TVM, x, expr=expr), x + k)
    assert sorted(built) == [1, 2]
    if cache._compiler():
        files = os.listdir(cache.cache_dir())
        assert len(files) == 2 and all(f.endswith(".so") for f in files)
        kernels.forget()  # a second process: the module loads from disk
        TVM.prepare_kernels(calls)
        np.testing.assert_array_equal(
            kernels.fused_elementwise(TVM, x, expr=_chains(3)[2][0]), x + 2)


def test_a_damaged_cached_module_is_compiled_again(caplog):
    if not cache._compiler():
        pytest.skip("no C compiler: nothing is cached")
    kernels.forget()
    kernels.compile_chains(_chains(1))
    (name,) = os.listdir(cache.cache_dir())
    # damaged as another writer would leave it (a new file at that name): rewriting the
    # library this process has mapped would pull its code from under it (a bus error,
    # for any loader of shared libraries)
    damaged = os.path.join(cache.cache_dir(), "damaged.tmp")
    with open(damaged, "wb") as f:
        f.write(b"not a shared library")
    os.replace(damaged, os.path.join(cache.cache_dir(), name))
    kernels.forget()
    with caplog.at_level("INFO", logger="sporeling.tvm"):
        kernels.compile_chains(_chains(1))
    assert "unreadable" in caplog.text
    x = np.ones(5, np.float32)
    np.testing.assert_array_equal(kernels.fused_elementwise(TVM, x, expr=_chains(1)[0][0]), x)


_SECOND_PROCESS = """
import sys
import numpy as np
from sporeling.runtime import get_backend
from sporeling.tvm_backend import kernels
expr = (("mul", (("in", 0), ("const", 3.0, "float32")), (), (6,), "float32"),
        ("exp", (("node", 0),), (), (6,), "float32"))
tvm = get_backend("tvm")
# and a reduction with both accumulators (a blocked batch norm's sum over N, H, W)
shape, axis = (8, 4, 6, 6, 16), (0, 2, 3)
square = (("mul", (("in", 0), ("in", 0)), (), shape, "float32"),)
tvm.prepare_kernels([("fused_elementwise", {"expr": expr}, [((6,), np.float32)]),
                     ("fused_reduce", {"expr": square, "axis": axis, "reduce": "sum"},
                      [(shape, np.float32)])])
x = np.linspace(0, 1, 6).astype(np.float32)
np.testing.assert_allclose(kernels.fused_elementwise(tvm, x, expr=expr), np.exp(3 * x),
                           rtol=1e-6)
y = np.linspace(-1, 1, np.prod(shape)).astype(np.float32).reshape(shape)
for _ in range(3):
    got = kernels.fused_reduce(tvm, y, expr=square, reduce="sum", axis=axis, keepdims=False)
    np.testing.assert_allclose(got, (y.astype(np.float64) ** 2).sum(axis), rtol=1e-5)
# and an LSTM's gradient (scratch buffers, lane slots: nothing from TVM's workspace)
from sporeling.runtime import get_kernels
from sporeling.tvm_backend import rnn_kernel
rng = np.random.default_rng(0)
ops = [rng.standard_normal(s).astype(np.float32) * 0.5 for s in
       [(4, 1, 3), (20, 3), (20, 5), (20,), (20,)]]
params = dict(num_layers=1, bidirectional=False, has_bias=True, has_state=False,
              has_lengths=False)
y = rng.standard_normal((4, 1, 5)).astype(np.float32)
grad = dict(params, cts=(True, False, False))
tvm.prepare_kernels([("lstm_grad", grad, [(a.shape, a.dtype) for a in ops + [y, y]])])
want = get_kernels().lookup("numpy", "lstm_grad")(get_backend("numpy"), *ops, y, y, **grad)
for _ in range(3):
    for g, w in zip(rnn_kernel.lstm_grad(tvm, *ops, y, y, **grad), want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
# and a group whose reductions' accumulators lie on its stack (8 bytes) and in memory the
# kernel passes (2 KiB: TVM's workspace allocator, absent here, would be a null call)
from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower
from sporeling.compiler.passes import PassContext
from sporeling.compiler.passes.fusion import fuse_elementwise
from sporeling.runtime.executor import run
from sporeling.tvm_backend.group_pass import group_kernels
from sporeling.tvm_backend.reduce_pass import fuse_reductions
def step(x, b):
    y = ops.tanh(ops.add(x, b))
    return ops.mul(y, 2.0), ops.sum(ops.mul(y, y), axis=0), ops.sum(ops.exp(b))
x = np.linspace(-1, 1, 64 * 256, dtype=np.float32).reshape(64, 256)
b = np.linspace(0, 1, 256, dtype=np.float32)
ctx = PassContext(backend=tvm)
graph = group_kernels(fuse_reductions(fuse_elementwise(make_graph(step, x, b), ctx), ctx),
                      ctx)
assert graph.primitive_counts() == {"fused_group": 1}, graph.primitive_counts()
program = lower(graph, backend=tvm).program
y = np.tanh(x + b)
for _ in range(3):
    for got, want in zip(run(program, [x, b]), (2 * y, (y * y).sum(0), np.exp(b).sum())):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
print("compiler" if "tvm" in sys.modules else "ffi only", "torch" in sys.modules)
"""


@pytest.mark.skipif(not cache._compiler(), reason="no C compiler: nothing is cached")
def test_a_cached_module_loads_without_tvms_compiler(tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, SPORELING_HOME=str(tmp_path / "home"))
    runs = [subprocess.run([sys.executable, "-c", _SECOND_PROCESS], env=env, text=True,
                           capture_output=True, timeout=120) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    assert runs[0].stdout.split()[0] == "compiler"      # the first process compiled
    assert runs[1].stdout.split() == ["ffi", "only", "False"]   # the second only loaded
