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
Float64 keeps TVM's own ``exp`` and ``tanh`` (within 1e-15 of NumPy's; a float64 LSTM is
not where speed is asked for).

Each helper binds a name (and names it prefixes) to the value through ``let(name,
expression)``, which writes ``name = T.bind(expression)`` (a plain assignment makes
TVMScript allocate a variable from TVM's workspace).
"""
from __future__ import annotations

__all__ = ["exp", "tanh", "sigmoid"]

_EXP_HIGH = 89.0  # above: inf (float32's largest finite is exp(88.7228...))
_EXP_LOW = -104.0  # below: 0 (exp(-103.97) is half float32's smallest denormal)
_LN2_HIGH, _LN2_LOW = 0.693359375, -2.12194440e-4  # ln 2 = high + low, high exact in 9 bits


def _f32(v: float) -> str:
    return f"T.float32({v!r})"


def _horner(r: str, coefficients: list[float]) -> str:
    """``sum(coefficients[k] * r**k)`` in float32, innermost first."""
    text = _f32(coefficients[-1])
    for a in reversed(coefficients[:-1]):
        text = f"{_f32(a)} + {r} * ({text})"
    return text


def exp(let, name: str, x: str, dtype: str) -> None:
    """``name = exp(x)``."""
    if dtype != "float32":
        let(name, f"T.exp({x})")
        return
    # the clamp keeps NaN (its comparisons are false); 89 overflows to inf below
    let(f"{name}_x", f"T.Select({x} > {_f32(_EXP_HIGH)}, {_f32(_EXP_HIGH)}, "
        f"T.Select({x} < {_f32(_EXP_LOW)}, {_f32(_EXP_LOW)}, {x}))")
    let(f"{name}_n", f"T.floor({name}_x * {_f32(1.4426950408889634)} + {_f32(0.5)})")
    let(f"{name}_r", f"{name}_x - {name}_n * {_f32(_LN2_HIGH)} - {name}_n * {_f32(_LN2_LOW)}")
    taylor = [1.0, 1.0, 0.5, 1 / 6, 1 / 24, 1 / 120, 1 / 720, 1 / 5040]  # |r| <= 0.347
    # q 2^h 2^(n-h), h = n // 2, multiplied in that order: finite wherever exp(x) is,
    # inf above; NaN does not survive the integer conversion, so it is put back. (The
    # integers are written out, not bound: inside a loop over lanes ``let`` stores a value
    # in a float32 slot, see ``tir_text.Writer``.)
    n = f"T.Cast('int32', {name}_n)"
    half = f"T.shift_right({n}, 1)"
    let(name, f"T.Select({x} != {x}, {x}, ({_horner(name + '_r', taylor)}) * "
        f"T.reinterpret('float32', T.shift_left({half} + 127, 23)) * "
        f"T.reinterpret('float32', T.shift_left({n} - {half} + 127, 23)))")


def tanh(let, name: str, x: str, dtype: str) -> None:
    """``name = tanh(x)``."""
    if dtype != "float32":
        let(name, f"T.tanh({x})")
        return
    let(f"{name}_a", f"T.fabs({x})")
    exp(let, f"{name}_e", f"{_f32(-2.0)} * {name}_a", dtype)
    # odd Taylor series to x^13: below 0.3 its first omitted term is under 2e-10
    odd = [1.0, -1 / 3, 2 / 15, -17 / 315, 62 / 2835, -1382 / 155925, 21844 / 6081075]
    let(f"{name}_s", f"{name}_a * {name}_a")
    # tanh(|x|) with x's sign: few selects (LLVM's analyses of nested selects took
    # minutes on a tanh of a tanh)
    let(name, f"T.copysign(T.Select({name}_a < {_f32(0.3)}, {name}_a * "
        f"({_horner(name + '_s', odd)}), ({_f32(1.0)} - {name}_e) / ({_f32(1.0)} + {name}_e)), "
        f"{x})")


def sigmoid(let, name: str, x: str, dtype: str) -> None:
    """``name = 1 / (1 + exp(-x))`` (0 where ``exp(-x)`` overflows)."""
    exp(let, f"{name}_e", f"-({x})", dtype)
    let(name, f"T.{dtype}(1) / (T.{dtype}(1) + {name}_e)")
