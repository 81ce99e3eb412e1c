"""MindSpore 2.10's thread settings on the CPU host: ``ms.runtime.dispatch_threads_num``
and ``ms.runtime.set_cpu_affinity``.

Sporeling runs kernels on the calling thread; the only threads a kernel fans out to are
the BLAS library's (matmuls, convolutions), so the runtime's thread count is BLAS's,
capped through threadpoolctl. Core binding uses ``os.sched_setaffinity`` on the calling
(main) thread; threads started after it -- data-pipeline workers, BLAS's pool when it is
created -- inherit its cores (Linux semantics), which is how the ``"minddata"``,
``"runtime"`` and ``"pynative"`` modules' cores take effect: the main thread gets the union
of every module's cores.
"""
from __future__ import annotations

import os
import re

__all__ = ["dispatch_threads_num", "set_cpu_affinity", "set_blas_threads", "blas_threads"]

_limiter = [None]
_MODULES = ("main", "runtime", "pynative", "minddata")
_RANGE = re.compile(r"^(\d+)-(\d+)$")
_original_affinity: list = []


def _controller():
    import numpy  # noqa: F401  (BLAS is loaded with NumPy: threadpoolctl must see it)
    from threadpoolctl import ThreadpoolController
    return ThreadpoolController()


def set_blas_threads(limit: int | None) -> None:
    """Cap the BLAS threads at ``limit`` (None: the library's own count again)."""
    if _limiter[0] is not None:
        _limiter[0].restore_original_limits()
        _limiter[0] = None
    if limit is not None:
        _limiter[0] = _controller().limit(limits=int(limit), user_api="blas")


def blas_threads() -> int:
    """The BLAS threads now in effect (1 when no BLAS library is loaded)."""
    counts = [lib.num_threads for lib in _controller().lib_controllers
              if lib.user_api == "blas"]
    return max(counts, default=1)


def dispatch_threads_num(threads_num) -> None:
    """Set the threads the runtime runs kernels on (MindSpore's default is 5): here the
    BLAS threads matrix kernels fan out to."""
    if isinstance(threads_num, bool) or not isinstance(threads_num, int) or threads_num < 1:
        raise ValueError(f"For 'dispatch_threads_num', 'threads_num' must be a positive int, "
                         f"but got {threads_num!r}.")
    set_blas_threads(threads_num)


def _parse_ranges(affinity_cpu_list) -> list[int]:
    cpus = []
    for item in affinity_cpu_list:
        match = _RANGE.match(item) if isinstance(item, str) else None
        if match is None or int(match[1]) > int(match[2]):
            raise ValueError(f"For 'set_cpu_affinity', each item of 'affinity_cpu_list' must "
                             f"be a str 'cpuidX-cpuidY' with X <= Y, but got {item!r}.")
        cpus.extend(range(int(match[1]), int(match[2]) + 1))
    return cpus


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None) -> None:
    """Bind the process's main thread (and the threads it starts) to CPU cores.

    ``affinity_cpu_list``: the cores of this process as ``["0-3", "8-11"]`` (default: the
    cores it may use now). ``module_to_cpu_dict``: per module (``"main"``, ``"runtime"``,
    ``"pynative"``, ``"minddata"``) indices into those cores; default ``"main"`` gets all
    of them. ``bind_file``: a JSON file holding that dict. ``enable_affinity=False`` gives
    the thread back the cores it had before the first binding."""
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', 'enable_affinity' must be bool, but got "
                        f"{type(enable_affinity).__name__}.")
    if not hasattr(os, "sched_setaffinity"):
        raise OSError("set_cpu_affinity: this platform cannot bind threads to cores")
    if not enable_affinity:
        if _original_affinity:
            os.sched_setaffinity(0, _original_affinity.pop())
        return
    if affinity_cpu_list is not None and not isinstance(affinity_cpu_list, list):
        raise TypeError(f"For 'set_cpu_affinity', 'affinity_cpu_list' must be a list or None, "
                        f"but got {type(affinity_cpu_list).__name__}.")
    usable = sorted(os.sched_getaffinity(0))
    cpus = _parse_ranges(affinity_cpu_list) if affinity_cpu_list else usable
    if bind_file is not None:
        import json
        with open(bind_file, encoding="utf-8") as f:
            module_to_cpu_dict = json.load(f)
    chosen = set(cpus)
    if module_to_cpu_dict:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(f"For 'set_cpu_affinity', 'module_to_cpu_dict' must be a dict, "
                            f"but got {type(module_to_cpu_dict).__name__}.")
        chosen = set()
        for module, indices in module_to_cpu_dict.items():
            if module not in _MODULES:
                raise ValueError(f"For 'set_cpu_affinity', the modules are {_MODULES}, but "
                                 f"got {module!r}.")
            for i in indices:
                if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(cpus):
                    raise ValueError(f"For 'set_cpu_affinity', the indices of module "
                                     f"{module!r} must be ints in [0, {len(cpus)}), but got "
                                     f"{i!r}.")
                chosen.add(cpus[i])
    if not _original_affinity:
        _original_affinity.append(set(os.sched_getaffinity(0)))
    os.sched_setaffinity(0, chosen)
