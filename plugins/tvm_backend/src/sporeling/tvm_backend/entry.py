"""A generated function's arguments: each array a plain handle, its buffer declared on the
array's data, and every argument checked by one loop.

TVM's entry code checks each buffer argument on its own -- its rank, dtype, every extent
and stride, offset and device -- each check with its own error path: the momentum update of
LeNet's ten parameters (52 arrays) had 1,023 of them, and LLVM spent 0.58 s of that
function's 0.73 s on them (the same checks written out per argument here: 0.36 s). Declared
here, an argument is a handle (TVM still checks that it is an array: a Python number is a
TypeError), and a loop over a table of what each must be checks what TVM's code did: its
code does not grow with the arguments. It fails with the ValueError TVM's checks raised, so
a caller's fallback (copying a strided input) is unchanged. The loops lose nothing: TVM's
alias metadata tells LLVM that distinct buffers do not overlap either way (an accumulator
kept in registers, a fused update: the same speed).
"""
from __future__ import annotations

import numpy as np

from .target import tvm

__all__ = ["declare"]

# DLTensor fields (tvm_struct_get's kinds), a TVM FFI value's content, DLPack's CPU device
_DATA, _SHAPE, _STRIDES, _NDIM, _CODE, _BITS, _LANES, _OFFSET, _DEVICE = \
    1, 2, 3, 4, 5, 6, 7, 8, 10
_VALUE = 15
_CPU = 1
# NumPy's kinds (ml_dtypes' bfloat16 by name), as DLPack codes them
_TYPE_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6, "bfloat16": 4}


def declare(handles, specs) -> list:
    """Inside a function being built (TVM's IR builder, or TVMScript text calling it):
    the buffers of array arguments ``handles`` (``T.handle`` parameters) of these
    ``(shape, dtype)``, after an assertion that each is a compact CPU array of that rank,
    dtype and shape. A shape may hold int64 variables (one function for every such extent):
    each is bound to its first argument's extent, which every other use must equal."""
    tir = tvm().tirx
    from tvm.script.ir_builder import tirx as T
    field = tir.op.tvm_struct_get
    i64 = "int64"
    n, rank = len(handles), max([len(shape) for shape, _ in specs] + [1])
    # the arrays, and per array [rank, DLPack type code, bits, extents (-1: a variable)]
    arrays = T.bind(tir.op.tvm_stack_alloca("tvm_ffi_any", n))
    width = 3 + rank
    wanted = T.decl_buffer((n, width), i64, data=T.bind(tir.op.tvm_stack_alloca(
        "shape", n * width)))
    for k, (h, (shape, dtype)) in enumerate(zip(handles, specs)):
        T.evaluate(tir.op.tvm_struct_set(arrays, k, _VALUE, h))
        dtype = np.dtype(dtype)
        code = _TYPE_CODES.get(dtype.name, _TYPE_CODES.get(dtype.kind))
        if code is None:
            raise ValueError(f"no DLPack type code for {dtype}")
        row = [len(shape), code, dtype.itemsize * 8] + \
            [-1 if isinstance(e, tir.Var) else int(e) for e in shape]
        for j, value in enumerate(row):
            T.buffer_store(wanted, tir.const(value, i64), [k, j])
    # [arguments that failed, the compact stride of the axis being checked]
    state = T.decl_buffer((2,), i64, data=T.bind(tir.op.tvm_stack_alloca("shape", 2)))
    T.buffer_store(state, tir.const(0, i64), [0])

    def fail(condition):
        T.buffer_store(state, state[0] + tir.Cast(i64, condition), [0])

    # no value bound inside these loops: TVM's HoistIfThenElse takes a condition on one
    # for loop-invariant and moves it out of the loop (a use before the definition)
    with T.serial(0, n) as k:
        h = field(arrays, k, _VALUE, "handle")
        ndim = tir.Cast(i64, field(h, 0, _NDIM, "int32"))
        with T.If(tir.op.isnullptr(h)):  # None passes TVM's check of a handle
            with T.Then():
                fail(tir.const(True, "bool"))
            with T.Else():
                fail(tir.Not(tir.all(
                    ndim == wanted[k, 0], tir.Cast(i64, field(h, 0, _CODE, "uint8")) ==
                    wanted[k, 1], tir.Cast(i64, field(h, 0, _BITS, "uint8")) == wanted[k, 2],
                    field(h, 0, _LANES, "uint16") == 1, field(h, 0, _OFFSET, "uint64") == 0,
                    field(h, 0, _DEVICE, "int32") == _CPU)))
                with T.If(ndim == wanted[k, 0]):  # the extents are read where it is right
                    with T.Then():
                        _check_extents(T, tir, h, k, ndim, rank, wanted, state, fail)
    _assert(T, state[0] == 0, "expected compact CPU arrays " + ", ".join(
        f"{np.dtype(d).name}{list(s)}" for s, d in specs))
    # variable extents: bound to their first array's, equal to it in every other array
    bound: set = set()
    equal = []
    for h, (shape, _) in zip(handles, specs):
        if not any(isinstance(e, tir.Var) for e in shape):
            continue
        extents = T.decl_buffer((rank,), i64, data=T.bind(field(h, 0, _SHAPE, "handle")))
        for d, e in enumerate(shape):
            if isinstance(e, tir.Var):
                if e in bound:
                    equal.append(extents[d] == e)
                else:
                    bound.add(e)
                    T.bind(extents[d], var=e)
    if equal:
        _assert(T, tir.all(*equal), "expected arrays of one batch size")
    # align=4: NumPy's arrays are 16-byte aligned at best, and TVM's default (64) lets LLVM
    # emit aligned vector loads that fault on them
    return [T.decl_buffer(tuple(shape), str(np.dtype(dtype)),
                          data=T.bind(field(h, 0, _DATA, "handle")), align=4)
            for h, (shape, dtype) in zip(handles, specs)]


def _check_extents(T, tir, h, k, ndim, rank, wanted, state, fail) -> None:
    """Array ``k``'s extents as wanted (a variable's: any) and its strides compact: each
    the product of the extents after it, but where the extent is 1 (no strides: compact)."""
    i64 = "int64"
    field = tir.op.tvm_struct_get
    extents = T.decl_buffer((rank,), i64, data=T.bind(field(h, 0, _SHAPE, "handle")))
    strides = T.decl_buffer((rank,), i64, data=T.bind(field(h, 0, _STRIDES, "handle")))
    with T.serial(tir.const(0, i64), ndim) as d:
        fail(tir.all(wanted[k, 3 + d] >= 0, extents[d] != wanted[k, 3 + d]))
    with T.If(tir.Not(tir.op.isnullptr(field(h, 0, _STRIDES, "handle")))):
        with T.Then():
            T.buffer_store(state, tir.const(1, i64), [1])
            with T.serial(tir.const(0, i64), ndim) as r:  # the last axis first
                d = ndim - 1 - r
                fail(tir.all(extents[d] != 1, strides[d] != state[1]))
                T.buffer_store(state, state[1] * extents[d], [1])


def _assert(T, condition, message: str) -> None:
    """``assert condition`` (a ValueError), entered as TVMScript enters its own assert
    statements: it covers the rest of the body."""
    frame = T.Assert(condition, message, error_kind="ValueError")
    frame.add_callback(lambda: frame.__exit__(None, None, None))
    frame.__enter__()
