"""numba, if installed, set up once: the on-disk cache of compiled kernels and ``jit``.

Compiled kernels go to ``NUMBA_CACHE_DIR`` when set, else to the user cache directory
(``platformdirs.user_cache_dir("sporeling")/numba``), so a second process loads machine
code instead of compiling (``cache=True``). Generated kernels (fused chains) are written as
modules under ``<cache>/generated`` first: numba caches only functions with a source file.
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sys
import types
from pathlib import Path
from types import ModuleType

import platformdirs

log = logging.getLogger("sporeling.numba_backend")

__all__ = ["load_numba", "AVAILABLE", "PARALLEL_FROM", "cache_dir", "jit", "parallel_and_serial",
           "load_generated", "log", "say_once"]

PARALLEL_FROM = int(os.environ.get("SPORELING_NUMBA_PARALLEL_FROM", 1 << 22))
"""Elements below which a kernel runs on one thread (``SPORELING_NUMBA_PARALLEL_FROM``).
Waking the threads of a parallel loop costs microseconds on an idle machine but
milliseconds on a busy one (a 400K-element update: 0.13 ms serial, 20 ms parallel on the
shared 2-core machine), so only multi-megabyte loops go parallel by default."""


def cache_dir() -> Path:
    """Where compiled kernels (and generated sources) are kept."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("sporeling")) / "numba"


# Whether numba is installed, without importing it: the plugin host loads this plugin in
# every process, and importing numba takes seconds; it is imported at the first compile.
AVAILABLE = importlib.util.find_spec("numba") is not None


def load_numba():
    """numba, imported on first use with the cache directory set."""
    import numba
    if numba.config.CACHE_DIR != str(cache_dir()):
        numba.config.CACHE_DIR = str(cache_dir())  # read when a cached function is made
    return numba


def jit(fn=None, *, parallel: bool = False):
    """``numba.njit(cache=True, fastmath=False)`` (``parallel`` for prange loops)."""
    def wrap(fn):
        numba = load_numba()
        if "_prange" in fn.__globals__:  # kernels loop with _prange: numba's, once loaded
            fn.__globals__["_prange"] = numba.prange
        return numba.njit(cache=True, fastmath=False, parallel=parallel, nogil=True)(fn)
    return wrap if fn is None else wrap(fn)


def parallel_and_serial(fn):
    """``fn`` compiled twice, lazily: ``chosen = fn_compiled(size)`` picks the parallel
    build (``prange`` loops) from :data:`PARALLEL_FROM` elements on, else the serial one
    (where ``prange`` is ``range``)."""
    builds: dict = {}
    # numba's disk cache is per function name and does not key on ``parallel``: the
    # serial build is a copy of the function under its own name
    serial = types.FunctionType(fn.__code__, fn.__globals__, f"{fn.__name__}_serial",
                                fn.__defaults__, fn.__closure__)
    serial.__qualname__, serial.__module__ = f"{fn.__qualname__}_serial", fn.__module__

    def choose(size: int):
        parallel = size >= PARALLEL_FROM
        build = builds.get(parallel)
        if build is None:
            build = builds[parallel] = jit(fn if parallel else serial, parallel=parallel)
        return build
    choose.py_func = fn
    return choose


_SAID: set = set()


def say_once(key, message: str, *args) -> None:
    """Log ``message`` at INFO level the first time ``key`` is seen in this process."""
    if key not in _SAID:
        _SAID.add(key)
        log.info(message, *args)


def load_generated(source: str, prefix: str) -> ModuleType:
    """Import generated ``source`` from a file named by its hash (written once, so numba's
    cache, keyed by the file and its time stamp, finds it in the next process)."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:20]
    folder = cache_dir() / "generated"
    path = folder / f"{prefix}_{digest}.py"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source)
        os.replace(tmp, path)  # atomic: a concurrent process sees all of it or none
    # a module numba can find by name (in sys.modules): a function whose module it cannot
    # find is "dynamic" to numba, and its cached machine code cannot be loaded back
    name = f"sporeling_numba_{path.stem}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module
