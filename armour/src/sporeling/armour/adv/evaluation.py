"""Robust accuracy against ε for several attacks: a table and a matplotlib PNG.

    >>> curve = robustness_curve(net, x, y, {
    ...     "FGSM": lambda eps: FastGradientSignMethod(net, eps=eps),
    ...     "PGD-L∞": lambda eps: ProjectedGradientDescent(net, eps=eps, eps_iter=eps / 4,
    ...                                                   nb_iter=10, seed=0)},
    ...     eps_values=[0.0, 0.05, 0.1, 0.2])
    >>> print(format_table(curve))
    >>> plot_robustness(curve, "robustness.png")
"""
from __future__ import annotations

import numpy as np

from ._checks import AttackConfigError, as_batch, check_eps

__all__ = ["RobustnessCurve", "robustness_curve", "format_table", "plot_robustness"]


class RobustnessCurve(dict):
    """``{attack name: [accuracy at each ε]}`` with ``eps_values`` and ``clean_accuracy``."""

    def __init__(self, eps_values, clean_accuracy, rows):
        super().__init__(rows)
        self.eps_values = list(eps_values)
        self.clean_accuracy = clean_accuracy


def _predict(network, x):
    import sporeling.expression as sx
    return np.asarray(network(sx.Tensor(x)).asnumpy()).argmax(-1)


def robustness_curve(network, inputs, labels, attacks: dict, eps_values) -> RobustnessCurve:
    """Accuracy of ``network`` on ``attacks[name](eps).generate(inputs, labels)`` for every
    ε in ``eps_values`` (ε = 0 is the clean accuracy without running the attack)."""
    op = "robustness_curve"
    x, y = as_batch(inputs, labels, op)
    eps_values = [check_eps(e, "eps", op) for e in eps_values]
    if not eps_values or not attacks:
        raise AttackConfigError("nothing to evaluate", op=op,
                                expected="at least one attack and one eps",
                                got=f"{len(attacks)} attack(s), {len(eps_values)} eps value(s)")
    clean = float((_predict(network, x) == y).mean())
    rows = {}
    for name, make in attacks.items():
        rows[name] = [clean if eps == 0 else
                      float((_predict(network, make(eps).generate(x, y)) == y).mean())
                      for eps in eps_values]
    return RobustnessCurve(eps_values, clean, rows)


def format_table(curve: RobustnessCurve, digits: int = 3) -> str:
    """A Markdown table: one row per attack, one column per ε."""
    head = "| attack | " + " | ".join(f"ε={e:g}" for e in curve.eps_values) + " |"
    rule = "| --- |" + " --- |" * len(curve.eps_values)
    body = ["| " + name + " | " + " | ".join(f"{a:.{digits}f}" for a in accs) + " |"
            for name, accs in curve.items()]
    return "\n".join([head, rule, *body])


def plot_robustness(curve: RobustnessCurve, path, title: str = "Accuracy under attack"):
    """Write accuracy against ε (one line per attack) to the PNG ``path``; returns ``path``."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5), dpi=100)
    for name, accs in curve.items():
        ax.plot(curve.eps_values, accs, marker="o", label=name)
    ax.set_xlabel("ε")
    ax.set_ylabel("accuracy")
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    return path
