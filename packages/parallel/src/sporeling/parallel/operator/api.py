"""``shard(fn, in_strategy, out_strategy)``: run a function split over the ranks.

The function is traced once per input signature; ``in_strategy`` gives the layout of each
array argument (blocks per dimension, MindSpore's form), ops annotated inside it with
:func:`~.annotate.strategy` keep theirs, and sharding propagation chooses the rest (in
``auto_parallel`` mode the strategy search does). Every rank passes the whole arguments
and gets the whole results back -- or, with ``out_strategy``, its block of each result.
Parameters the function reads are inputs too, stored as their first consumer wants them.
"""
from __future__ import annotations

import threading

import numpy as np

from .errors import ShardingError
from .execute import _Plans, local_block, rank_graph, run_sharded
from .redistribution import PairGroups, apply_plan
from .layout import Layout, axes_for
from .propagate import ShardedGraph, propagate

__all__ = ["shard", "Shard", "layout_from_strategy"]


def layout_from_strategy(st, shape, n_axes: int, *, what: str, where=None) -> Layout:
    """A tensor's layout from its blocks per dimension (replicating axes first)."""
    st = tuple(int(s) for s in st)
    if len(st) != len(shape):
        raise ShardingError(f"{what} has {len(shape)} dimensions (shape {tuple(shape)})",
                            op="shard", expected=f"{len(shape)} numbers", got=st, where=where)
    bits = []
    for d, (s, n) in enumerate(zip(st, shape)):
        if s < 1 or s & (s - 1) or n % s:
            raise ShardingError(f"{what} dimension {d} (size {n}) cannot be split in {s} "
                                f"(strategy {st})", op="shard",
                                expected=f"a power of two dividing {n}", got=s, where=where)
        bits.append(s.bit_length() - 1)
    if sum(bits) > n_axes:
        raise ShardingError(f"{what}: more blocks than devices (strategy {st})", op="shard",
                            expected=f"at most {2 ** n_axes}", got=2 ** sum(bits), where=where)
    nxt, dims = n_axes - sum(bits), []
    for b in bits:
        dims.append(tuple(range(nxt, nxt + b)))
        nxt += b
    return Layout(n_axes, tuple(dims))


class Shard:
    """``fn`` run over the ranks of the current communicator (see the module doc)."""

    def __init__(self, fn, in_strategy=None, out_strategy=None, *, device_num=None,
                 name=None, parameter_plan=None):
        self.fn, self.in_strategy, self.out_strategy = fn, in_strategy, out_strategy
        self.parameter_plan = dict(parameter_plan or {})
        self.device_num = device_num
        self.name = name or getattr(fn, "__name__", "shard")
        self._cache: dict = {}
        self._plans = _Plans()
        # thread-ranks share this object: one plans while the others wait for its plan
        self._lock = threading.Lock()

    def _device_num(self, comm) -> int:
        return int(self.device_num or (comm.size if comm is not None else 1))

    def plan(self, *args, device_num: int | None = None, where=None):
        """The traced call and its :class:`ShardedGraph` for ``args`` (cached by shapes)."""
        n = device_num or self._device_num(_comm_or_none())
        key = (n, _mode()) + tuple((np.shape(_data(a)), str(_dtype(a))) for a in args)
        with self._lock:
            hit = self._cache.get(key)
            if hit is None:
                hit = self._cache[key] = self._plan(args, n)
        return hit

    def _plan(self, args, n):
        from sporeling.expression.graph.tracing import trace
        traced, _ = trace(self.fn, tuple(args), {}, self.name)
        n_axes = axes_for(n, op=f"shard({self.name})")
        graph = traced.graph
        in_lay = {}
        for k, st in enumerate(self.in_strategy or ()):
            if st is not None and k < traced.n_args:
                in_lay[k] = layout_from_strategy(st, graph.inputs[k].aval.shape, n_axes,
                                                 what=f"input {k} of {self.name}")
        names = {p.name: traced.n_args + k for k, p in enumerate(traced.params)}
        for name, st in self.parameter_plan.items():
            if name not in names:
                raise ShardingError("parameter_plan names a parameter the cell does not read",
                                    op=f"shard({self.name})", expected=sorted(names),
                                    got=repr(name))
            k = names[name]
            in_lay[k] = layout_from_strategy(st, graph.inputs[k].aval.shape, n_axes,
                                             what=f"parameter {name}")
        sg = _choose(graph, n_axes, in_lay, tuple(names.values()))
        if self.out_strategy is not None:
            sg.output_layouts = [
                layout_from_strategy(st, v.aval.shape, n_axes, what=f"output {k}")
                if st is not None else sg.output_layouts[k]
                for k, (st, v) in enumerate(zip(self.out_strategy, graph.outputs))]
        return traced, sg

    def __call__(self, *args):
        from sporeling.expression.autograd.state import is_recording
        from sporeling.expression.graph.tracing import is_tracing
        from sporeling.expression.tensor.tensor import Tensor
        if is_tracing():  # inside a bigger trace (Graph mode, a search): inline the function
            return self.fn(*args)
        comm = self._world(_comm_or_none())
        traced, sg = self.plan(*args)
        if is_recording():  # a grad is recording: the rank's program on Tensors, recorded
            outs = self._recorded(comm, traced, sg, args)
        else:
            arrays = [_data(a) for a in args if isinstance(a, (Tensor, np.ndarray))]
            values = arrays + [p.asnumpy() for p in traced.params] + list(traced.captured)
            outs = run_sharded(sg, values, comm, plans=self._plans)
            as_tensor = any(isinstance(a, Tensor) for a in args)
            outs = [Tensor(o) if as_tensor else o for o in outs]
        outs = outs[:len(outs) - len(traced.effect_params)]
        from sporeling.expression.graph.tracing import rebuild
        return rebuild(traced.out_tree, traced.out_static, outs)

    def _recorded(self, comm, traced, sg, args) -> list:
        """Run this rank's program with every step a primitive bound on Tensors, so the
        PyNative tape records it: this rank's blocks are cut from the arguments and the
        Parameters by recorded slices (their backward puts a block's gradient back in
        place), the redistributions are collective primitives with backward rules. Each
        rank's gradient is then that of the sum of all ranks' (replicated) losses for its
        copy of each Parameter; averaged over the ranks (``TrainOneStepCell``'s reducer in
        ``semi_auto_parallel``) it is one device's gradient."""
        from sporeling.expression.tensor.tensor import Tensor
        values = [a for a in args if isinstance(a, (Tensor, np.ndarray))]
        values += list(traced.params) + list(traced.captured)
        blocks = [_block_of(v, lay, comm.rank) for v, lay in zip(values, sg.input_layouts)]
        return run_sharded(sg, blocks, comm, plans=self._plans, inputs_are_local=True,
                           differentiable=True)

    def value_and_grad(self, *args):
        """``(outputs, argument_gradients, parameter_gradients)`` on every rank: the outputs
        as a call gives them (arrays), and the gradient of the first output (a scalar loss)
        with respect to each array argument (None for integer ones) and to each Parameter
        the function reads (``{name: array}``), whole. Each rank differentiates its own program -- the redistributions'
        collectives included (all_gather's backward is a reduce_scatter, ...) -- and the
        gradients of replicated blocks are summed over their replicas, so the result is
        the one-device gradient."""
        from sporeling.compiler.autodiff import vjp
        from sporeling.expression.tensor.tensor import Tensor
        comm = self._world(_comm_or_none())
        traced, sg = self.plan(*args)
        arrays = [_data(a) for a in args if isinstance(a, (Tensor, np.ndarray))]
        values = arrays + [p.asnumpy() for p in traced.params] + list(traced.captured)
        blocks = [local_block(v, lay, comm.rank) for v, lay in zip(values, sg.input_layouts)]
        wrt = [k for k, b in enumerate(blocks) if np.asarray(b).dtype.kind in "fc"]

        def program(*diff):
            full = list(blocks)
            for k, d in zip(wrt, diff):
                full[k] = d
            return tuple(run_sharded(sg, full, comm, plans=self._plans,
                                     inputs_are_local=True, differentiable=True))

        outs, back = vjp(program, *[blocks[k] for k in wrt])
        seeds = [np.zeros(np.shape(o), np.asarray(o).dtype) for o in outs]
        replicas = 2 ** (sg.n_axes - len(sg.output_layouts[0].used_axes))
        seeds[0] = np.full(np.shape(outs[0]), 1.0 / replicas, np.asarray(outs[0]).dtype)
        cts = back(tuple(seeds))
        groups = PairGroups(comm, sg.n_axes)
        grads: list = [None] * len(values)
        for k, ct in zip(wrt, cts):
            lay = sg.input_layouts[k]
            ct = np.asarray(ct) if ct is not None else np.zeros_like(blocks[k])
            for axis in range(sg.n_axes):  # a replicated block's copies each got a share
                if axis not in lay.used_axes:
                    ct = groups(axis).all_reduce(ct)
            whole = Layout.replicated(sg.n_axes, len(lay.dims))
            grads[k] = apply_plan(self._plans(lay, whole, np.shape(values[k]),
                                              np.asarray(ct).dtype.itemsize), ct, groups)
        n_out = len(outs) - len(traced.effect_params)
        params = {p.name: g for p, g in zip(traced.params, grads[len(arrays):])}
        return [np.asarray(o) for o in outs[:n_out]], grads[:len(arrays)], params

    def _world(self, comm):
        n = 2 ** axes_for(self._device_num(comm), op=f"shard({self.name})")
        if comm is None or comm.size != n:
            raise ShardingError("shard needs a communicator of the planned size",
                                op=f"shard({self.name})", expected=n,
                                got=None if comm is None else comm.size,
                                hint="call sporeling.parallel.init() (or run under "
                                     "sporeling.parallel.testing.run_local)")
        return comm

    def rank_graph(self, *args):
        """This rank's program for ``args`` as IR, collectives included (see
        :func:`~.execute.rank_graph`); call it on every rank."""
        comm = self._world(_comm_or_none())
        return rank_graph(self.plan(*args)[1], comm)

    def table(self, *args, device_num=None) -> list[dict]:
        """The strategy chosen for every op, for ``args``."""
        return self.plan(*args, device_num=device_num)[1].table()


def _mode() -> tuple:
    """(parallel_mode, search_mode): a plan is valid for the modes it was made under."""
    from sporeling.core import get_context
    try:
        return get_context("parallel_mode"), get_context("search_mode")
    except Exception:  # noqa: BLE001 - the parallel keys are not declared (no plugin)
        return "semi_auto_parallel", None


def _choose(graph, n_axes, in_lay, params=()) -> ShardedGraph:
    if _mode()[0] == "auto_parallel":
        from ..search import search
        from ..search.cost import agreed_machine
        machine = agreed_machine(_comm_or_none())
        return search(graph, 2 ** n_axes, input_layouts=in_lay, params=params,
                      machine=machine).sharded
    return propagate(graph, n_axes, input_layouts=in_lay)


def _comm_or_none():
    from ..comm import current
    try:
        return current()
    except Exception:  # noqa: BLE001 - no communicator initialised
        return None


def _block_of(value, layout: Layout, rank: int):
    """``rank``'s block of ``value``: a recorded slice of a Tensor (the whole Tensor when
    it is not split), a copied block of an array."""
    from sporeling.expression.tensor.tensor import Tensor
    if not isinstance(value, Tensor):
        return local_block(value, layout, rank)
    index = layout.block(rank, value.shape)
    whole = all(s.start == 0 and s.stop == n for s, n in zip(index, value.shape))
    return value if whole or not index else value[index]


def _data(a):
    return a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)


def _dtype(a):
    return getattr(a, "dtype", np.asarray(a).dtype)


def shard(fn, in_strategy=None, out_strategy=None, parameter_plan=None, *,
          device_num=None) -> Shard:
    """MindSpore's ``shard``: ``fn`` split over the ranks (see the module doc)."""
    return Shard(fn, in_strategy, out_strategy, device_num=device_num,
                 parameter_plan=parameter_plan)


def local_inputs(sg: ShardedGraph, values, rank: int):
    """This rank's blocks of full input ``values`` (for callers feeding blocks)."""
    return [local_block(v, lay, rank) for v, lay in zip(values, sg.input_layouts)]
