"""Generated functions run with subnormal floats flushed to zero, as XLA's CPU code (JAX's
``jit``) and TensorFlow's kernels do: on x86-64 each function sets the MXCSR register's
flush-to-zero and denormals-are-zero bits on entry and restores the caller's register on
return, so NumPy and every other library in the process keep IEEE subnormals.

Why: an x86 core computes with a subnormal operand or result through a microcode assist,
tens to a hundred times slower. Training makes them: Adam's first moment of a weight whose
gradient stays zero (a dead ReLU's) decays by 0.9 a step and is subnormal after ~800 steps;
the main job's Adam update (one generated function, 61k parameters) went from 50 us to
410 us a step there, a fifth of its step. The results differ from NumPy's only where NumPy's
are subnormal (below 1.2e-38 in float32, 2.2e-308 in float64): those are zero. ``jit_level``
O1 (NumPy's and oneDNN's kernels) keeps them.

The register is set after the arguments' checks (:func:`~.entry.declare`'s assertions, which
return at once when they fail) and the bodies contain no other early return (no assertion
inside a loop nest), so the restore always runs.
"""
from __future__ import annotations

import platform

from .target import tvm

__all__ = ["flushing", "FLUSHES"]

# MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6) bits
_FTZ_DAZ = 0x8040
FLUSHES = platform.machine() in ("x86_64", "AMD64")


def flushing(func):
    """``func`` (a TensorIR function) with its body run under flushed subnormals, where
    this is an x86-64 machine; ``func`` itself elsewhere."""
    if not FLUSHES:
        return func
    tir = tvm().tirx
    # [the caller's register, the flushing one]: two int32 in one stack slot of 8 bytes
    # ("shape": an int64 array). A buffer allocated the usual way comes from TVM's
    # workspace, whose allocator a module loaded through TVM's FFI alone lacks (a crash)
    state = tir.decl_buffer((2,), "int32", name="mxcsr")

    def register(intrinsic: str, slot: int):
        address = tir.address_of(tir.BufferLoad(state, [slot]))
        return tir.Evaluate(tir.call_llvm_intrin("void", intrinsic, address))
    flush = [tir.DeclBuffer(state, data=tir.tvm_stack_alloca("shape", 1)),
             register("llvm.x86.sse.stmxcsr", 0),
             tir.BufferStore(state, tir.BufferLoad(state, [0]) | _FTZ_DAZ, [1]),
             register("llvm.x86.sse.ldmxcsr", 1)]
    # the statements of the function, inside its root block where it has one (TensorIR)
    from tvm.s_tir.stmt import SBlock, SBlockRealize
    root = func.body if isinstance(func.body, SBlockRealize) else None
    body = root.block.body if root is not None else func.body
    body = list(body.seq) if isinstance(body, tir.SeqStmt) else [body]
    checked = max((k + 1 for k, stmt in enumerate(body) if isinstance(stmt, tir.AssertStmt)),
                  default=0)
    body = tir.SeqStmt(body[:checked] + flush + body[checked:] +
                       [register("llvm.x86.sse.ldmxcsr", 0)])
    if root is not None:
        block = root.block
        body = SBlockRealize(root.iter_values, root.predicate, SBlock(
            block.iter_vars, block.reads, block.writes, block.name_hint, body, block.init,
            block.alloc_buffers, block.match_buffers, block.annotations))
    return func.with_body(body)
