"""Compiled modules on disk, so a second process loads (~1 ms) what the first compiled --
and the first process too: the file's code is generated once, where taking functions from
the built module would generate it again (LLVM's JIT).

A module is a shared library (TVM's ``export_library``, which links with the system C
compiler) in ``<SPORELING_HOME or the user cache>/tvm/``, named by a hash of its chains,
the CPU (model and features), TVM's version and this plugin's format; a hit is loaded
through TVM's FFI alone, without importing TVM's compiler. Without a C compiler
nothing is written and every process compiles (the library is still built in memory).
Files are written atomically; an unreadable one is compiled again and replaced.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile

from sporeling.core import paths

from .target import cpu_identity, ffi

__all__ = ["load_or_build", "cache_dir", "key"]

log = logging.getLogger("sporeling.tvm")
FORMAT = 17  # bump when the generated code changes for the same chains


def cache_dir() -> str:
    return paths.cache_dir("tvm")


def key(chains) -> str:
    """The file name (without ``.so``) of ``chains``' module."""
    digest = hashlib.sha256()
    for part in (FORMAT, cpu_identity(), repr(chains)):
        digest.update(repr(part).encode())
    return digest.hexdigest()[:32]


def _compiler() -> bool:
    return any(shutil.which(cc) for cc in ("gcc", "cc", "clang"))


def load_or_build(chains, build):
    """The module for ``chains`` (what keys it: whatever determines its code): from the
    disk cache, or ``build()`` (then cached)."""
    path = os.path.join(cache_dir(), key(chains) + ".so")
    if os.path.exists(path):
        try:
            return ffi().load_module(path)
        except Exception as error:  # a damaged or foreign file: compile again
            log.info("cached module %s unreadable (%s): compiling again", path, error)
    library = build()
    if _compiler():
        temporary = None
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, temporary = tempfile.mkstemp(suffix=".so", dir=os.path.dirname(path))
            os.close(fd)
            library.export_library(temporary)
            # the exported library's code is generated: its functions come from it, not
            # from the built module, whose LLVM would generate the code a second time on
            # the first lookup of each function (~1.2 s of a LeNet step's first call).
            # Loaded under its temporary name, before the rename: the loader knows a
            # library by its name, and a file later found at `path` (another process's,
            # or a damaged one) must be opened for what it is
            exported = ffi().load_module(temporary)
            os.replace(temporary, path)
            return exported
        except Exception as error:  # a read-only home, a failing linker: keep going
            log.info("could not cache the compiled module (%s)", error)
            if temporary is not None and os.path.exists(temporary):
                os.remove(temporary)
    return library
