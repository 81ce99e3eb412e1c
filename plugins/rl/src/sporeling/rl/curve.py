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


def plot_curves(histories, path, target: float = 475.0) -> Path:
    """Draw one or more :class:`~sporeling.rl.train.History` into ``path`` (PNG): training
    returns (mean of the last 20 episodes), screening evaluations (dots), the target."""
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=80)
    for h in histories:
        label = f"{h.algo.upper()} seed {h.seed}"
        if h.episodes:
            steps, returns = zip(*h.episodes)
            line, = ax.plot(steps, _smooth(returns), lw=1.2, label=f"{label}: training")
            color = line.get_color()
        else:
            color = None
        if h.evaluations:
            steps, means = [e[0] for e in h.evaluations], [e[1] for e in h.evaluations]
            ax.plot(steps, means, "o", ms=3.5, color=color, label=f"{label}: greedy eval")
        if h.reached_at is not None:
            ax.axvline(h.reached_at, color=color, ls=":", lw=1)
    ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {target:g}")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("episode return")
    ax.set_title(f"{histories[0].env_id}" if histories else "")
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
