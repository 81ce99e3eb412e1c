"""``nn.Cell``'s members of MindSpore 2.10 about where and how a cell runs: ``to`` (cast the
parameters and buffers), ``to_empty`` (fresh storage), the memory/parallel switches
``offload``, ``set_boost``, ``set_data_parallel`` (flags on one CPU process, as
``recompute``), ``remove_redundant_parameters`` and the compile state ``compiled`` /
``enable_backward_hook`` / ``get_func_graph_proto``."""
from __future__ import annotations

import numpy as np

from sporeling.core import dtypes
from sporeling.expression import Tensor, structure_epoch

__all__ = ["CellRuntimeMixin"]

_BOOST_TYPES = ("less_bn",)
_DEVICES = (None, "cpu")


def _tensors(cell, recurse: bool):
    """``(owner, attribute, tensor)`` of every parameter and buffer (a shared one once)."""
    seen = set()
    cells = cell.cells_and_names() if recurse else [("", cell)]
    for _, owner in cells:
        names = list(owner._params) + list(owner.__dict__.get("_buffers") or ())
        for name in names:
            value = owner._params.get(name) if name in owner._params else \
                getattr(owner, name, None)
            if value is not None and id(value) not in seen:
                seen.add(id(value))
                yield owner, name, value


def _replace(owner, name, value, array: np.ndarray) -> None:
    """Give ``value`` (a Parameter keeps its identity; a buffer is rebound) ``array``."""
    if hasattr(value, "set_data"):
        value.set_data(array)
    else:
        object.__setattr__(owner, name, Tensor(array))


class CellRuntimeMixin:
    """The members described in the module doc."""

    # ---- dtype and storage ----------------------------------------------------------------

    def to(self, dtype) -> "CellRuntimeMixin":
        """Cast the floating-point parameters and buffers of this cell and its sub-cells to
        ``dtype`` (a floating dtype); integer and bool ones are kept. Parameters stay the
        same objects (optimizers holding them see the cast). Returns the cell."""
        dst = dtypes.dtype(dtype)
        if not np.issubdtype(dst, np.floating) and dst != dtypes.bfloat16:
            raise TypeError(f"For 'Cell.to', 'dtype' must be a floating-point dtype "
                            f"(float16, bfloat16, float32, float64), but got {dtype}.")
        for owner, name, value in _tensors(self, recurse=True):
            array = value.asnumpy()
            if np.issubdtype(array.dtype, np.floating) or array.dtype == dtypes.bfloat16:
                _replace(owner, name, value, array.astype(dst))
        return self

    def to_empty(self, *, device=None) -> "CellRuntimeMixin":
        """Give every parameter and buffer new, uninitialised storage of the same shape and
        dtype on ``device`` (``None`` or ``"CPU"``: Sporeling's one device), as after
        ``no_init_parameters``; load a checkpoint or ``set_data`` before using them.
        Returns the cell."""
        if not (device is None or isinstance(device, str) and device.lower() in _DEVICES):
            raise ValueError(f"For 'Cell.to_empty', 'device' must be None or 'CPU' "
                             f"(Sporeling runs on the CPU), but got {device!r}.")
        for owner, name, value in _tensors(self, recurse=True):
            _replace(owner, name, value, np.empty(value.shape, value.asnumpy().dtype))
        return self

    # ---- memory and parallel switches -----------------------------------------------------

    def offload(self, backward_prefetch="Auto") -> None:
        """Mark this cell and its sub-cells to keep their activations in host memory
        between the forward and backward passes, prefetched ``backward_prefetch`` cells
        ahead ("Auto" or a positive int). On the CPU host and device memory are one, so
        results and gradients are unchanged (flags ``offload``, ``backward_prefetch``)."""
        if isinstance(backward_prefetch, str):
            if backward_prefetch != "Auto":
                raise ValueError(f"For 'offload', 'backward_prefetch' must be 'Auto' or a "
                                 f"positive int, but got {backward_prefetch!r}.")
        elif isinstance(backward_prefetch, bool) or not isinstance(backward_prefetch, int) \
                or backward_prefetch <= 0:
            raise ValueError(f"For 'offload', 'backward_prefetch' must be 'Auto' or a "
                             f"positive int, but got {backward_prefetch!r}.")
        self.add_flags_recursive(offload=True, backward_prefetch=backward_prefetch)

    def set_boost(self, boost_type: str) -> "CellRuntimeMixin":
        """Enable a boost algorithm for this cell and its sub-cells (MindSpore's library has
        ``"less_bn"``: flag ``less_bn``). Returns the cell."""
        if not isinstance(boost_type, str) or boost_type.lower() not in _BOOST_TYPES:
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be one of "
                             f"{list(_BOOST_TYPES)}, but got {boost_type!r}.")
        self.add_flags_recursive(less_bn=boost_type.lower() == "less_bn")
        return self

    def set_data_parallel(self) -> None:
        """Generate data-parallel strategies for the operators of this cell that have none
        (flag ``strategy_gen_mode="data_parallel"``). On one process data parallelism is
        the plain computation."""
        self.add_flags_recursive(strategy_gen_mode="data_parallel")

    def set_comm_fusion(self, fusion_type, recurse: bool = True) -> "CellRuntimeMixin":
        """Set ``comm_fusion`` of the trainable parameters (of the sub-cells too with
        ``recurse``): data parallel's gradient all-reduce fuses only gradients of one group
        into a bucket, and none of group 0 (``sporeling.parallel``'s buckets)."""
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int) or \
                fusion_type < 0:
            raise ValueError(f"set_comm_fusion: fusion_type must be an int >= 0, got "
                             f"{fusion_type!r}")
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    def remove_redundant_parameters(self) -> None:
        """Remove from this cell and its sub-cells the parameters whose names are not in
        ``parallel_parameter_name_list`` (what the compiled parallel graph uses)."""
        keep = set(self.parallel_parameter_name_list)
        for _, cell in self.cells_and_names():
            for attr, param in list(cell._params.items()):
                if param is not None and param.name not in keep:
                    del cell._params[attr]
                    structure_epoch.changed()
                    cell.__dict__.pop(attr, None)

    # ---- compile state --------------------------------------------------------------------

    @property
    def compiled(self) -> bool:
        """Whether a graph has been compiled for this cell (``compile``, a Graph-mode call
        or ``compile_and_run``)."""
        from sporeling.expression.graph.cell_call import cache_of
        return cache_of(self).info()["compile_count"] > 0

    @property
    def enable_backward_hook(self) -> bool:
        """Whether a backward (or backward pre-) hook is registered on this cell."""
        hooks = self.__dict__.get("_hooks") or {}
        return bool(hooks.get("backward") or hooks.get("backward_pre"))

    def register_saved_tensors_hooks(self, pack_hook, unpack_hook):
        """Run this cell's PyNative forward inside ``ms.saved_tensors_hooks(pack_hook,
        unpack_hook)``: values its ops keep for the backward pass are packed. Returns a
        handle whose ``remove()`` unregisters them."""
        from sporeling.expression.autograd import saved_tensors_hooks
        hooks = saved_tensors_hooks(pack_hook, unpack_hook)

        def enter(cell, args):
            cell.__dict__.setdefault("_saved_hooks_active", []).append(
                saved_tensors_hooks(hooks.pack_hook, hooks.unpack_hook).__enter__())

        def leave(cell, args, output):
            cell.__dict__["_saved_hooks_active"].pop().__exit__(None, None, None)

        pre = self.register_forward_pre_hook(enter)
        post = self.register_forward_hook(leave, prepend=True)
        return _HandlePair(pre, post)

    def get_func_graph_proto(self) -> bytes:
        """The serialized graph (a MindIR ``ModelProto``) of the inputs this cell was last
        compiled for with ``compile``; ``mindspore.load`` reads it."""
        inputs = self.__dict__.get("_compiled_inputs")
        if inputs is None:
            raise RuntimeError(f"For 'get_func_graph_proto', {type(self).__name__} has not "
                               "been compiled: call cell.compile(*inputs) first.")
        from ..mindir.tracing import inference_graph
        from ..mindir.writer import to_model
        graph, _, names = inference_graph(self, inputs)
        return to_model(graph, names).SerializeToString()


class _HandlePair:
    """The handle of a pair of hooks: ``remove()`` unregisters both."""

    def __init__(self, *handles):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()
