"""The thread policy: oneDNN's OpenMP threads and OpenBLAS's threads must not fight.

oneDNN runs on GNU OpenMP (one libgomp per process, shared with PyTorch when both are
loaded); NumPy's matmuls run on OpenBLAS's own threads. Each pool spins for a while after
its work, so on a small machine alternating them is ruinous: on 2 cores, a 0.46 ms oneDNN
convolution alternated with a 0.46 ms NumPy matmul costs 11 ms a pair, 1.4 ms with OpenBLAS
on one thread. So while the oneDNN backend is in use, BLAS runs on ``onednn_blas_threads``
threads (a context key, default 1; ``None`` leaves BLAS alone) through ``threadpoolctl``;
oneDNN keeps OpenMP's threads (``OMP_NUM_THREADS``, default: every core).
"""
from __future__ import annotations

__all__ = ["apply_policy", "check_blas_threads"]

_LIMITS = None  # the threadpoolctl limiter in force (kept: it restores on release)


def check_blas_threads(value):
    """``set_context(onednn_blas_threads=...)``'s converter: None or a positive int."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("must be None or a positive number of threads")
    return value


def apply_policy(blas_threads: int | None) -> None:
    """Limit BLAS to ``blas_threads`` (``None``: lift our limit)."""
    global _LIMITS
    from threadpoolctl import threadpool_limits
    if _LIMITS is not None:
        _LIMITS.restore_original_limits()
        _LIMITS = None
    if blas_threads is not None:
        _LIMITS = threadpool_limits(limits=blas_threads, user_api="blas")
