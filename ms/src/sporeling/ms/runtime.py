"""``ms.runtime``: MindSpore 2.10's runtime namespace -- streams and events, core and thread
limits, the memory pool's figures and settings -- gathering the names the facade also binds
at the top level (``runtime_streams``, ``runtime_threads``, ``runtime_memory``,
``runtime_info``)."""
from .runtime_info import launch_blocking
from .runtime_memory import (MemPool, empty_cache, max_memory_allocated, max_memory_reserved,
                             memory_allocated, memory_reserved, memory_stats, memory_summary,
                             reset_max_memory_allocated, reset_max_memory_reserved,
                             reset_peak_memory_stats, set_memory, use_mem_pool)
from .runtime_streams import (Event, Stream, StreamCtx, StreamLimitCtx, communication_stream,
                              current_stream, default_stream, get_device_limit,
                              get_stream_limit, reset_stream_limit, set_cur_stream,
                              set_device_limit, set_stream_limit, synchronize)
from .runtime_threads import dispatch_threads_num, set_cpu_affinity
from .pluggable_allocator import PluggableAllocator

__all__ = ["Stream", "Event", "StreamCtx", "StreamLimitCtx", "current_stream",
           "default_stream", "communication_stream", "set_cur_stream", "synchronize",
           "set_device_limit", "get_device_limit", "set_stream_limit", "get_stream_limit",
           "reset_stream_limit", "dispatch_threads_num", "set_cpu_affinity", "set_memory",
           "memory_stats", "memory_reserved", "max_memory_reserved", "memory_allocated",
           "max_memory_allocated", "memory_summary", "reset_peak_memory_stats",
           "reset_max_memory_reserved", "reset_max_memory_allocated", "empty_cache",
           "MemPool", "use_mem_pool", "launch_blocking", "PluggableAllocator"]
