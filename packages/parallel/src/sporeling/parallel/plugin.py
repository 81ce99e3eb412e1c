"""The parallel package's plugin: its hookspecs, its communicators (``mpi``, ``local``), the
parallel context keys, the collective kernels, ``sporeling run``, and its
answers to expression's hooks (``sporeling_grad_reducer``, ``sporeling_shard``:
operator parallel, ``sporeling_rank``) and data's."""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs

HOOKSPECS = hookspecs


@impl
def sporeling_add_communicators(communicators) -> None:
    from .communication import _local, _mpi
    communicators.add_communicator("mpi", _mpi, doc="mpi4py on the installed MPI (the MPICH "
                                                    "wheel); one process per rank")
    communicators.add_communicator("local", _local, doc="ranks as threads of one process")


@impl
def sporeling_add_context_options(options) -> None:
    from .context import add_parallel_options
    add_parallel_options(options)
    from .data_parallel.hooks import add_data_parallel_options  # bucket_cap_mb
    add_data_parallel_options(options)
    from .search.options import add_search_options  # fully_use_devices
    add_search_options(options)


@impl
def sporeling_grad_reducer(train_cell):  # expression's hook: data parallel TrainOneStepCell
    from .data_parallel.hooks import grad_reducer
    return grad_reducer(train_cell)


@impl
def sporeling_shard(fn, in_strategy, out_strategy, options):  # expression's: sx.shard, Cell.shard
    from .operator.cell import shard_hook
    return shard_hook(fn, in_strategy, out_strategy, options)


@impl
def sporeling_rank():  # expression's hook: BackupAndRestore names each rank's backups
    from .communication import get_rank, is_initialized
    return get_rank() if is_initialized() else None


@impl
def sporeling_data_shard():  # data's hook: data parallel sources read this rank's shard
    from .data_parallel.hooks import data_shard
    return data_shard()


@impl
def sporeling_add_kernels(kernels) -> None:
    from .kernels import add_kernels
    add_kernels(kernels)


@impl
def sporeling_add_commands(commands) -> None:
    from .launch import add_run_command
    add_run_command(commands)
    from .search.cli import add_plan_command  # `sporeling parallel plan` (operator parallel)
    add_plan_command(commands)


@impl
def sporeling_add_primitives(primitives) -> None:  # compiler's hook: the collectives
    from .primitives import COLLECTIVES
    from .split_phase import SPLIT_PHASE
    primitives.add_primitive(*COLLECTIVES, *SPLIT_PHASE)
