"""When to prune how much: the polynomial sparsity ramp of Zhu & Gupta, "To prune, or not
to prune" (2017),

    s_t = s_f + (s_i - s_f) * (1 - (t - t_0) / (t_end - t_0)) ** power      (power 3)

from ``initial`` sparsity at ``begin_step`` to ``final`` at ``end_step``, updated every
``frequency`` steps: pruning fast while many redundant weights remain, slowly near the end.

    >>> s = PolynomialSparsity(0.0, 0.8, begin_step=0, end_step=100, frequency=10)
    >>> [round(s(t), 3) for t in (0, 5, 10, 50, 100, 500)]
    [0.0, 0.0, 0.217, 0.7, 0.8, 0.8]
"""
from __future__ import annotations

from dataclasses import dataclass

from sporeling.core import SporelingError

__all__ = ["PolynomialSparsity", "constant_sparsity"]


@dataclass(frozen=True)
class PolynomialSparsity:
    initial: float
    final: float
    begin_step: int
    end_step: int
    frequency: int = 1
    power: float = 3.0

    def __post_init__(self):
        for name in ("initial", "final"):
            v = getattr(self, name)
            if not 0.0 <= v < 1.0:
                raise SporelingError(f"{name} sparsity out of range",
                                     op="PolynomialSparsity", expected="[0, 1)", got=v)
        if self.end_step <= self.begin_step or self.frequency < 1:
            raise SporelingError("the ramp needs begin_step < end_step and frequency >= 1",
                                 op="PolynomialSparsity",
                                 got=f"begin_step={self.begin_step}, end_step={self.end_step},"
                                     f" frequency={self.frequency}")

    def __call__(self, step: int) -> float:
        """The target sparsity at ``step`` (held between updates)."""
        if step <= self.begin_step:
            return self.initial
        if step >= self.end_step:
            return self.final
        t = self.begin_step + (step - self.begin_step) // self.frequency * self.frequency
        if t == self.begin_step:  # exactly, not final + (initial - final) in floats
            return self.initial
        left = 1.0 - (t - self.begin_step) / (self.end_step - self.begin_step)
        return self.final + (self.initial - self.final) * left ** self.power

    def updates_at(self, step: int) -> bool:
        """Whether the masks are recomputed at ``step``."""
        return (self.begin_step <= step <= self.end_step
                and ((step - self.begin_step) % self.frequency == 0 or step == self.end_step))


def constant_sparsity(final: float, begin_step: int = 0) -> PolynomialSparsity:
    """``final`` sparsity from ``begin_step`` on (one-shot pruning, then fine-tuning)."""
    return PolynomialSparsity(final, final, begin_step, begin_step + 1)
