"""The thread policy: oneDNN's OpenMP threads and OpenBLAS's threads must not fight.

oneDNN runs on GNU OpenMP (one ``libgomp`` per process, shared with PyTorch when both are
loaded); NumPy's matmuls run on OpenBLAS's own threads. Both pools spin after their work,
so on a small machine alternating them is ruinous (on 2 cores a 0.46 ms oneDNN convolution
alternated with a 0.46 ms NumPy matmul costs 11 ms a pair, 1.4 ms with OpenBLAS on one
thread). The policy:

* ``set_context(onednn_blas_threads=n)`` (default 1): BLAS threads while the oneDNN backend
  is in use; ``None`` leaves BLAS alone.
* ``set_context(onednn_threads=n)`` (default ``None``: OpenMP's default, every core):
  oneDNN's threads. Cached plans are rebuilt for the new count (oneDNN fixes the
  partitioning of some kernels when a primitive is created).
* OpenMP's wait policy stays libgomp's (spin a while, then sleep), as under PyTorch:
  fastest on an idle machine; on a busy one ``OMP_WAIT_POLICY=PASSIVE`` (set before the
  process starts) or ``onednn_threads=1`` is far more robust (plugins/onednn/README.md,
  "Threads", has the measurements).

All through ``threadpoolctl``.
"""
from __future__ import annotations

from sporeling.core import context_version, get_context

__all__ = ["apply_policy", "follow_context", "check_threads", "generation"]

_LIMITS: dict = {}   # user_api -> the threadpoolctl limiter in force (it restores on release)
_GENERATION = [0]    # bumped when oneDNN's thread count changes: plans are rebuilt


def generation() -> int:
    return _GENERATION[0]


def check_threads(value):
    """Converter of the thread-count context keys: None or a positive int."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("must be None or a positive number of threads")
    return value


def _limit(blas_threads: int | None, onednn_threads: int | None) -> None:
    # a limiter restores every library as it found it, so lift ours newest first, then
    # set both afresh
    from threadpoolctl import threadpool_limits
    while _LIMITS:
        _LIMITS.pop(next(reversed(_LIMITS))).restore_original_limits()
    for api, threads in (("blas", blas_threads), ("openmp", onednn_threads)):
        if threads is not None:
            _LIMITS[api] = threadpool_limits(limits=threads, user_api=api)


_APPLIED: list = [None, None]  # (blas, onednn) threads in force (None, None: untouched)
_SEEN = [-1]                   # the context version last looked at


def apply_policy(blas_threads: int | None, onednn_threads: int | None) -> None:
    """Limit BLAS to ``blas_threads`` and OpenMP (oneDNN) to ``onednn_threads``; ``None``
    lifts our limit. A new oneDNN thread count retires the cached plans."""
    if [blas_threads, onednn_threads] == _APPLIED:
        return
    _limit(blas_threads, onednn_threads)
    if onednn_threads != _APPLIED[1]:
        _GENERATION[0] += 1
    _APPLIED[:] = [blas_threads, onednn_threads]


def follow_context() -> None:
    """Apply the context's thread keys if they changed (polled by every kernel call: one
    integer comparison while the context is unchanged)."""
    version = context_version()
    if version != _SEEN[0]:
        _SEEN[0] = version
        apply_policy(get_context("onednn_blas_threads"), get_context("onednn_threads"))
