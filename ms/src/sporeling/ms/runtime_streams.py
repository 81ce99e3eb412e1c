"""MindSpore 2.10's streams and events (``ms.runtime.Stream``, ``Event``, ``StreamCtx``...)
on Sporeling's synchronous CPU device.

As in MindSpore's CPU build, every op has finished when the call that launched it returns,
whatever stream is current. So the API keeps its meaning with nothing queued: an event is
recorded at the moment ``record`` is called, after everything launched before it; ``query``
is True once recorded (and for an event never recorded, as in MindSpore); ``synchronize``
and ``wait`` return at once, since the work they would wait for is done; ``elapsed_time``
is the wall time between two recordings, in milliseconds. Streams are ordered objects with
ids (the default stream is 0, the communication stream 1) and a per-thread current stream.

A stream's core limits (``set_stream_limit``, ``StreamLimitCtx``) and the device's
(``set_device_limit``) apply to the matrix kernels: ``cube_num`` -- Ascend's matrix cores
-- caps the BLAS threads that run matmuls and convolutions while that stream is current
(through threadpoolctl); ``vector_num`` is recorded and reported, and holds trivially,
NumPy's elementwise kernels running on one thread.
"""
from __future__ import annotations

import itertools
import os
import threading
import time

from sporeling.core.errors import SporelingError

from . import runtime_threads

__all__ = ["Stream", "Event", "StreamCtx", "StreamLimitCtx", "current_stream",
           "default_stream", "communication_stream", "set_cur_stream", "synchronize",
           "set_device_limit", "get_device_limit", "set_stream_limit", "get_stream_limit",
           "reset_stream_limit"]

_ids = itertools.count(2)  # 0: the default stream, 1: the communication stream
_local = threading.local()
_UNSET = -1


def _check_stream(stream, what: str) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{what}', the argument 'stream' must be a "
                        f"mindspore.runtime.Stream, but got {type(stream).__name__}.")


def _check_cores(value, name: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (value < 1 and value != _UNSET):
        raise ValueError(f"For '{what}', '{name}' must be a positive int or -1 (not set), "
                         f"but got {value!r}.")
    return value


class Stream:
    """A stream of the one CPU device. ``priority`` is kept (``priority``); ``stream=``
    another Stream makes this object stand for that one (MindSpore's keyword)."""

    def __init__(self, priority=0, **kwargs):
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"For 'Stream', 'priority' must be an int, but got "
                            f"{type(priority).__name__}.")
        other = kwargs.pop("stream", None)
        kwargs.pop("device_id", None)
        if kwargs:
            raise TypeError(f"Stream got unexpected keyword arguments {sorted(kwargs)}")
        if other is not None:
            _check_stream(other, "Stream")
            self.id, self.priority = other.id, other.priority
        else:
            self.id, self.priority = next(_ids), priority
        self.device_id = 0

    @classmethod
    def _fixed(cls, stream_id: int) -> "Stream":
        stream = cls.__new__(cls)
        stream.id, stream.priority, stream.device_id = stream_id, 0, 0
        return stream

    def record_event(self, event=None) -> "Event":
        """Record ``event`` (a new one if None) on this stream and return it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event) -> None:
        """Make later work on this stream wait for ``event``: already the case here."""
        if not isinstance(event, Event):
            raise TypeError(f"For 'wait_event', 'event' must be a mindspore.runtime.Event, "
                            f"but got {type(event).__name__}.")
        event.wait(self)

    def wait_stream(self, stream) -> None:
        """Make later work on this stream wait for all work launched on ``stream``."""
        _check_stream(stream, "wait_stream")
        self.wait_event(stream.record_event())

    def synchronize(self) -> None:
        """Wait for this stream's work: every op has finished when it returns."""

    def query(self) -> bool:
        """True when all work launched on this stream has finished: always, here."""
        return True

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and self.id == other.id

    def __hash__(self) -> int:
        return hash(("Stream", self.id))

    def __repr__(self) -> str:
        return f"Stream(device=CPU:{self.device_id}, stream_id={self.id})"


_DEFAULT, _COMMUNICATION = Stream._fixed(0), Stream._fixed(1)


def default_stream() -> Stream:
    """The default stream (id 0)."""
    return _DEFAULT


def communication_stream() -> Stream:
    """The stream collectives run on (id 1)."""
    return _COMMUNICATION


def current_stream() -> Stream:
    """This thread's current stream (the default one unless set)."""
    return getattr(_local, "stream", _DEFAULT)


def set_cur_stream(stream) -> None:
    """Make ``stream`` this thread's current stream (its core limit applies from now)."""
    _check_stream(stream, "set_cur_stream")
    _local.stream = stream
    _apply_limits()


def synchronize() -> None:
    """Wait for every stream: every op has finished when it returns."""


class Event:
    """A point in a stream's work. ``enable_timing=True`` lets :meth:`elapsed_time` measure
    between two events; ``blocking`` is kept (waiting never blocks here)."""

    def __init__(self, enable_timing=False, blocking=False):
        for name, value in (("enable_timing", enable_timing), ("blocking", blocking)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Event', '{name}' must be a bool, but got "
                                f"{type(value).__name__}.")
        self.enable_timing, self.blocking = enable_timing, blocking
        self._time: float | None = None
        self._stream: Stream | None = None

    def record(self, stream=None) -> None:
        """Record the event on ``stream`` (the current one if None): now, every op launched
        before this call having finished."""
        stream = current_stream() if stream is None else stream
        _check_stream(stream, "Event.record")
        self._stream, self._time = stream, time.perf_counter()

    def wait(self, stream=None) -> None:
        """Make ``stream``'s later work wait for this event: already the case here."""
        if stream is not None:
            _check_stream(stream, "Event.wait")

    def synchronize(self) -> None:
        """Wait until the event's work has finished: it has."""

    def query(self) -> bool:
        """True when the work before the event has finished (and for an unrecorded
        event, as in MindSpore)."""
        return True

    def elapsed_time(self, end_event) -> float:
        """Milliseconds from this event's recording to ``end_event``'s."""
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', 'end_event' must be a "
                            f"mindspore.runtime.Event, but got {type(end_event).__name__}.")
        if not (self.enable_timing and end_event.enable_timing):
            raise SporelingError("both events need timing", op="Event.elapsed_time",
                                 expected="Event(enable_timing=True) for both",
                                 got=f"enable_timing={self.enable_timing} and "
                                     f"{end_event.enable_timing}")
        if self._time is None or end_event._time is None:
            raise SporelingError("both events must be recorded first",
                                 op="Event.elapsed_time", expected="record() called on both",
                                 got="an unrecorded event")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return (f"Event(enable_timing={self.enable_timing}, recorded="
                f"{self._time is not None})")


class StreamCtx:
    """``with StreamCtx(stream):`` makes ``stream`` current inside the block (None: no-op)."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None:
            _check_stream(ctx_stream, "StreamCtx")
        self.stream, self._before = ctx_stream, None

    def __enter__(self):
        if self.stream is not None:
            self._before = current_stream()
            set_cur_stream(self.stream)
        return self.stream

    def __exit__(self, *exc) -> None:
        if self.stream is not None:
            set_cur_stream(self._before)


# ---- core limits ---------------------------------------------------------------------

_stream_limits: dict[int, tuple[int, int]] = {}
_device_limit = [_UNSET, _UNSET]


def _apply_limits() -> None:
    """Cap the BLAS threads at the current stream's cube limit, else the device's."""
    cube = _stream_limits.get(current_stream().id, (_UNSET, _UNSET))[0]
    if cube == _UNSET:
        cube = _device_limit[0]
    runtime_threads.set_blas_threads(None if cube == _UNSET else cube)


def set_device_limit(device, cube_num=-1, vector_num=-1) -> None:
    """Limit the device's cores: ``cube_num`` caps the matrix kernels' threads."""
    if isinstance(device, bool) or not isinstance(device, int) or device < 0:
        raise ValueError(f"For 'set_device_limit', 'device' must be a device id (int >= 0), "
                         f"but got {device!r}.")
    _device_limit[:] = [_check_cores(cube_num, "cube_num", "set_device_limit"),
                        _check_cores(vector_num, "vector_num", "set_device_limit")]
    _apply_limits()


def _usable_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def get_device_limit(device) -> tuple:
    """``(cube_num, vector_num)`` in effect: the set limits, else the matrix kernels'
    thread count and the usable CPUs."""
    cube, vector = _device_limit
    return (runtime_threads.blas_threads() if cube == _UNSET else cube,
            _usable_cpus() if vector == _UNSET else vector)


def set_stream_limit(stream, cube_num=-1, vector_num=-1) -> None:
    """Limit the cores of ops run while ``stream`` is current."""
    _check_stream(stream, "set_stream_limit")
    _stream_limits[stream.id] = (_check_cores(cube_num, "cube_num", "set_stream_limit"),
                                 _check_cores(vector_num, "vector_num", "set_stream_limit"))
    _apply_limits()


def get_stream_limit(stream) -> tuple:
    """``(cube_num, vector_num)`` set on ``stream`` (-1: not set)."""
    _check_stream(stream, "get_stream_limit")
    return _stream_limits.get(stream.id, (_UNSET, _UNSET))


def reset_stream_limit(stream) -> None:
    """Drop ``stream``'s limits."""
    _check_stream(stream, "reset_stream_limit")
    _stream_limits.pop(stream.id, None)
    _apply_limits()


class StreamLimitCtx:
    """``with StreamLimitCtx(stream, cube_num, vector_num):`` the limits hold for ops run
    on ``stream`` inside the block; the previous ones come back after."""

    def __init__(self, stream, cube_num=-1, vector_num=-1):
        _check_stream(stream, "StreamLimitCtx")
        self.stream = stream
        self.limits = (_check_cores(cube_num, "cube_num", "StreamLimitCtx"),
                       _check_cores(vector_num, "vector_num", "StreamLimitCtx"))
        self._before = None

    def __enter__(self):
        self._before = _stream_limits.get(self.stream.id)
        _stream_limits[self.stream.id] = self.limits
        _apply_limits()
        return self

    def __exit__(self, *exc) -> None:
        if self._before is None:
            _stream_limits.pop(self.stream.id, None)
        else:
            _stream_limits[self.stream.id] = self._before
        _apply_limits()
