"""Observation points for profilers: kernel calls (PyNative and Graph mode) and the memory
pool's allocations and frees.

Nothing is observed until a listener is added. The call sites (the eager interpreter's
kernel call, the executor's program run, the pool's allocate and free) test one list
(``if kernel_listeners:`` / ``if memory_listeners:``) and do nothing else while it is empty;
the lists are mutated in place, never rebound, so call sites may import them by name.

* A kernel listener is ``fn(name, start_ns, end_ns, program)``: the primitive's name,
  ``time.perf_counter_ns()`` before and after the kernel, and the lowered program's name in
  Graph mode (``None`` for an eager kernel). A Graph-mode program runs instruction by
  instruction timed only while a listener is present (its timed runner is generated on the
  first such run).
* A memory listener is ``fn(pool, delta, in_use, peak)``: ``delta`` bytes allocated (> 0) or
  freed (< 0), then the pool's bytes in use and its peak. It may be called with the pool's
  lock held (a free), so it must not call back into the pool; read ``pool.stats()`` later.

    >>> seen = []
    >>> def on_kernel(name, start_ns, end_ns, program):
    ...     seen.append(name)
    >>> add_kernel_listener(on_kernel)
    >>> import numpy as np
    >>> from sporeling.runtime import get_backend
    >>> timed_call(get_backend().kernel("neg"), "neg", get_backend(), (np.ones(2),), {})
    array([-1., -1.])
    >>> remove_kernel_listener(on_kernel); seen
    ['neg']
"""
from __future__ import annotations

from time import perf_counter_ns
from typing import Callable

__all__ = ["kernel_listeners", "memory_listeners", "add_kernel_listener",
           "remove_kernel_listener", "add_memory_listener", "remove_memory_listener",
           "timed_call", "kernel_ran", "memory_changed"]

kernel_listeners: list[Callable] = []
memory_listeners: list[Callable] = []


def add_kernel_listener(fn: Callable) -> None:
    kernel_listeners.append(fn)


def remove_kernel_listener(fn: Callable) -> None:
    """Stop calling ``fn`` (absent: nothing happens)."""
    if fn in kernel_listeners:
        kernel_listeners.remove(fn)


def add_memory_listener(fn: Callable) -> None:
    memory_listeners.append(fn)


def remove_memory_listener(fn: Callable) -> None:
    """Stop calling ``fn`` (absent: nothing happens)."""
    if fn in memory_listeners:
        memory_listeners.remove(fn)


def timed_call(kernel: Callable, name: str, backend, args: tuple, params: dict):
    """``kernel(backend, *args, **params)``, reported to the kernel listeners (eager)."""
    start = perf_counter_ns()
    result = kernel(backend, *args, **params)
    kernel_ran(name, start, perf_counter_ns(), None)
    return result


# No copy of the list per event (this runs for every kernel while profiling): a listener
# removed meanwhile may see one more event.
def kernel_ran(name: str, start_ns: int, end_ns: int, program: str | None) -> None:
    for fn in kernel_listeners:
        fn(name, start_ns, end_ns, program)


def memory_changed(pool, delta: int, in_use: int, peak: int) -> None:
    for fn in memory_listeners:
        fn(pool, delta, in_use, peak)
