"""Where a pipeline's iteration stands, saved and put back (a resumed training run).

The rows of an epoch follow from two things only (see :mod:`.randomness`): the epoch's
number and the seed of every random operation (shuffles, samplers, maps). So the state is
``{"epoch": the next epoch's number, "seeds": [[operation, seed], ...]}`` -- plain JSON-able
data -- and putting it back into a pipeline built the same way replays every later epoch
as it would have run, even when the rebuilt pipeline drew other seeds.

    >>> import numpy as np
    >>> from sporeling.data import NumpySlicesDataset
    >>> ds = NumpySlicesDataset(np.arange(6), shuffle=True)
    >>> _ = list(ds); state = ds.state_dict(); second = [int(r[0]) for r in ds]
    >>> again = NumpySlicesDataset(np.arange(6), shuffle=True)  # other seeds
    >>> again.load_state_dict(state); [int(r[0]) for r in again] == second
    True
"""
from __future__ import annotations

from .errors import DataError

__all__ = ["iteration_state", "load_iteration_state"]


def _random_parts(dataset) -> list:
    """Every object of the pipeline holding a seed, in a fixed order (depth first: each
    dataset, then its sampler, then its children)."""
    parts, stack = [], [dataset]
    while stack:
        node = stack.pop()
        for part in (node, getattr(node, "sampler", None)):
            if isinstance(getattr(part, "seed", None), int):
                parts.append(part)
        stack.extend(reversed(getattr(node, "_children", ())))
    return parts


def iteration_state(dataset) -> dict:
    """``dataset``'s position: the next epoch's number and its operations' seeds."""
    return {"epoch": int(getattr(dataset, "_epoch", 0)),
            "seeds": [[type(p).__name__, p.seed] for p in _random_parts(dataset)]}


def load_iteration_state(dataset, state: dict) -> None:
    """Put back what :func:`iteration_state` returned, into a pipeline built the same way."""
    parts = _random_parts(dataset)
    try:
        epoch, seeds = int(state["epoch"]), [(str(n), int(s)) for n, s in state["seeds"]]
        if epoch < 0:
            raise ValueError(f"epoch {epoch} < 0")
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError("bad iteration state", op="load_state_dict",
                        expected='{"epoch": int, "seeds": [[operation, seed], ...]} from '
                                 "state_dict()", got=f"{type(exc).__name__}: {exc}") from None
    names = [type(p).__name__ for p in parts]
    if names != [n for n, _ in seeds]:
        raise DataError("the pipeline differs from the one whose state was saved",
                        op="load_state_dict", expected=f"random operations {names}",
                        got=f"{[n for n, _ in seeds]}",
                        hint="build the pipeline with the same operations in the same order")
    for part, (_, seed) in zip(parts, seeds):
        part.seed = seed
    dataset._epoch = epoch
