"""TVM, imported on first use (``import tvm`` takes seconds; a process that never compiles
a fused chain never pays it), and the LLVM target for this CPU."""
from __future__ import annotations

import functools
import platform

__all__ = ["tvm", "target", "vector_bytes"]


@functools.lru_cache(maxsize=None)
def tvm():
    import tvm as module  # the top-level package, not this plugin
    return module


@functools.lru_cache(maxsize=None)
def target():
    """LLVM for this machine's CPU (its name, so AVX2/AVX-512 are used). The wheel's default
    triple (a conda one) rejects ``mcpu``, so the triple is spelled out."""
    t = tvm()
    from tvm.target import codegen
    machine = platform.machine()
    triple = {"x86_64": "x86_64-pc-linux-gnu", "AMD64": "x86_64-pc-windows-msvc",
              "aarch64": "aarch64-unknown-linux-gnu", "arm64": "arm64-apple-darwin"}
    return t.target.Target({"kind": "llvm", "mtriple": triple.get(machine, machine),
                            "mcpu": codegen.llvm_get_system_cpu()})


@functools.lru_cache(maxsize=None)
def vector_bytes() -> int:
    """The widest vector register the target has (64 with AVX-512, 32 with AVX2)."""
    from tvm.target import codegen
    return max(16, codegen.llvm_get_vector_width(target()) // 8)
