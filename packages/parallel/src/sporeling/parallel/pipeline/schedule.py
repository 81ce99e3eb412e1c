"""The 1F1B schedule (PipeDream-Flush, Megatron's default) and its bubble.

Stage ``k`` of ``S`` first runs ``S - 1 - k`` warm-up forwards, then alternates one forward
and one backward, then drains the backwards left. At most ``S - k`` micro-batches are in
flight on stage ``k`` (GPipe keeps all ``M``), and every stage idles for ``S - 1`` slots of
``M + S - 1``: the bubble.

    >>> one_f_one_b(0, 2, 3)
    [('F', 0), ('F', 1), ('B', 0), ('F', 2), ('B', 1), ('B', 2)]
    >>> one_f_one_b(1, 2, 3)
    [('F', 0), ('B', 0), ('F', 1), ('B', 1), ('F', 2), ('B', 2)]
    >>> bubble_fraction(4, 8)
    0.2727272727272727
"""
from __future__ import annotations

__all__ = ["one_f_one_b", "bubble_fraction"]


def one_f_one_b(stage: int, stages: int, micro: int) -> list[tuple[str, int]]:
    """The ordered ``("F", i)`` / ``("B", i)`` steps of ``stage`` for ``micro`` micro-batches."""
    warmup = min(stages - 1 - stage, micro)
    steps = [("F", i) for i in range(warmup)]
    forward, backward = warmup, 0
    while forward < micro:
        steps.append(("F", forward))
        forward += 1
        steps.append(("B", backward))
        backward += 1
    steps += [("B", i) for i in range(backward, micro)]
    return steps


def bubble_fraction(stages: int, micro: int) -> float:
    """The idle share of a 1F1B step with equal stage times: ``(S - 1) / (M + S - 1)``."""
    return (stages - 1) / (micro + stages - 1)
