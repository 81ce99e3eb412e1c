"""The training curve: episode returns and evaluation means against env steps (PNG)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["plot_curves"]


def _smooth(values, window: int = 20) -> np.ndarray:
    values = np.asarray(values, np.float64)
    cums = np.cumsum(np.insert(values, 0, 0.0))
    lo = np.maximum(np.arange(1, len(values) + 1) - window, 0)
    return (cums[1:] - cums[lo]) / (np.arange(1, len(values) + 1) - lo)


def _draw(ax, h) -> None:
    """One run: training returns (mean of the last 20 episodes), evaluations as dots, a
    dotted line where it reached the target."""
    color = None
    if h.episodes:
        steps, returns = zip(*h.episodes)
        line, = ax.plot(steps, _smooth(returns), lw=1.2, label=f"seed {h.seed}")
        color = line.get_color()
    if h.evaluations:
        ax.plot([e[0] for e in h.evaluations], [e[1] for e in h.evaluations], "o", ms=3.5,
                color=color)
    if h.reached_at is not None:
        ax.axvline(h.reached_at, color=color, ls=":", lw=1)


def plot_curves(histories, path, target: float = 475.0) -> Path:
    """Draw :class:`~sporeling.rl.train.History` runs into ``path`` (PNG), one panel per
    algorithm, one colour per run, with the target as a dashed line."""
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    algos = list(dict.fromkeys(h.algo for h in histories)) or [""]
    fig, axes = plt.subplots(1, len(algos), figsize=(6.4 * len(algos), 3.6), dpi=80,
                             squeeze=False)
    for ax, algo in zip(axes[0], algos):
        for h in (h for h in histories if h.algo == algo):
            _draw(ax, h)
        ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {target:g}")
        ax.set_xlabel("environment steps")
        ax.set_ylabel("episode return")
        env = histories[0].env_id if histories else ""
        ax.set_title(f"{algo.upper()} on {env}: training (line), greedy eval (dots)")
        ax.legend(fontsize=7, loc="lower right")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
