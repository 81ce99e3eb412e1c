"""2.10's ``mindspore.ops`` communication functions (``mindspore.ops.communication``:
process groups, collectives, point-to-point) for a world of one process, over
``ms.communication`` (rank 0 of 1, the state a script launched without a cluster sees).

A collective's result in one process is the process's own data: ``all_reduce`` leaves the
tensor as is, ``all_gather_into_tensor`` copies the input into the output... A group of
several processes (``sporeling.parallel`` installed and launched on several) is refused with
a named error rather than answered wrongly. Point-to-point calls loop back: what rank 0
sends to itself (``send``/``isend``, per tag) is what it receives (``recv``/``irecv``).

In-place mode (the default, ``set_comm_ops_inplace``): a function writes its result into its
output (or input-output) tensor and returns the communication handle, None unless
``async_op`` (then a handle whose ``wait()`` returns at once); not in place it returns
``(result, handle)`` and leaves the tensors alone."""
from __future__ import annotations

import collections

import numpy as np

from sporeling.core.errors import ArgumentError, SporelingError
from sporeling.ms import communication as _comm
from sporeling.ms.common.tensor_method_adapters import _write

from ._common import Tensor, ops, tensor, to_numpy

__all__ = ["init_process_group", "destroy_process_group", "is_available", "is_initialized",
           "get_rank", "get_world_size", "get_backend", "new_group", "get_global_rank",
           "get_group_rank", "get_process_group_ranks", "barrier", "all_reduce",
           "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven",
           "all_gather_object", "reduce", "reduce_scatter", "reduce_scatter_tensor",
           "reduce_scatter_tensor_uneven", "broadcast", "broadcast_object_list",
           "all_to_all", "all_to_all_single", "all_to_all_v_c", "gather_into_tensor",
           "gather_object", "scatter_tensor", "scatter_object_list", "send", "recv", "isend",
           "irecv", "send_object_list", "recv_object_list", "batch_isend_irecv",
           "set_comm_ops_inplace", "all_gather_matmul", "matmul_reduce_scatter"]

_REDUCE_OPS = ("sum", "prod", "max", "min", "avg")
# the functions whose result goes into a tensor argument; each may be switched off
_INPLACE = dict.fromkeys(
    ["all_reduce", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "reduce",
     "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "broadcast",
     "all_to_all_single", "all_to_all_v_c", "gather_into_tensor", "scatter_tensor", "recv",
     "irecv"], True)
_MAILBOX: dict = collections.defaultdict(collections.deque)  # (tag) -> values sent to self


class CommHandle:
    """The handle of an asynchronous call; in one process the call is done already."""

    def wait(self) -> bool:
        return True


def _handle(async_op):
    return CommHandle() if async_op else None


def _group_size(op: str, group) -> int:
    """The size of ``group``; a collective of several processes is refused."""
    _comm._check_inited(op)
    size = _comm.get_group_size(group)
    if size > 1:
        raise SporelingError("a collective over several processes", op=op,
                             expected="a group of one process (rank 0 of 1)",
                             got=f"{size} processes", hint="use sporeling.parallel's "
                                                           "collectives")
    return size


def _rank_in_world(op: str, rank, what: str):
    if int(rank) != 0:
        raise SporelingError(f"no such {what} rank", op=op,
                             expected="rank 0 (the only process)", got=rank)


def _check_op(op: str, reduce_op):
    if str(reduce_op).lower() not in _REDUCE_OPS:
        raise SporelingError("unknown reduce op", op=op, expected=" / ".join(_REDUCE_OPS),
                             got=repr(reduce_op))


def _copy(x):
    return ops.add(tensor(x), 0)


def _done(name: str, target, value, async_op):
    """The in-place or returned result of ``name`` (see the module doc)."""
    if not _INPLACE.get(name, False):
        return value, _handle(async_op)
    if not isinstance(target, Tensor):
        raise SporelingError("needs an output Tensor", op=f"ops.{name}", expected="a Tensor",
                             got=type(target).__name__)
    if int(np.prod(target.shape)) != int(np.prod(value.shape)):
        raise SporelingError("the output tensor has the wrong size", op=f"ops.{name}",
                             expected=f"shape {list(value.shape)}",
                             got=f"shape {list(target.shape)}")
    _write(target, ops.reshape(value, tuple(target.shape)))
    return _handle(async_op)


# --- process groups -------------------------------------------------------------------------

def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, pg_options=None, device_id=None):
    """Start communication (``ms.communication.init``): a world of one process."""
    if int(world_size) not in (-1, 1):
        raise SporelingError("one process only", op="ops.init_process_group",
                             expected="world_size -1 or 1", got=world_size)
    if int(rank) not in (-1, 0):
        _rank_in_world("ops.init_process_group", rank, "process")
    _comm.init(backend)


def destroy_process_group(group=None):
    """Stop communication (None) or forget the group ``group``."""
    if group is None or group == _comm.GlobalComm.WORLD_COMM_GROUP:
        _comm.release()
    else:
        _comm.destroy_group(group)


def is_available():
    """True: the communication functions are there (one process)."""
    return True


def is_initialized():
    """Whether :func:`init_process_group` ran (and no destroy since)."""
    return bool(_comm.GlobalComm.INITED)


def get_rank(group=None):
    """This process's rank in ``group``: 0; -1 before :func:`init_process_group`."""
    return _comm.get_rank(group) if _comm.GlobalComm.INITED else -1


def get_world_size(group=None):
    """The number of processes in ``group``; -1 before :func:`init_process_group`."""
    return _comm.get_group_size(group) if _comm.GlobalComm.INITED else -1


def get_backend(group=None):
    """The backend's name (``"hccl"``, ``"nccl"`` or ``"mccl"``)."""
    _comm._check_inited("ops.get_backend")
    _comm._check_group("ops.get_backend", group)
    return _comm.GlobalComm.BACKEND


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None):
    """A group of the world ranks ``ranks`` (None: the world); its name."""
    if ranks is None:
        return _comm.GlobalComm.WORLD_COMM_GROUP
    name = group_desc or "group_" + "_".join(str(int(r)) for r in ranks)
    if name not in _comm._groups:
        _comm.create_group(name, list(ranks))
    return name


def get_global_rank(group, group_rank):
    """The world rank of member ``group_rank`` of ``group``."""
    return _comm.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank):
    """The rank in ``group`` of world rank ``global_rank``."""
    return _comm.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None):
    """The world ranks of ``group``'s members."""
    _comm._check_inited("ops.get_process_group_ranks")
    group = _comm._check_group("ops.get_process_group_ranks", group)
    return list(_comm._groups.get(group, [0]))


def barrier(group=None, async_op=False, device_ids=None):
    """Wait for every process of ``group`` (here: none to wait for)."""
    _group_size("ops.barrier", group)
    return _handle(async_op)


def set_comm_ops_inplace(is_enable, func_list=None):
    """Whether the communication functions (``func_list``: those named; None: all) write
    into their tensor arguments (True) or return ``(result, handle)``."""
    if not isinstance(is_enable, bool):
        raise SporelingError("is_enable must be a bool", op="ops.set_comm_ops_inplace",
                             expected="True or False", got=repr(is_enable))
    names = list(_INPLACE) if func_list is None else list(func_list)
    unknown = [n for n in names if n not in _INPLACE]
    if unknown:
        raise SporelingError("unknown communication functions", op="ops.set_comm_ops_inplace",
                             expected=f"names among {sorted(_INPLACE)}", got=unknown)
    for name in names:
        _INPLACE[name] = is_enable


# --- collectives ---------------------------------------------------------------------------

def all_reduce(tensor, op="sum", group=None, async_op=False):  # noqa: F811 - MindSpore's name
    """The element-wise reduction (``op``) of ``tensor`` over the group: the tensor."""
    _check_op("ops.all_reduce", op)
    _group_size("ops.all_reduce", group)
    return _done("all_reduce", tensor, _copy(tensor), async_op)


def reduce(tensor, dst, op="sum", group=None, async_op=False):  # noqa: F811
    """The reduction of ``tensor`` over the group, into rank ``dst``'s tensor."""
    _check_op("ops.reduce", op)
    _group_size("ops.reduce", group)
    _rank_in_world("ops.reduce", dst, "destination")
    return _done("reduce", tensor, _copy(tensor), async_op)


def broadcast(tensor, src, group=None, async_op=False):  # noqa: F811
    """Rank ``src``'s tensor, into every rank's ``tensor``."""
    _group_size("ops.broadcast", group)
    _rank_in_world("ops.broadcast", src, "source")
    return _done("broadcast", tensor, _copy(tensor), async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):  # noqa: F811
    """Every rank's ``tensor``, one per entry of ``tensor_list`` (written there)."""
    _group_size("ops.all_gather", group)
    if len(tensor_list) != 1:
        raise SporelingError("needs one output per process", op="ops.all_gather",
                             expected="a list of 1 tensor", got=f"{len(tensor_list)}")
    _write(tensor_list[0], _copy(tensor))
    return _handle(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """The ranks' inputs concatenated on the first axis: the input."""
    _group_size("ops.all_gather_into_tensor", group)
    return _done("all_gather_into_tensor", output_tensor, _copy(input_tensor), async_op)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,  # noqa: A002
                                  async_op=False):
    """Like :func:`all_gather_into_tensor` with a first-axis size per rank."""
    _group_size("ops.all_gather_into_tensor_uneven", group)
    return _done("all_gather_into_tensor_uneven", output, _copy(input), async_op)


def all_gather_object(object_list, obj, group=None):
    """Every rank's picklable ``obj``, into ``object_list``."""
    _group_size("ops.all_gather_object", group)
    object_list[0] = obj


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """The ranks' inputs concatenated on the first axis, on rank ``dst``."""
    _group_size("ops.gather_into_tensor", group)
    _rank_in_world("ops.gather_into_tensor", dst, "destination")
    return _done("gather_into_tensor", output_tensor, _copy(input_tensor), async_op)


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """Every rank's ``obj``, into ``object_gather_list`` on rank ``dst``."""
    _group_size("ops.gather_object", group)
    _rank_in_world("ops.gather_object", dst, "destination")
    object_gather_list[0] = obj


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):  # noqa: A002
    """Entry ``rank`` of the element-wise reduction of the ranks' ``input_list``."""
    _check_op("ops.reduce_scatter", op)
    _group_size("ops.reduce_scatter", group)
    _write(output, _copy(input_list[0]))
    return _handle(async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):  # noqa: A002
    """This rank's first-axis block of the reduction of the ranks' inputs: the input."""
    _check_op("ops.reduce_scatter_tensor", op)
    _group_size("ops.reduce_scatter_tensor", group)
    return _done("reduce_scatter_tensor", output, _copy(input), async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum",  # noqa: A002
                                 group=None, async_op=False):
    """Like :func:`reduce_scatter_tensor` with a first-axis size per rank."""
    _check_op("ops.reduce_scatter_tensor_uneven", op)
    _group_size("ops.reduce_scatter_tensor_uneven", group)
    return _done("reduce_scatter_tensor_uneven", output, _copy(input), async_op)


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """Rank ``src``'s input split on the first axis, one block per rank: the input."""
    _group_size("ops.scatter_tensor", group)
    _rank_in_world("ops.scatter_tensor", src, "source")
    return _done("scatter_tensor", output_tensor, _copy(input_tensor), async_op)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None):
    """Entry ``rank`` of rank ``src``'s ``scatter_object_input_list``, into
    ``scatter_object_output_list[0]``."""
    _group_size("ops.scatter_object_list", group)
    _rank_in_world("ops.scatter_object_list", src, "source")
    scatter_object_output_list[0] = scatter_object_input_list[0]


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """Rank ``src``'s ``object_list`` on every rank (unchanged here)."""
    _group_size("ops.broadcast_object_list", group)
    _rank_in_world("ops.broadcast_object_list", src, "source")


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Entry ``j`` of each rank's inputs goes to rank ``j``: the inputs, into the outputs."""
    _group_size("ops.all_to_all", group)
    for out, value in zip(output_tensor_list, input_tensor_list):
        _write(out, _copy(value))
    return _handle(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,  # noqa: A002
                      group=None, async_op=False):
    """:func:`all_to_all` of the first-axis blocks of one tensor: the input."""
    _group_size("ops.all_to_all_single", group)
    return _done("all_to_all_single", output, _copy(input), async_op)


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):  # noqa: A002
    """:func:`all_to_all` of flat blocks sized by ``send_count_matrix``: the input,
    flattened."""
    _group_size("ops.all_to_all_v_c", group)
    return _done("all_to_all_v_c", output, ops.reshape(_copy(input), (-1,)), async_op)


def all_gather_matmul(input, x2, group, world_size, bias=None, gather_index=0,  # noqa: A002
                      gather_output=True, comm_turn=0, trans_input=False, trans_x2=False):
    """``(all_gather(input) @ x2 + bias, all_gather(input))`` (``gather_index`` 1 gathers
    ``x2`` instead); the gathered value is None unless ``gather_output``."""
    _group_size("ops.all_gather_matmul", group)
    a, b = tensor(input), tensor(x2)
    a = ops.swap_last_axes(a) if trans_input else a
    b = ops.swap_last_axes(b) if trans_x2 else b
    out = ops.matmul(a, b)
    out = out if bias is None else ops.add(out, tensor(bias))
    gathered = (a if int(gather_index) == 0 else b) if gather_output else None
    return out, gathered


def matmul_reduce_scatter(input, x2, group, world_size, reduce_op="sum", bias=None,  # noqa: A002
                          comm_turn=0, trans_input=False, trans_x2=False):
    """``reduce_scatter(input @ x2 + bias)``: the product."""
    _check_op("ops.matmul_reduce_scatter", reduce_op)
    out, _ = all_gather_matmul(input, x2, group, world_size, bias, 0, False, comm_turn,
                               trans_input, trans_x2)
    return out


# --- point to point (loop back) ------------------------------------------------------------

def isend(tensor, dst=0, group=None, tag=0):  # noqa: F811
    """Send ``tensor`` to rank ``dst`` (itself); a handle."""
    _group_size("ops.isend", group)
    _rank_in_world("ops.isend", dst, "destination")
    _MAILBOX[int(tag)].append(_copy(tensor))
    return CommHandle()


def send(tensor, dst=0, group=None, tag=0):  # noqa: F811
    """Send ``tensor`` to rank ``dst`` (itself)."""
    isend(tensor, dst, group, tag)


def irecv(tensor, src=None, group=None, tag=0):  # noqa: F811
    """Receive what rank ``src`` (itself) sent with ``tag``, into ``tensor``; a handle."""
    _group_size("ops.irecv", group)
    if src is not None:
        _rank_in_world("ops.irecv", src, "source")
    box = _MAILBOX[int(tag)]
    if not box:
        raise SporelingError("nothing was sent with this tag", op="ops.irecv",
                             expected=f"a send(..., tag={tag}) first (one process: a rank "
                                      "receives what it sent itself)", got="an empty mailbox")
    value = box.popleft()
    if not _INPLACE["irecv"]:
        return value, CommHandle()
    _write(tensor, ops.reshape(value, tuple(tensor.shape)))
    return CommHandle()


def recv(tensor, src=None, group=None, tag=0):  # noqa: F811
    """Receive into ``tensor`` what rank ``src`` (itself) sent with ``tag``; the sender's
    rank (0)."""
    out = irecv(tensor, src, group, tag)
    return (out[0], 0) if isinstance(out, tuple) else 0


def send_object_list(object_list, dst=0, group=None, device=None):
    """Send the picklable objects of ``object_list`` to rank ``dst`` (itself)."""
    _group_size("ops.send_object_list", group)
    _rank_in_world("ops.send_object_list", dst, "destination")
    _MAILBOX["objects"].append(list(object_list))


def recv_object_list(object_list, src=None, group=None, device=None):
    """Receive the objects rank ``src`` (itself) sent, into ``object_list``; the sender."""
    _group_size("ops.recv_object_list", group)
    box = _MAILBOX["objects"]
    if not box:
        raise SporelingError("no objects were sent", op="ops.recv_object_list",
                             expected="a send_object_list first", got="an empty mailbox")
    object_list[:] = box.popleft()[:len(object_list)]
    return 0


class P2POp:
    """One point-to-point operation for :func:`batch_isend_irecv`: ``op`` (``"isend"``,
    ``"irecv"`` or those functions), the ``tensor`` to send or receive into (for ``irecv``
    also a shape tuple with ``recv_dtype``: a zero tensor of that shape is received into),
    ``peer``, ``group`` and ``tag``."""

    def __init__(self, op, tensor, peer, group=None, tag=0, *, recv_dtype=None):
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise ArgumentError("P2POp: op must be isend or irecv", op="ops.P2POp",
                                expected='"isend", "irecv", ops.isend or ops.irecv',
                                got=repr(op))
        if isinstance(tensor, tuple):
            if name != "irecv" or recv_dtype is None:
                raise ArgumentError("P2POp: a shape tuple needs op irecv and recv_dtype",
                                    op="ops.P2POp", expected="irecv with recv_dtype=",
                                    got=f"{name}, recv_dtype={recv_dtype!r}")
            tensor = Tensor(np.zeros(tensor, to_numpy(recv_dtype)))
        elif not isinstance(tensor, Tensor):
            raise ArgumentError("P2POp: tensor must be a Tensor", op="ops.P2POp",
                                expected="a Tensor (or a shape tuple for irecv)",
                                got=type(tensor).__name__)
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag
        self.recv_dtype = recv_dtype


def batch_isend_irecv(p2p_op_list):
    """Run a list of ``P2POp`` (``op``: ``isend``/``irecv`` or their names, ``tensor``,
    ``peer``, ``tag``): the sends first, then the receives; their handles."""
    def kind(p):
        op = getattr(p, "op", None)
        return op if isinstance(op, str) else getattr(op, "__name__", "")
    sends = [p for p in p2p_op_list if kind(p) == "isend"]
    recvs = [p for p in p2p_op_list if kind(p) == "irecv"]
    if len(sends) + len(recvs) != len(p2p_op_list):
        raise SporelingError("each P2POp is an isend or an irecv", op="ops.batch_isend_irecv",
                             expected="op isend or irecv", got=[kind(p) for p in p2p_op_list])
    handles = [isend(p.tensor, getattr(p, "peer", 0), getattr(p, "group", None),
                     getattr(p, "tag", 0)) for p in sends]
    for p in recvs:
        irecv(p.tensor, getattr(p, "peer", 0), getattr(p, "group", None), getattr(p, "tag", 0))
        handles.append(CommHandle())
    return handles
