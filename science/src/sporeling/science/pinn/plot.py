"""The figure of the Burgers docs: prediction, Cole–Hopf reference and their difference on
the reference grid, plus slices at t = 0.25, 0.5, 0.75 (matplotlib, Agg)."""
from __future__ import annotations

import numpy as np

__all__ = ["plot_burgers"]


def plot_burgers(problem, path: str, error: float | None = None) -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts, ref = problem.points, problem.reference
    nx = int(np.sum(pts[:, 1] == pts[0, 1]))
    x, t = pts[:nx, 0], pts[::nx, 1]
    u_ref = ref.reshape(len(t), nx)
    u_pred = problem.solver.predict(pts).reshape(len(t), nx)
    error = problem.error() if error is None else error
    fig = plt.figure(figsize=(10, 5.6), dpi=80)
    grid = fig.add_gridspec(2, 3, height_ratios=[1.15, 1])
    extent = [t[0], t[-1], x[0], x[-1]]
    for k, (data, title) in enumerate([(u_pred, "PINN u(t, x)"),
                                       (u_ref, "Cole–Hopf reference"),
                                       (np.abs(u_pred - u_ref), "|PINN - reference|")]):
        ax = fig.add_subplot(grid[0, k])
        scale = {} if k == 2 else dict(vmin=-1.0, vmax=1.0)  # one scale for u
        im = ax.imshow(data.T, origin="lower", aspect="auto", extent=extent,
                       cmap="magma" if k == 2 else "RdBu_r", **scale)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("t")
        ax.set_ylabel("x")
        fig.colorbar(im, ax=ax, fraction=0.046)
    for k, when in enumerate((0.25, 0.5, 0.75)):
        i = int(np.argmin(np.abs(t - when)))
        ax = fig.add_subplot(grid[1, k])
        ax.plot(x, u_ref[i], "b-", lw=2, label="reference")
        ax.plot(x, u_pred[i], "r--", lw=1.5, label="PINN")
        ax.set_title(f"t = {t[i]:.2f}", fontsize=10)
        ax.set_xlabel("x")
        ax.set_ylim(-1.1, 1.1)
        if k == 0:
            ax.legend(fontsize=8)
    fig.suptitle(f"Burgers, relative L2 error {error:.2e}", fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
