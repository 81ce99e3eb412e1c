"""``exp``, ``tanh`` and ``sigmoid`` as TVMScript statements LLVM vectorises.

TVM lowers ``T.exp`` and ``T.tanh`` to calls of the C library's scalar ``expf``/``tanhf``,
and a loop holding a call is not vectorised at all: an LSTM's gate loop then runs one
lane at a time. In float32 these functions are written out instead, from operations that
vectorise (floor, integer shifts, selects): ``exp`` by range reduction ``x = n ln 2 + r``
(ln 2 in two parts) and a degree-7 polynomial of ``r``, scaled by ``2^n`` built from its
bits (in two halves, so that ``n = 128`` -- the last finite values -- does not overflow);
at most 2 ulp from NumPy's ``exp`` over the whole float32 range, with its infinities,
zeros below ``-103.97`` and NaN. ``tanh`` is its odd Taylor polynomial below 0.3 in
magnitude (no cancellation near 0) and ``(1 - e) / (1 + e)``, ``e = exp(-2|x|)``, above.
Float64 keeps the library's functions (exact, and a float64 LSTM is not where speed is
asked for).

Each helper writes statements binding a name (its prefix) to the value, through
``emit(line)``.
"""
from __future__ import annotations

__all__ = ["exp", "tanh", "sigmoid"]

_EXP_HIGH = 88.72283935546875  # above: inf (float32's largest finite is exp(88.7228...))
_EXP_LOW = -104.0  # below: 0 (exp(-103.97) is half float32's smallest denormal)
_LN2_HIGH, _LN2_LOW = 0.693359375, -2.12194440e-4  # ln 2 = high + low, high exact in 9 bits


def _horner(r: str, coefficients: list[float], c) -> str:
    """``sum(coefficients[k] * r**k)``, innermost first."""
    text = c(coefficients[-1])
    for a in reversed(coefficients[:-1]):
        text = f"{c(a)} + {r} * ({text})"
    return text


def exp(emit, name: str, x: str, dtype: str) -> None:
    """``name = exp(x)``."""
    if dtype != "float32":
        emit(f"{name} = T.exp({x})")
        return

    def c(v):
        return f"T.float32({v!r})"
    emit(f"{name}_x = T.if_then_else({x} > {c(_EXP_HIGH)}, {c(_EXP_HIGH)}, "
         f"T.if_then_else({x} < {c(_EXP_LOW)}, {c(_EXP_LOW)}, {x}))")
    emit(f"{name}_n = T.floor({name}_x * {c(1.4426950408889634)} + {c(0.5)})")
    emit(f"{name}_r = {name}_x - {name}_n * {c(_LN2_HIGH)} - {name}_n * {c(_LN2_LOW)}")
    taylor = [1.0, 1.0, 0.5, 1 / 6, 1 / 24, 1 / 120, 1 / 720, 1 / 5040]  # |r| <= 0.347
    emit(f"{name}_q = {_horner(name + '_r', taylor, c)}")
    emit(f"{name}_i = T.Cast('int32', {name}_n)")
    emit(f"{name}_h = T.shift_right({name}_i, 1)")
    emit(f"{name}_s = T.reinterpret('float32', T.shift_left({name}_h + 127, 23)) * "
         f"T.reinterpret('float32', T.shift_left({name}_i - {name}_h + 127, 23))")
    # NaN passes the clamps (its comparisons are false) but not the integer conversion
    emit(f"{name} = T.if_then_else({x} > {c(_EXP_HIGH)}, T.float32('inf'), "
         f"T.if_then_else({x} != {x}, {x}, {name}_q * {name}_s))")


def tanh(emit, name: str, x: str, dtype: str) -> None:
    """``name = tanh(x)``."""
    if dtype != "float32":
        emit(f"{name} = T.tanh({x})")
        return

    def c(v):
        return f"T.float32({v!r})"
    emit(f"{name}_a = T.if_then_else({x} < {c(0.0)}, -{x}, {x})")
    exp(emit, f"{name}_e", f"{c(-2.0)} * {name}_a", dtype)
    emit(f"{name}_b = ({c(1.0)} - {name}_e) / ({c(1.0)} + {name}_e)")
    # odd Taylor series to x^13: below 0.3 its first omitted term is under 2e-10
    odd = [1.0, -1 / 3, 2 / 15, -17 / 315, 62 / 2835, -1382 / 155925, 21844 / 6081075]
    emit(f"{name}_s = {x} * {x}")
    emit(f"{name}_p = {x} * ({_horner(name + '_s', odd, c)})")
    emit(f"{name} = T.if_then_else({name}_a < {c(0.3)}, {name}_p, "
         f"T.if_then_else({x} < {c(0.0)}, -{name}_b, {name}_b))")


def sigmoid(emit, name: str, x: str, dtype: str) -> None:
    """``name = 1 / (1 + exp(-x))`` (0 where ``exp(-x)`` overflows)."""
    exp(emit, f"{name}_e", f"-({x})", dtype)
    emit(f"{name} = T.{dtype}(1) / (T.{dtype}(1) + {name}_e)")
