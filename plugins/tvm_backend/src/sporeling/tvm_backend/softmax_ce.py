"""``softmax_cross_entropy`` and its gradient as generated functions, for logits ``(N, C)``:
one pass per row for the maximum, one for the sum of exponentials, one writing the losses or
the gradient -- where NumPy's kernel makes a dozen calls and as many temporaries (at the
main job's batch of 32 and 10 classes: 45 and 36 us a call against 10 and 15 generated).

Numerics are NumPy's kernel's (``kernels/nn/softmax.py``): logits shifted by their row's
maximum (NaN where a row has one), ``log(sum exp) - shifted[label]`` per row, 0 where the
label is ``ignore_index``; the mean divides by the counted rows (NaN when none is); the
gradient is ``(softmax - onehot) * scale`` with ``scale`` the cotangent (``/ n`` for the
mean) times the row's validity. The sums of exponentials and of the losses accumulate in
float64 (NumPy's in the logits' dtype: within a few ulp). A label out of range cannot raise
inside the function: it sets a flag, and the kernel then runs NumPy's, which names it.

Generated: float32 and float64 logits of two axes, int32 and int64 labels, every
reduction. Other shapes and dtypes run the provider below.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tir_text import Generated, Writer, header

__all__ = ["CE_KINDS", "CE_WORK", "CeSpec", "ce_spec", "ce_unsupported"]

CE_KINDS = ("softmax_cross_entropy", "softmax_cross_entropy_grad")
CE_WORK = (4,)  # the scratch argument's shape (see _body)


@dataclass(frozen=True)
class CeSpec(Generated):
    """What one generated cross entropy is specialised to (the rows are symbolic)."""
    kind: str
    classes: int
    dtype: str
    label_dtype: str
    reduction: str  # "mean", "sum" or "none"
    ignore_index: int

    def buffers(self) -> list[tuple[str, str, str]]:
        """``(name, shape, dtype)`` of the function's arguments, in order: the operands,
        the result, then the scratch ``work`` and the flag ``bad`` (a label out of
        range)."""
        dt, n, c = self.dtype, "rows", self.classes
        args = [("x", f"({n}, {c})", dt), ("labels", f"({n},)", self.label_dtype)]
        if self.kind == "softmax_cross_entropy":
            args.append(("loss", f"({n},)" if self.reduction == "none" else "(1,)", dt))
        else:
            args += [("ct", f"({n},)" if self.reduction == "none" else "(1,)", dt),
                     ("dx", f"({n}, {c})", dt)]
        return args + [("work", str(CE_WORK), "float64"), ("bad", "(1,)", "int32")]

    def source(self) -> str:
        lines = header(self.buffers(), ("rows",))
        w = Writer()
        _body(w, self)
        return "\n".join(lines + w.lines) + "\n"


def ce_spec(kind: str, specs, params: dict) -> CeSpec:
    """The spec of a call of ``kind`` on operands of these ``(shape, dtype)``."""
    (x_shape, dtype), (_, label_dtype) = specs[0], specs[1]
    return CeSpec(kind, int(x_shape[1]), np.dtype(dtype).name, np.dtype(label_dtype).name,
                  params["reduction"], int(params["ignore_index"]))


def ce_unsupported(kind: str, specs) -> str | None:
    """Why no function is generated for such a call (None: one is)."""
    if kind not in CE_KINDS:
        return f"{kind} (only softmax cross entropy and its gradient are generated)"
    (x_shape, dtype), (_, label_dtype) = specs[0], specs[1]
    if len(x_shape) != 2 or 0 in tuple(x_shape):
        return f"logits of shape {tuple(x_shape)} (two non-empty axes are generated)"
    if np.dtype(dtype) not in (np.float32, np.float64):
        return f"dtype {np.dtype(dtype).name}"
    if np.dtype(label_dtype) not in (np.int32, np.int64):
        return f"labels of dtype {np.dtype(label_dtype).name}"
    return None


def _i(n: int) -> str:
    return f"T.int64({n})"


def _body(w: Writer, spec: CeSpec) -> None:
    """Scratch ``work``: [0] the row's maximum, [1] its sum of exponentials, [2] the
    counted rows, [3] the sum of the losses (float64; a buffer, not bindings: a value
    bound from a buffer must not be read after the buffer changes)."""
    dt, c, grad = spec.dtype, spec.classes, spec.kind != "softmax_cross_entropy"
    w("bad[0] = 0")
    for k in range(4):
        w(f"work[{k}] = T.float64(0)")
    if grad and spec.reduction == "mean":  # the counted rows first: every row's scale
        with w.block("for n in range(rows):"):
            _label(w, spec)
            w("work[2] = work[2] + T.Select(valid, T.float64(1), T.float64(0))")
    with w.block("for n in range(rows):"):
        _label(w, spec)
        # the row's maximum (NaN once a NaN is met, as NumPy's maximum.reduce)
        w("work[0] = T.Cast('float64', x[n, 0])")
        with w.block(f"for k in range({_i(1)}, {_i(c)}):"):
            w("work[0] = T.Select(T.Cast('float64', x[n, k]) > work[0] or T.isnan(x[n, k]), "
              "T.Cast('float64', x[n, k]), work[0])")
        w("work[1] = T.float64(0)")
        with w.block(f"for k in range({_i(c)}):"):
            w(f"work[1] = work[1] + T.Cast('float64', T.exp(x[n, k] - {_top(dt)}))")
        (_gradient_row if grad else _loss_row)(w, spec, dt, c)
    if not grad and spec.reduction != "none":
        total = "work[3] / work[2]" if spec.reduction == "mean" else "work[3]"
        w(f"loss[0] = T.Cast('{dt}', {total})")


def _top(dt: str) -> str:
    return f"T.Cast('{dt}', work[0])"


def _label(w: Writer, spec: CeSpec) -> None:
    """``label``, ``valid`` (counted) and ``safe`` (an in-range index) of row ``n``; an
    out-of-range label that is not ignored sets ``bad``."""
    w.let("label", "T.Cast('int64', labels[n])")
    w.let("valid", f"label != {_i(spec.ignore_index)}")
    w.let("inside", f"label >= {_i(0)} and label < {_i(spec.classes)}")
    w("bad[0] = T.Select(valid and not inside, 1, bad[0])")
    w.let("safe", f"T.Select(inside, label, {_i(0)})")


def _loss_row(w: Writer, spec: CeSpec, dt: str, c: int) -> None:
    value = (f"T.Select(valid, T.Cast('{dt}', T.log(work[1])) - (x[n, safe] - {_top(dt)}), "
             f"T.{dt}(0))")
    if spec.reduction == "none":
        w(f"loss[n] = {value}")
        return
    w(f"work[3] = work[3] + T.Cast('float64', {value})")
    w("work[2] = work[2] + T.Select(valid, T.float64(1), T.float64(0))")


def _gradient_row(w: Writer, spec: CeSpec, dt: str, c: int) -> None:
    valid = f"T.Select(valid, T.{dt}(1), T.{dt}(0))"
    if spec.reduction == "none":
        scale = f"ct[n] * {valid}"
    elif spec.reduction == "mean":
        scale = f"T.Cast('{dt}', T.Cast('float64', ct[0]) / work[2])"
    else:
        scale = "ct[0]"
    keep = "" if spec.reduction == "none" else f" * {valid}"  # NumPy's y *= valid
    with w.block(f"for k in range({_i(c)}):"):
        w(f"dx[n, k] = (T.exp(x[n, k] - {_top(dt)}) * ({scale} / T.Cast('{dt}', work[1])) - "
          f"T.Select(k == safe, {scale}, T.{dt}(0))){keep}")
