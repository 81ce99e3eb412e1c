"""``fused_elementwise`` and ``fused_reduce`` compiled by TVM, once per (chain, input shapes
and dtypes; for a reduction also its axes and kind).

Graph mode hands the backend a program's calls before it first runs
(:meth:`TvmBackend.prepare_kernels`): every fused chain of the program is generated
(:mod:`.elementwise`) and compiled by LLVM in one module -- one LLVM run for all of them,
half the time of one run each; two modules built at once where there are two cores -- and
the modules are kept on disk (:mod:`.cache`), so a second process loads them instead of
compiling. A chain met later (PyNative, a new shape)
compiles alone on its first call. A call then costs one dictionary lookup and one call
through TVM's FFI, which reads the NumPy arrays in place (DLPack). A chain TVM does not
generate runs the provider below (oneDNN's stack or NumPy), said once in the log
(``sporeling.tvm``).
"""
from __future__ import annotations

import functools
import logging
import math
import os
import threading
from pathlib import Path

import numpy as np

from sporeling.compiler.passes import dump_dir
from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from . import cache
from .elementwise import collapsed, generic, prim_func, resolved, unsupported
from .group import Group, generic_group, layout
from .reduction import reduce_prim_func, reduce_unsupported, scratch, value_shape
from .subnormals import flushing
from .target import target, tvm
from .tir_text import Generated, parsed

_ndarray = np.ndarray
__all__ = ["fused_elementwise", "fused_reduce", "compile_chains", "function", "compact",
           "call_chain", "generated", "made_call", "below_call", "out_target", "written", "forget",
           "say_once", "packed", "views"]

log = logging.getLogger("sporeling.tvm")
_COMPILED: dict = {}  # (expr, input specs) -> TVM function, or None: the provider below
NAMES: dict = {}  # id(function) -> (a name for it, the same in every process; the function)
_LOCK = threading.Lock()


def _spec(shape, dtype) -> tuple:
    return tuple(shape), np.dtype(dtype).str


def compile_chains(chains) -> None:
    """Compile every chain of ``chains`` not compiled yet, in one module (loaded from the
    disk cache when a previous process compiled the same set): ``(expr, input specs)`` of
    an elementwise chain, in its :func:`~.elementwise.collapsed` form (what calls look up),
    or ``(expr, input specs, axis, "sum" | "mean")`` of a reduction, or the spec of a
    function written as TVMScript text (:class:`~.tir_text.Generated`: an RNN's, a
    pooling's, a cross entropy's, a normalisation's)."""
    chains = [_normal(chain) for chain in chains]
    with _LOCK:
        wanted = []
        for chain in dict.fromkeys(c for c in chains if c not in _COMPILED):
            why = None if isinstance(chain, Generated) else _group_why(chain) \
                if isinstance(chain, Group) else \
                reduce_unsupported(*chain[:3]) if _reduction(chain) else unsupported(*chain)
            if why is None:
                wanted.append(chain)
            else:
                _COMPILED[chain] = None
                say_once(("unsupported", why), "fused chain not generated (%s): the "
                          "provider below runs it", why)
        if wanted and not _load(wanted):
            for chain in wanted:  # TVM failed on one: find which
                if not _load([chain]):
                    _COMPILED[chain] = None
                    log.warning("TVM could not compile a fused chain: the provider below "
                                "runs it")


def _normal(chain):
    """``chain`` as compiled functions are keyed: an elementwise chain collapsed, its
    outermost extent generic where it can be, a group's batch extent generic (one function
    for every batch size)."""
    if isinstance(chain, Group):
        return generic_group(chain)
    return chain if _reduction(chain) or isinstance(chain, Generated) else \
        collapsed(*generic(*chain))


def _group_why(group) -> str | None:
    plan = layout(group.members, group.specs)
    return plan if isinstance(plan, str) else None


def _reduction(chain) -> bool:
    """A reduction's ``(expr, specs, axis, reduce)``, not a chain's ``(expr, specs)``."""
    return isinstance(chain, tuple) and len(chain) == 4


def _prim_func(chain):
    """The TensorIR function of a chain, a reduction or a function written as text."""
    if isinstance(chain, Generated):
        return parsed(chain.source())
    if isinstance(chain, Group):
        from .group_codegen import group_prim_func
        return group_prim_func(layout(chain.members, chain.specs))["main"]
    return (reduce_prim_func if _reduction(chain) else prim_func)(*chain)["main"]


def _load(chains: list) -> bool:
    """Load ``chains``' functions from the disk cache (no TVM compiler needed: a second
    process loads them through TVM's FFI alone) or generate and compile them, into
    _COMPILED; whether that worked. On a machine of two cores or more, two or more
    functions make two modules, compiled (or loaded) at once on two threads: TVM's LLVM
    releases the GIL while it optimises and writes code, most of a cold start (two
    modules of 12 chains each: 1.05 s one after the other, 0.58 s together). Making
    TensorIR is Python: the first module (the heaviest function's) makes its own before
    the second starts, so that its LLVM runs while the second's is made."""
    keys = [_key(chain) for chain in chains]
    if len(chains) < 2 or (os.cpu_count() or 1) < 2 or dump_dir() is not None:
        return _load_module(chains, keys)
    first, second = _halves(chains, keys)
    done: list = []
    generated = threading.Event()  # the first module's TensorIR is made
    other = threading.Thread(target=lambda: done.append(_load_module(*first, made=generated)),
                             name="sporeling-tvm-compile")
    other.start()
    ok = _load_module(*second, after=generated)
    other.join()
    return ok and done == [True]


def _key(chain):
    """What determines ``chain``'s code: a function written as text is keyed by its text
    (its spec alone would find a module an earlier version of the generator wrote)."""
    return chain.source() if isinstance(chain, Generated) else \
        chain.key() if isinstance(chain, Group) else chain


def _halves(chains: list, keys: list) -> tuple:
    """``chains`` (and their keys) in two parts of about equal work, the same parts for
    the same chains (so a second process finds both modules): each function weighs its
    text's length, or a chain's 2,000 characters (a group's, each member's)."""
    def weight(k):
        key = keys[k]
        return len(key) if isinstance(key, str) else \
            2000 * len(chains[k].members) if isinstance(chains[k], Group) else 2000
    parts, loads = ([], []), [0, 0]
    for k in sorted(range(len(chains)), key=lambda k: (-weight(k), k)):
        lighter = 0 if loads[0] <= loads[1] else 1
        parts[lighter].append(k)
        loads[lighter] += weight(k)
    return tuple(([chains[k] for k in sorted(part)], [keys[k] for k in sorted(part)])
                 for part in parts)


def _load_module(chains: list, keys: list, made=None, after=None) -> bool:
    """One module of ``chains`` (their cache ``keys``), from the disk cache or built;
    ``made``: an event set once its TensorIR is made (or not needed), ``after``: one to
    wait for before making it."""
    names = {f"chain{k}": chain for k, chain in enumerate(chains)}
    functions: dict = {}

    def build():
        if after is not None:
            after.wait()
        try:
            functions.update((name, _prim_func(chain)) for name, chain in names.items())
        finally:
            if made is not None:
                made.set()
        return _build(functions)
    dump = dump_dir()
    try:
        # dumping: compiled anew, so that there is LLVM to write
        library = build() if dump is not None else cache.load_or_build(keys, build)
    except Exception as error:  # noqa: BLE001 - TVM's errors have no common class
        log.info("TVM failed on a module of %d chains (%s)", len(chains), error)
        return False
    finally:
        if made is not None:
            made.set()
    module = cache.key(keys)
    if dump is not None:
        _dump(dump, module, functions, library)
    for name, chain in names.items():
        fn = _COMPILED[chain] = library[name]
        NAMES[id(fn)] = (f"sporeling.{module}.{name}", fn)
    return True


def _build(functions):
    module = tvm().IRModule({name: flushing(f).with_attr("global_symbol", name)
                             for name, f in functions.items()})
    return tvm().compile(module, target=target())


def _dump(root, key: str, functions: dict, library) -> None:
    """``SPORELING_DUMP``: the module's TensorIR and LLVM as ``root/tvm/<key>.tir`` and
    ``.ll`` (a write that fails is said in the log, and compiling goes on)."""
    try:
        folder = Path(root) / "tvm"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{key}.tir").write_text("\n\n".join(
            f"# {name}\n{f.script()}" for name, f in functions.items()) + "\n")
        (folder / f"{key}.ll").write_text(library.mod.inspect_source("ll"))
    except OSError as error:
        log.warning("could not write the generated code to %s (%s)", root, error)


def generated(kind: str, why: str | None, make_spec) -> tuple:
    """``(spec, function)`` for a call of primitive ``kind``: ``make_spec()`` and its
    compiled function, or ``(None, None)`` where ``why`` says it is not generated (said
    once in the log); the function is None too where TVM failed on it."""
    if why is not None:
        say_once((kind, why), "%s not generated (%s): the provider below runs it", kind, why)
        return None, None
    spec = make_spec()
    return spec, function(spec)


def spec_function(kind: str, spec):
    """The compiled function of ``spec`` (a function written as text; None: none, or TVM
    failed on it)."""
    return None if spec is None else generated(kind, None, lambda: spec)[1]


_MADE: dict = {}  # a kernel's call key -> the call made for it (see made_call)


def made_call(key, make):
    """The call ``make()`` made for ``key`` (a primitive's name, operand shapes and dtypes,
    parameters), made on the first use of the key: the RNN, pooling and row kernels'."""
    call = _MADE.get(key)
    if call is None:
        call = _MADE[key] = make()
    return call


def invoke(fn, *args):
    """``fn(*args)``: a generated function's call, recorded while a program is
    (:mod:`sporeling.runtime.executor.capture`: the kernel's work is native unless it
    says otherwise -- every copy below does)."""
    if RECORDING:
        capture.packed(fn, args)
        capture.pure()
    return fn(*args)


def below_call(kind: str, params: dict):
    """``call(backend, inputs, out)`` running ``kind`` on the providers below."""
    def below(backend, inputs, out):
        if RECORDING:
            capture.impure("runs the provider below")
        return backend.below_kernel(kind)(backend, *inputs, out=out, **params)
    return below


def call_chain(primitive: str, params: dict, specs):
    """``(chain, why)`` for a call of ``primitive`` with ``params`` on operands of these
    ``(shape, dtype)``: what :func:`compile_chains` compiles for it (None: nothing), and
    why TVM does not generate it, where TVM generates that primitive (None: it does, or
    the primitive is none of TVM's)."""
    specs = tuple((tuple(s), np.dtype(d).str) for s, d in specs)
    if primitive == "fused_elementwise":
        chain = params["expr"], specs
        return chain, unsupported(*collapsed(*chain))
    if primitive == "fused_reduce":
        chain = params["expr"], specs, params["axis"], params["reduce"]
        return chain, reduce_unsupported(*chain[:3])
    if primitive == "fused_group":
        group = Group(params["members"], specs)
        return group, _group_why(group)
    written_as_text = _text_kinds().get(primitive)
    if written_as_text is None:
        return None, None
    why_not, spec = written_as_text
    why = why_not(primitive, params, specs)
    return (spec(primitive, params, specs) if why is None else None), why


@functools.lru_cache(maxsize=None)
def _text_kinds() -> dict:
    """Primitive -> ``(why_not(name, params, specs), spec(name, params, specs))`` of the
    functions written as TVMScript text."""
    from .normalize import norm_spec, norm_unsupported
    from .pooling import POOL_KINDS, pool_spec, pool_unsupported
    from .rnn import rnn_spec, rnn_unsupported
    from .softmax_ce import CE_KINDS, ce_spec, ce_unsupported
    from .add_at import add_at_spec
    from .take import take_spec
    kinds = dict.fromkeys(("lstm", "lstm_grad", "gru", "gru_grad"), (
        rnn_unsupported, lambda name, params, specs: rnn_spec(name, specs, params)))
    kinds.update(dict.fromkeys(POOL_KINDS, (
        lambda name, params, specs: pool_unsupported(name, *specs[0]),
        lambda name, params, specs: pool_spec(name, *specs[0], params))))
    kinds.update(dict.fromkeys(CE_KINDS, (
        lambda name, params, specs: ce_unsupported(name, specs),
        lambda name, params, specs: ce_spec(name, specs, params))))
    kinds["normalize"] = (lambda name, params, specs: norm_unsupported(specs, params),
                          lambda name, params, specs: norm_spec(specs, params))
    # (a getitem or add_at of another key is none of TVM's: no spec, and no reason to say)
    kinds["getitem"] = (lambda name, params, specs: None, take_spec)
    kinds["add_at"] = (lambda name, params, specs: None, add_at_spec)
    return kinds


def function(chain):
    """The compiled function of ``chain`` (compiled now if new), or None: not generated."""
    chain = _normal(chain)
    fn = _COMPILED.get(chain, False)
    if fn is False:
        compile_chains([chain])
        fn = _COMPILED[chain]
    return fn


def out_target(backend, out, shape, dtype):
    """Where the function writes: ``out`` when it is a compact array it can write (TVM's
    FFI takes no other), else a pool buffer."""
    if out is not None and out.flags.c_contiguous and out.flags.writeable:
        return out
    return backend.allocate(shape, dtype)


def written(out, target):
    """The result: ``out`` (given ``target``'s values), or ``target`` when none was asked."""
    if out is None or out is target:
        return target
    if RECORDING:
        capture.impure("copies its result")
    np.copyto(out, target)
    return out


def packed(specs) -> tuple[int, list]:
    """``(bytes, [(start, stop, shape, dtype)])``: arrays of these ``(shape, dtype)`` one
    after another in one buffer, each at a multiple of 64 bytes -- a kernel's results (or
    scratch) as views of one allocation instead of one allocation each (an LSTM gradient
    has 15 results; the main job's Adam group ten step counts)."""
    at, start = [], 0
    for shape, dtype in specs:
        dtype = np.dtype(dtype)
        size = math.prod(shape) * dtype.itemsize
        at.append((start, start + size, tuple(shape), dtype))
        start += -(-max(size, 1) // 64) * 64
    return max(start, 1), at


def views(memory, at) -> list:
    """The arrays :func:`packed` placed in ``memory`` (bytes; they live while it does):
    each made in one step (a slice, a view and a reshape cost 0.35 us, this 0.2 us)."""
    return [_ndarray(shape, dtype, memory, a) for a, _, shape, dtype in at]


def forget() -> None:
    """Drop every compiled chain, and forget what was said once (tests)."""
    _COMPILED.clear()
    _SAID.clear()
    _CALLS.clear()
    _REDUCE_CALLS.clear()
    _MADE.clear()
    from .group_kernel import _GROUP_CALLS
    _GROUP_CALLS.clear()


_SAID: set = set()


def say_once(key, message, *args) -> None:
    if key not in _SAID:
        _SAID.add(key)
        log.info(message, *args)


_CALLS: dict = {}  # id(expr) -> (expr, {input (shape, dtype)s: call}); expr kept alive


def _lookup(table: dict, key, expr, inputs, make):
    """``(call, inputs)``: the call ``make(expr, inputs)`` made for ``expr`` on inputs of
    these shapes and dtypes, found without hashing the chain (a tuple's hash is not cached:
    hashing a 20-node chain on every call cost microseconds); ``table[key]`` keeps ``expr``
    alive, so its id is not reused while it is there."""
    entry = table.get(key)
    if entry is None or entry[0] is not expr:
        entry = table[key] = (expr, {})
    try:
        return entry[1][tuple([(x.shape, x.dtype) for x in inputs])], inputs
    except (KeyError, AttributeError):
        inputs = tuple(np.asarray(x) for x in inputs)
        call = entry[1][tuple((x.shape, x.dtype) for x in inputs)] = make(expr, inputs)
        return call, inputs


def fused_elementwise(backend, *inputs, out=None, expr):
    call, inputs = _lookup(_CALLS, id(expr), expr, inputs, _call)
    return call(backend, inputs, out)


def _call(expr, inputs):
    """``call(backend, inputs, out)`` for ``expr`` on inputs of these shapes and dtypes."""
    chain = _normal((expr, tuple(_spec(a.shape, a.dtype) for a in inputs)))
    fn = function(chain)
    if fn is None:
        return below_call("fused_elementwise", {"expr": expr})
    shape, dtype = tuple(expr[-1][3]), np.dtype(expr[-1][4])
    batch = shape[0] if shape else 1  # what a generic extent is in this call
    # the arrays as the compiled function declares them: collapsed shapes (views), 0-d
    # inputs as shape (1,); TVM reads compact, writeable arrays only (DLPack): the
    # positions that were not (a broadcast constant...) are copied on every call
    shapes = [resolved(s, batch) or (1,) for s, _ in chain[1]]
    out_shape = resolved(chain[0][-1][3], batch) or (1,)
    fixed = [k for k, a in enumerate(inputs) if a.shape != shapes[k] or
             not (a.flags.c_contiguous and a.flags.writeable)]

    def run(backend, inputs, out):
        result = backend.allocate(shape, dtype) if out is None else out
        # a strided out= is written through a compact buffer (its reshape would copy)
        target = result if result.flags.c_contiguous else np.empty(shape, dtype)
        if fixed:
            inputs = list(inputs)
            for k in fixed:
                inputs[k] = compact(inputs[k], shapes[k])
        try:
            invoke(fn, *inputs, target.reshape(out_shape))
        except (ValueError, BufferError):  # another input is strided or read-only
            if RECORDING:
                capture.impure("copies a strided operand")
            fn(*[compact(a, s) for a, s in zip(inputs, shapes)], target.reshape(out_shape))
        return written(result, target)
    return run


def compact(a, shape):
    """``a`` as a compact, writeable array of ``shape`` (its own size)."""
    if not (a.flags.c_contiguous and a.flags.writeable):
        if RECORDING:
            capture.impure("copies a strided operand")
        a = np.array(a, order="C")
    return a.reshape(shape)


_REDUCE_CALLS: dict = {}  # (id(expr), reduce, axis, keepdims) -> (expr, {specs: call})


def fused_reduce(backend, *inputs, out=None, expr, reduce, axis, keepdims):
    call, inputs = _lookup(_REDUCE_CALLS, (id(expr), reduce, axis, keepdims), expr, inputs,
                           lambda e, ins: _reduce_call(e, ins, reduce, axis, keepdims))
    return call(backend, inputs, out)


def _reduce_call(expr, inputs, reduce, axis, keepdims):
    """``call(backend, inputs, out)`` for this reduction on inputs of these shapes/dtypes."""
    specs = tuple(_spec(a.shape, a.dtype) for a in inputs)
    fn = function((expr, specs, axis, reduce))
    if fn is None:
        def below(backend, inputs, out):  # the decomposition, on the providers below
            if RECORDING:
                capture.impure("runs the provider below")
            value = backend.below_kernel("fused_elementwise")(backend, *inputs, expr=expr) \
                if expr else inputs[0]
            return backend.below_kernel(reduce)(backend, value, out=out, axis=axis,
                                                keepdims=keepdims)
        return below
    full = value_shape(expr, specs)
    dtype = np.dtype(expr[-1][4]) if expr else inputs[0].dtype
    shape = tuple(1 if k in axis else n for k, n in enumerate(full) if keepdims or k not in axis)
    kept = tuple(n for k, n in enumerate(full) if k not in axis) or (1,)
    shapes = [tuple(s) or (1,) for s, _ in specs]
    (part_shape, part_dtype), (acc_shape, acc_dtype) = scratch(expr, specs, axis)

    def run(backend, inputs, out):
        result = backend.allocate(shape, dtype) if out is None else out
        target = result if result.flags.c_contiguous else np.empty(shape, dtype)
        invoke(fn, *[compact(a, s) for a, s in zip(inputs, shapes)], target.reshape(kept),
               np.empty(part_shape, part_dtype), np.empty(acc_shape, acc_dtype))
        return written(result, target)
    return run
