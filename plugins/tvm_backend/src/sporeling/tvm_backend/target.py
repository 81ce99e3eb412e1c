"""TVM, imported on first use (``import tvm`` takes seconds; a process that never compiles
a fused chain never pays it), its FFI alone (what loading and calling a compiled module
needs: ~0.2 s), and the LLVM target for this CPU.

``tvm_ffi`` imports PyTorch when it is installed (1 s here) only to interoperate with its
tensors, which this plugin never passes; the import is kept from happening unless the
process already has PyTorch.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import platform
import sys

__all__ = ["tvm", "ffi", "target", "vector_bytes", "cpu_identity"]


@contextlib.contextmanager
def _without_torch():
    if "torch" in sys.modules:
        yield
        return
    sys.modules["torch"] = None  # `import torch` raises ImportError, which tvm_ffi expects
    try:
        yield
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]


@functools.lru_cache(maxsize=None)
def ffi():
    with _without_torch():
        import tvm_ffi
    return tvm_ffi


@functools.lru_cache(maxsize=None)
def tvm():
    ffi()
    with _without_torch():
        import tvm as module  # the top-level package, not this plugin
    return module


@functools.lru_cache(maxsize=None)
def cpu_identity() -> str:
    """What compiled code depends on, found without TVM: TVM's version, the machine and
    its CPU's model and features (Linux); elsewhere the LLVM target (imports TVM)."""
    parts = [importlib.metadata.version("apache-tvm"), platform.machine()]
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = [line for line in info if line.startswith(("model name", "flags"))]
        parts += sorted(set(lines))
    except OSError:
        lines = None
    if not lines:
        parts.append(str(target()))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


@functools.lru_cache(maxsize=None)
def target():
    """LLVM for this machine's CPU (its name, so LLVM vectorises with AVX2/AVX-512). The
    wheel's default triple (a conda one) rejects ``mcpu``, so the triple is spelled out."""
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
