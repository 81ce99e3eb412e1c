"""The pool's ``set_context`` keys, contributed by runtime's plugin.

* ``mempool_block_size``: bytes per block, ``"512MB"``, ``"1GB"`` or an int, at least
  ``MIN_BLOCK_SIZE`` (1 MB; MindSpore's minimum is 1 GB, but a CPU reference backend
  and tests want smaller); default 1 GB.
* ``max_device_memory``: cap on the pool's reserved bytes; default the machine's physical
  memory (``os.sysconf``: page size times physical pages). Where the OS cannot tell
  (Windows, ...), ``FALLBACK_MAX_MEMORY``, 1024 GB as in MindSpore: no cap short of what
  the OS refuses, which is then an ``OutOfMemoryError`` too. A value below what the
  pools following the key hold releases their idle blocks, or is refused with what their
  live buffers hold.
* ``mempool_poison``: fill freed memory with ``0xFF`` bytes (NaN in every float dtype) so
  a use-after-free shows; default ``False``.

Values are stored normalised (sizes as int bytes), defaults included.

    >>> from sporeling.core import context, get_context
    >>> with context(mempool_block_size="512MB"):
    ...     get_context("mempool_block_size")
    536870912
"""
from __future__ import annotations

import os

from sporeling.core import format_size, parse_size

__all__ = ["MIN_BLOCK_SIZE", "DEFAULT_BLOCK_SIZE", "DEFAULT_MAX_MEMORY", "FALLBACK_MAX_MEMORY",
           "physical_memory", "block_size", "max_memory", "add_memory_options"]

MIN_BLOCK_SIZE = 1024**2
DEFAULT_BLOCK_SIZE = 1024**3
FALLBACK_MAX_MEMORY = 1024 * 1024**3


def physical_memory() -> int:
    """The machine's physical memory in bytes, or ``FALLBACK_MAX_MEMORY`` if the OS has no
    ``sysconf`` for it."""
    try:
        size = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf, or not these names
        return FALLBACK_MAX_MEMORY
    return size if size > 0 else FALLBACK_MAX_MEMORY


DEFAULT_MAX_MEMORY = physical_memory()


def block_size(value) -> int:
    """Parse and check a block size (raises ``SizeError``/``ValueError`` when bad)."""
    size = parse_size(value, name="mempool_block_size")
    if size < MIN_BLOCK_SIZE:
        raise ValueError(f"blocks smaller than {format_size(MIN_BLOCK_SIZE)} only add "
                         f"per-block overhead")
    return size


def max_memory(value) -> int:
    """Parse a cap (raises ``SizeError`` when bad)."""
    return parse_size(value, name="max_device_memory")


def _context_cap(value) -> int:
    # the key's converter: a lower cap must fit the pools that follow the key (PoolError)
    from .pool import fit_context_followers  # pool imports this module
    cap = max_memory(value)
    fit_context_followers(cap)
    return cap


def add_memory_options(options) -> None:
    """Declare the pool's keys on core's ``ContextOptions``."""
    options.add_option("mempool_block_size", DEFAULT_BLOCK_SIZE, convert=block_size,
                       doc="Bytes per memory-pool block; the pool grows a block at a time.",
                       valid=f"a size such as '512MB' or '1GB' (int bytes too), at least "
                             f"{format_size(MIN_BLOCK_SIZE)}")
    options.add_option("max_device_memory", DEFAULT_MAX_MEMORY, convert=_context_cap,
                       doc="Most bytes the memory pool may reserve; past it, "
                           "OutOfMemoryError. Default: the machine's physical memory.",
                       valid="a positive size such as '8GB' or '1024GB' (int bytes too), "
                             "at least what live pool buffers hold")
    options.add_option("mempool_poison", False, choices={"True": True, "False": False},
                       doc="Debug: fill freed pool memory with 0xFF (NaN) to expose "
                           "use-after-free.",
                       valid="True or False")
