"""A kernel call compiled once per (op, shapes, dtypes, attributes): a :class:`Plan`.

Building a plan creates the primitive descriptors (letting each primitive choose its
layouts), the reorders between the user's plain buffers and those layouts, the internal
buffers and the scratchpad, and the ``dnnl_exec_arg_t`` arrays. Running it costs, above the
primitives themselves, one data-pointer read and one ``set_data_handle`` per user buffer
and one ``execute`` per step (a cached tiny convolution: ~8 us of Python, 3.3 us of
oneDNN).

    def build(b):                        # a Builder: b.user(desc), b.into(...), b.execute(pd, args)
        ...
    plan = cached_plan(key, build)       # built once per key, cached per thread
    plan.run(x, w, y)                    # the user buffers, in the order build declared them
"""
from __future__ import annotations

import ctypes
import threading
from collections import OrderedDict
from ctypes import c_void_p

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from . import constants as C
from .lib import ExecArg, OneDnnError, call, load
from .memory import Desc, Memory, engine, stream
from .threads import generation

__all__ = ["PrimitiveDesc", "Builder", "Plan", "cached_plan"]


class PrimitiveDesc:
    """An owned ``dnnl_primitive_desc_t``: calls oneDNN's ``dnnl_<name>_primitive_desc_create``
    with the out-parameter, the engine and a user-scratchpad attribute filled in. ``args``
    may hold :class:`Desc` and :class:`PrimitiveDesc` objects (passed as their handles, and
    alive until the call returns)."""
    __slots__ = ("handle", "name")

    def __init__(self, name: str, *args, post_ops: tuple = ()) -> None:
        self.name, self.handle = name, c_void_p()
        handles = [a.handle if isinstance(a, (Desc, PrimitiveDesc)) else a for a in args]
        call(f"dnnl_{name}_primitive_desc_create", ctypes.byref(self.handle), engine(),
             *handles, _attr(post_ops))

    def md(self, what: int, index: int = 0) -> Desc:
        return Desc.of(self, what, index)

    @property
    def impl(self) -> str:
        """The implementation oneDNN chose (``brg:avx2``, ``gemm:jit``, ``ref:any``...)."""
        info = ctypes.c_char_p()
        call("dnnl_primitive_desc_query", self.handle, C.dnnl_query_impl_info_str, 0,
             ctypes.byref(info))
        return (info.value or b"").decode()

    def __del__(self) -> None:
        if getattr(self, "handle", None):  # None if __init__ failed
            try:
                call("dnnl_primitive_desc_destroy", self.handle)
            except Exception:  # interpreter shutdown
                pass
            self.handle = None


_ATTRS: dict = {}
POST_OPS = {"relu": C.dnnl_eltwise_relu}
"""The activations a primitive may apply to its result as a post-op (name -> algorithm)."""


def _attr(post_ops: tuple = ()) -> c_void_p:
    """The attribute of every primitive with these post-ops (activation names, applied to
    its result in order): the scratchpad is ours (one buffer per plan, allocated once)
    instead of a malloc inside every execute. Made once per post-op sequence."""
    attr = _ATTRS.get(post_ops)
    if attr is None:
        attr = c_void_p()
        call("dnnl_primitive_attr_create", ctypes.byref(attr))
        call("dnnl_primitive_attr_set_scratchpad_mode", attr, C.dnnl_scratchpad_mode_user)
        if post_ops:
            ops = c_void_p()
            call("dnnl_post_ops_create", ctypes.byref(ops))
            for name in post_ops:
                call("dnnl_post_ops_append_eltwise", ops, POST_OPS[name], 0.0, 0.0)
            call("dnnl_primitive_attr_set_post_ops", attr, ops)  # the attribute copies them
            call("dnnl_post_ops_destroy", ops)
        _ATTRS[post_ops] = attr
    return attr


class _Primitive:
    __slots__ = ("handle",)

    def __init__(self, pd: PrimitiveDesc) -> None:
        self.handle = c_void_p()
        call("dnnl_primitive_create", ctypes.byref(self.handle), pd.handle)

    def __del__(self) -> None:
        if getattr(self, "handle", None):  # None if __init__ failed
            try:
                call("dnnl_primitive_destroy", self.handle)
            except Exception:  # interpreter shutdown
                pass
            self.handle = None


class Builder:
    """Collects a plan's steps. User buffers come first (``user``), in the order
    :meth:`Plan.run` receives them."""

    def __init__(self) -> None:
        self.users: list[Memory] = []
        self.steps: list[tuple] = []
        self.names: list[str] = []  # each step's primitive kind ("reorder", "convolution...")
        self.keep: list = []
        self.extra = None  # what the kernel wants back from its plan (internal buffers)

    def user(self, desc: Desc) -> Memory:
        memory = Memory(desc)
        self.users.append(memory)
        return memory

    def internal(self, desc: Desc) -> Memory:
        memory = Memory(desc, owned=True)
        self.keep.append(memory)
        return memory

    def reorder(self, src: Memory, dst: Memory) -> None:
        pd = _Reorder(src.desc, dst.desc)
        self.execute(pd, {C.DNNL_ARG_FROM: src, C.DNNL_ARG_TO: dst})

    def into(self, user: Memory, wanted: Desc) -> Memory:
        """``user`` as the primitive wants it: itself, or an internal copy reordered
        before the primitive runs."""
        if wanted == user.desc:
            return user
        inner = self.internal(wanted)
        self.reorder(user, inner)
        return inner

    def out_of(self, wanted: Desc, user: Memory) -> tuple[Memory, callable]:
        """Where the primitive writes for ``user``: itself, or an internal buffer and a
        function adding the reorder back (call it after the primitive's step)."""
        if wanted == user.desc:
            return user, lambda: None
        inner = self.internal(wanted)
        return inner, lambda: self.reorder(inner, user)

    def at_edges(self, pd, inputs, output) -> None:
        """A step running ``pd`` on plain user buffers: each input ``(arg, plain desc,
        query)`` reordered into the layout ``pd`` chose (query None: taken as it is), the output ``(arg, plain desc,
        query)`` written there and reordered back. The user buffers are the inputs', then
        the output's, in that order."""
        users = [(self.user(desc), arg, query) for arg, desc, query in (*inputs, output)]
        args = {arg: memory if query is None else self.into(memory, pd.md(query))
                for memory, arg, query in users[:-1]}
        memory, arg, query = users[-1]
        args[arg], back = self.out_of(pd.md(query), memory)
        self.execute(pd, args)
        back()

    def execute(self, pd, args: dict) -> None:
        """A step running ``pd``'s primitive on ``args`` (+ its scratchpad)."""
        scratch = pd.md(C.dnnl_query_scratchpad_md)
        if scratch:
            args = dict(args)
            args[C.DNNL_ARG_SCRATCHPAD] = self.internal(scratch)
        array = (ExecArg * len(args))(*(ExecArg(k, m.handle) for k, m in args.items()))
        primitive = _Primitive(pd)
        self.keep += [pd, primitive, list(args.values())]
        self.steps.append((primitive.handle, len(args), array))
        self.names.append(pd.name)

    def plan(self) -> "Plan":
        plan = Plan(tuple(m.handle for m in self.users), tuple(self.steps), self.keep,
                    self.extra)
        plan.names = tuple(self.names)
        return plan


class _Reorder(PrimitiveDesc):
    def __init__(self, src: Desc, dst: Desc) -> None:
        self.name, self.handle = "reorder", c_void_p()
        call("dnnl_reorder_primitive_desc_create", ctypes.byref(self.handle), src.handle,
             engine(), dst.handle, engine(), _attr())


class Plan:
    """The compiled call: set the user buffers' pointers, run the steps in order."""
    __slots__ = ("users", "steps", "names", "keep", "extra", "_set", "_execute", "_stream")

    def __init__(self, users, steps, keep, extra=None) -> None:
        lib = load()
        self.users, self.steps, self.keep, self.extra = users, steps, keep, extra
        self.names = ()
        self._set, self._execute = lib.dnnl_memory_set_data_handle, lib.dnnl_primitive_execute
        self._stream = stream()

    def run(self, *arrays) -> None:
        """Run on ``arrays`` (contiguous NumPy arrays, one per user buffer, in order)."""
        self.bind(*arrays)
        self.execute()

    def bind(self, *arrays) -> None:
        """Point the user buffers at ``arrays`` (then :meth:`execute`, or run the steps
        one by one where the kernel works between them)."""
        set_handle = self._set
        for memory, array in zip(self.users, arrays):
            if RECORDING:
                capture.extern(load()._name, "dnnl_memory_set_data_handle",
                               (capture.Handle(memory.value), array), keep=self)
            if set_handle(memory, address(array)):
                raise OneDnnError("dnnl_memory_set_data_handle", "invalid argument")

    def execute(self, steps=None) -> None:
        """Run ``steps`` (default: all of them) in order."""
        execute, s = self._execute, self._stream
        for primitive, n, args in self.steps if steps is None else steps:
            if RECORDING:
                capture.extern(load()._name, "dnnl_primitive_execute", (
                    capture.Handle(primitive.value), capture.Handle(s.value), n,
                    capture.Handle(ctypes.addressof(args))), keep=self)
            status = execute(primitive, s, n, args)
            if status:
                raise OneDnnError("dnnl_primitive_execute",
                                  load().dnnl_status2str(status).decode())


_char_at = ctypes.c_char.from_buffer


def address(array) -> int:
    """The address of ``array``'s first element. Through the buffer protocol (0.25 us)
    where the array is writable and contiguous, else NumPy's ``__array_interface__``
    (1.1 us: a strided view, a read-only or an empty array)."""
    try:
        return ctypes.addressof(_char_at(array))
    except (TypeError, ValueError, BufferError):
        return array.__array_interface__["data"][0]


_LOCAL = threading.local()
CACHE_SIZE = 256


def cached_plan(key, build):
    """The plan for ``key`` (built by ``build(Builder()) -> None`` on first use). Plans own
    internal buffers, so each thread keeps its own (threads may run one model at once)."""
    cache = getattr(_LOCAL, "plans", None)
    if cache is None or _LOCAL.generation != generation():  # another thread count
        cache = _LOCAL.plans = OrderedDict()
        _LOCAL.generation = generation()
    plan = cache.get(key)
    if plan is None:
        builder = Builder()
        build(builder)
        plan = cache[key] = builder.plan()
        if len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return plan
