"""A whole training step as one generated function: the native calls of a recorded program
run (:mod:`sporeling.runtime.executor.capture`, :mod:`~sporeling.runtime.executor.replay`)
made again by one TensorIR function, so that Python runs only at its entry.

The function ``main(table, in0, ..., inN)`` takes the program's inputs (checked as the
generated kernels check theirs: :func:`~.entry.declare`) and a table of addresses, and
makes, in the recorded order:

* each generated kernel's call (a packed call: the function is registered under a name
  that is the same in every process, :data:`~.kernels.NAMES`), on arrays built on the stack
  over the recorded ones' memory -- an input's (at the same offset) or a buffer the
  recorded run used (the arena, the buffers its kernels allocated, kept alive by the step);
* each library call (oneDNN's ``dnnl_memory_set_data_handle`` and
  ``dnnl_primitive_execute``) on the handles the recorded run passed, from the table, its
  status gathered and checked at the end;
* each recorded check (a label out of range): where it fails the function returns at
  once; before any input was written the call then runs in Python (whose kernel names the
  value), after (a batch norm's running statistics) it raises an ``ExecutionError``
  naming the primitive and the user's line -- the state then is what the Python program
  leaves when that kernel raises.

The code depends only on the calls' kinds, shapes and the table's layout, not on any
address: it is cached on disk like the kernels (a second process loads it). It runs in the
thread that recorded it (oneDNN's plans, whose memory objects it points at the arrays, are
per thread); a call from another thread runs in Python.
"""
from __future__ import annotations

import ctypes
import functools
import os
import threading

import numpy as np

from sporeling.runtime.executor.capture import Handle
from sporeling.runtime.executor.run import ExecutionError

from . import cache
from .entry import declare
from .kernels import NAMES
from .step_memory import StepMemory
from .target import ffi, target, tvm

__all__ = ["native_step", "REFUSED"]

REFUSED = "sporeling native step: a recorded check failed"
"""The error of a step whose check failed, then ``#k``: which check."""


def native_step(program, rec, inputs, outputs):
    """``step(inputs) -> outputs | None`` replaying ``rec`` (None: these inputs are not
    as recorded, or a check failed: run the program), or why it cannot."""
    if not all(isinstance(x, np.ndarray) and x.flags.c_contiguous and x.flags.writeable
               for x in inputs):
        return "an input is not a compact, writeable array"
    ranges = [(x.ctypes.data, x.nbytes) for x in inputs]
    if _overlapping(ranges):
        return "two inputs share memory"
    table: list = []  # the addresses the table holds
    memory = StepMemory(rec.calls, inputs, program.constants.values(), outputs)
    where = functools.partial(_where, ranges, inputs, table, memory)
    made = _calls(rec, where, table)
    if isinstance(made, str):
        return made
    calls, checks = made
    returned = []  # per output: the input it is, or where it lies in the step's block
    for o in outputs:
        k = next((k for k, x in enumerate(inputs) if o is x), None)
        if k is not None:
            returned.append(k)
        elif not isinstance(o, np.ndarray):
            return "an output is not an array"
        elif any(np.may_share_memory(o, x) for x in inputs):
            return "an output is a view of an input"
        else:
            returned.append(memory.view(o))
    structure = (tuple((x.shape, x.dtype.str) for x in inputs), len(table), tuple(calls))
    step = _step(_compiled(structure, rec), np.array(table or [0], np.int64), program,
                 checks, returned, rec.thread)
    # what the step's calls point into: oneDNN's plans, the block of its temporaries (the
    # recorded run's buffers go back to the pool: the step wrote into them for the last time)
    step.keep = ([call.keep for call in rec.calls if call.keep is not None], memory.block)
    step.calls = len(calls)
    return step


def _calls(rec, where, table):
    """``(calls, checks)``: the recorded calls as the generated function makes them (what
    keys its code: kinds, names, shapes, slots of the table), and the instruction of each
    check; or why they cannot be made."""
    calls, checks = [], []
    for call in rec.calls:
        if call.kind == "packed":
            name = NAMES.get(id(call.target))
            if name is None or name[1] is not call.target:
                return "a kernel's function has no name"
            if not all(isinstance(a, np.ndarray) and a.flags.c_contiguous for a in call.args):
                return f"{name[0]} was called on a strided array"
            calls.append(("packed", name[0],
                          tuple((where(a), a.shape, a.dtype.str) for a in call.args)))
        elif call.kind == "extern":
            args = []
            for a in call.args:
                if isinstance(a, Handle):
                    args.append(("handle", _slot(table, a.address)))
                elif isinstance(a, np.ndarray):
                    args.append(("pointer", where(a)))
                elif isinstance(a, np.generic):  # a number of that type
                    args.append((a.dtype.name, a.item()))
                else:
                    args.append(("int32", int(a)))
            calls.append(("extern", call.target, tuple(args)))
        else:
            flag = call.args[0]
            checks.append(call.instruction)
            calls.append(("check", where(flag), (flag.dtype.str, len(checks) - 1)))
    return calls, checks


def _step(fn, addresses, program, checks, returned, thread):
    """The call of the generated function ``fn``, its outputs made as ``returned`` says."""
    first_write = _first_write(program)

    def step(args):
        # oneDNN's plans (their memory objects, whose data the step points) are each
        # thread's own: another thread runs the program in Python, on its own plans
        if threading.get_ident() != thread:
            return None
        try:
            fn(addresses, *args)
        except (TypeError, BufferError):  # not an array, a read-only one
            return None
        except ValueError as error:  # declare's checks, or a recorded check
            message = str(error)
            if message.startswith("expected "):
                return None
            if not message.startswith(REFUSED):
                raise
            at = checks[int(message[len(REFUSED):].split()[0].strip("#"))]
            if at < first_write:  # nothing written yet: the Python program says why
                return None
            ins = program.instructions[at]  # (a Parameter, a running mean is updated)
            raise ExecutionError(
                "a label or index out of range stopped the native step", op=ins.name,
                where=ins.where, hint="with set_context(tvm_native_steps=False) the step "
                "runs kernel by kernel, and the kernel names the value") from None
        return [args[o] if isinstance(o, int) else np.array(o, copy=True) for o in returned]
    return step


def _overlapping(ranges) -> bool:
    spans = sorted((start, start + n) for start, n in ranges if n)
    return any(a[1] > b[0] for a, b in zip(spans, spans[1:]))


def _slot(table: list, address: int) -> int:
    """A new slot of the table for ``address`` (never shared: which addresses coincide
    depends on where the buffers lay, and the code must not)."""
    table.append(address)
    return len(table) - 1


def _where(ranges, inputs, table, memory, array) -> tuple:
    """``("in", k, element)``: inside input ``k``, at that element of it; ``("table",
    slot)``: an address the table holds (``memory``'s new place of the array)."""
    address = array.ctypes.data
    for k, (start, n) in enumerate(ranges):
        if start <= address < start + n:
            offset, size = divmod(address - start, inputs[k].itemsize)
            if size == 0:
                return ("in", k, offset)
    return ("table", _slot(table, memory.address(array)))


def _first_write(program) -> int:
    """The first instruction writing an input's buffer (a Parameter's update)."""
    return next((i for i, ins in enumerate(program.instructions)
                 if isinstance(ins.out, (int, tuple))), len(program.instructions))


def _compiled(structure, rec):
    """The step's function for ``structure``: from the disk cache, or generated."""
    functions = {NAMES[id(c.target)] for c in rec.calls if c.kind == "packed"}
    for name, fn in functions:
        ffi().register_global_func(name, fn, override=True)
    for library in {c.target[0] for c in rec.calls if c.kind == "extern"}:
        _global(library)
    _context_symbols()
    library = cache.load_or_build([("native_step", structure)], lambda: _build(structure))
    return library["main"]


@functools.lru_cache(maxsize=None)
def _context_symbols() -> None:
    """Give the step's library what its packed calls use (finding a function by name,
    calling it): TVM's runtime registers these when it loads, but a process that loads
    compiled code through TVM's FFI alone never loads that runtime (a null pointer)."""
    lib = ctypes.CDLL(os.path.join(os.path.dirname(ffi().__file__), "lib", "libtvm_ffi.so"))
    for name in ("TVMFFIFunctionCall", "TVMFFIHandleInitOnce",
                 "TVMFFIEnvModLookupFromImports"):
        if lib.TVMFFIEnvModRegisterContextSymbol(
                f"__{name}".encode(), ctypes.cast(getattr(lib, name), ctypes.c_void_p)):
            raise RuntimeError(f"TVM's FFI refused the context symbol {name}")


@functools.lru_cache(maxsize=None)
def _global(path: str) -> None:
    """Make ``path``'s symbols visible to code loaded later (the step's calls into it)."""
    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


def _build(structure):
    # LLVM without optimisation: the function is a run of calls (LeNet's: 0.19 -> 0.06 s
    # to compile, the step as fast)
    func = _prim_func(*structure)
    unoptimised = tvm().target.Target({**target().export(), "opt-level": 0})
    return tvm().compile(tvm().IRModule({"main": func.with_attr("global_symbol", "main")}),
                         target=unoptimised)


def _prim_func(input_specs, n_table, calls):
    t = tvm()
    tir = t.tirx
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T
    from .entry import _assert
    i64 = "int64"
    with IRBuilder() as builder:
        with T.prim_func():
            T.func_name("main")
            handles = [T.arg("table", T.handle())] + \
                [T.arg(f"in{k}", T.handle()) for k in range(len(input_specs))]
            table, *ins = declare(handles, [((max(n_table, 1),), i64)] + list(input_specs))
            # the device the packed calls' arrays are on (TVM's lowering asks; the
            # arguments, handles, do not say): the CPU
            for key, value in (("device_id", 0), ("device_type", 1)):
                frame = T.attr(tir.const(0, "int32"), key, tir.const(value, "int32"))
                frame.add_callback(lambda f=frame: f.__exit__(None, None, None))
                frame.__enter__()
            state = T.decl_buffer((1,), "int32", data=T.bind(
                tir.op.tvm_stack_alloca("shape", 1)))  # the library calls' statuses
            T.buffer_store(state, tir.const(0, "int32"), [0])

            # every pointer an expression, every array built in the call's arguments: a
            # binding or a buffer declared per argument nests the rest of the function in
            # it (ResNet-20's step: thousands deep, a RecursionError)
            def pointer(where):
                if where[0] == "table":
                    return tir.reinterpret("handle", table[where[1]])
                _, k, element = where
                if element == 0:
                    return ins[k].data
                index = np.unravel_index(element, input_specs[k][0])
                return tir.address_of(tir.BufferLoad(ins[k], [int(i) for i in index]))

            for kind, target_, args in calls:
                if kind == "packed":
                    T.evaluate(tir.call_packed(target_, *[
                        _array(tir, pointer(where), shape, dtype)
                        for where, shape, dtype in args]))
                elif kind == "extern":
                    values = [tir.reinterpret("handle", table[a[1]]) if a[0] == "handle"
                              else pointer(a[1]) if a[0] == "pointer"
                              else tir.const(a[1], a[0]) for a in args]
                    _, symbol, returns_status = target_
                    if returns_status:
                        status = tir.call_extern("int32", symbol, *values)
                        T.buffer_store(state, state[0] | status, [0])
                    else:  # (a void function: its return register holds anything)
                        T.evaluate(tir.call_extern("int32", symbol, *values))
                else:  # a check: go on only while the flag is zero
                    where, (dtype, k) = target_, args
                    flag = T.decl_buffer((1,), str(np.dtype(dtype)),
                                         data=T.bind(pointer(where)), align=4)
                    _assert(T, flag[0] == tir.const(0, str(np.dtype(dtype))),
                            f"{REFUSED} #{k}")
            _assert(T, state[0] == 0, "a library call of the native step failed")
    return builder.get()


def _array(tir, data, shape, dtype):
    """A compact DLTensor over ``data`` built on the stack (what a packed call passes for
    a buffer argument)."""
    from tvm.ir import Call, Op, PointerType, PrimType
    extents = Call("tirx.tvm_stack_make_shape", [tir.const(n, "int64") for n in shape],
                   ret_ty=PointerType(PrimType("int64")))
    return Call(Op.get("tirx.tvm_stack_make_array"), [
        data, extents, tir.const(0, "int32"), len(shape), tir.const(0, str(np.dtype(dtype))),
        tir.const(0, "int32")], ret_ty="handle")
