"""Which cells each pipeline stage runs, read from ``cell.pipeline_stage`` annotations.

The network is a chain: a ``SequentialCell`` backbone (its cells run one after another),
optionally inside a ``WithLossCell`` whose loss runs on the last stage. Every cell of the
chain carries ``pipeline_stage = k`` itself or inherits it from an enclosing
``SequentialCell``; a ``SequentialCell`` without one is looked into. Stages must appear in
order ``0, 1, ..., S - 1``, each on a contiguous run of cells.
"""
from __future__ import annotations

from dataclasses import dataclass

from sporeling.expression.nn import SequentialCell

from .errors import PipelineError

__all__ = ["StagePlan", "plan_stages"]


@dataclass
class StagePlan:
    """Stage ``k``'s cells are ``stages[k]`` (``(path, cell)`` pairs, in order); ``loss_fn``
    (None: the backbone returns the loss) runs after the last stage's cells on its output
    and the label."""
    stages: list[list[tuple[str, object]]]
    loss_fn: object | None

    def run(self, stage: int, x):
        """Stage ``stage``'s cells applied to ``x`` (no loss)."""
        for _path, cell in self.stages[stage]:
            x = cell(x)
        return x

    def parameters(self, stage: int) -> list:
        """The trainable Parameters stage ``stage``'s cells hold (each once)."""
        seen, out = set(), []
        for _path, cell in self.stages[stage]:
            for p in cell.trainable_params():
                if id(p) not in seen:
                    seen.add(id(p))
                    out.append(p)
        return out


def _stage_of(path: str, cell, stages: int):
    k = getattr(cell, "pipeline_stage", None)
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < stages:
        raise PipelineError(f"bad pipeline_stage on cell {path!r} ({type(cell).__name__})",
                            op="PipelineCell", expected=f"an int in 0..{stages - 1} "
                            f"(pipeline_stages={stages})", got=repr(k))
    return k


def _chain(cell, path: str, inherited, stages: int, out: list) -> None:
    """Append ``(path, cell, stage)`` for every link of ``cell``'s chain."""
    own = _stage_of(path, cell, stages)
    stage = own if own is not None else inherited
    if isinstance(cell, SequentialCell) and own is None and stage is None:
        for name, child in cell.name_cells().items():
            _chain(child, f"{path}.{name}" if path else name, None, stages, out)
        return
    if stage is None:
        raise PipelineError(f"cell {path!r} ({type(cell).__name__}) has no pipeline_stage",
                            op="PipelineCell", expected="cell.pipeline_stage = k on every "
                            "cell of the backbone (or on a SequentialCell holding it)",
                            got="no pipeline_stage attribute")
    out.append((path, cell, stage))


def plan_stages(network, stages: int) -> StagePlan:
    """Split ``network`` (a ``SequentialCell``, or a ``WithLossCell`` around one) into
    ``stages`` stages by the cells' ``pipeline_stage``."""
    backbone, loss_fn = network, None
    if hasattr(network, "_backbone") and hasattr(network, "_loss_fn"):  # WithLossCell
        backbone, loss_fn = network._backbone, network._loss_fn
    if not isinstance(backbone, SequentialCell):
        raise PipelineError("the network is not a chain of cells", op="PipelineCell",
                            expected="a SequentialCell, or a WithLossCell around one",
                            got=type(backbone).__name__,
                            hint="list the layers in an nn.SequentialCell and set "
                                 "pipeline_stage on each")
    links: list = []
    _chain(backbone, "", _stage_of("", backbone, stages), stages, links)
    plan: list[list] = [[] for _ in range(stages)]
    last = 0
    for path, cell, k in links:
        if k < last:
            raise PipelineError(f"cell {path!r} goes back to stage {k} after stage {last}",
                                op="PipelineCell", expected="stages in order along the "
                                "chain (0, 0, 1, 2, ...)", got=[s for _p, _c, s in links])
        last = k
        plan[k].append((path, cell))
    empty = [k for k in range(stages) if not plan[k]]
    if empty:
        raise PipelineError(f"stage(s) {empty} have no cell", op="PipelineCell",
                            expected=f"every stage 0..{stages - 1} on at least one cell",
                            got=f"stages {[s for _p, _c, s in links]}")
    return StagePlan(plan, loss_fn)
