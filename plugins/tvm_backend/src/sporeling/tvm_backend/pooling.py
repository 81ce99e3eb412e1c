"""``max_pool2d`` and its gradient ``max_pool2d_scatter`` as generated functions: one loop
nest over the planes (every sample's every channel: one function serves any batch size
and channel count of the same image and window geometry), where oneDNN's plain-layout
pooling (``simple_nchw``) took ~0.7 ms for LeNet's 32x32x8x8 on an AVX2 machine.

The forward walks each window's positions in order, unrolled, keeping the first maximum
(NumPy's ``argmax``: the first NaN where the window has one), so the maxima and the int64
argmax equal NumPy's kernel bit for bit, signed zeros included; padding reads as ``-inf``.
(Written as one expression -- the maximum, then a chain of selects finding its first
position -- a 3x3 window took LLVM 7 s to compile.) The gradient is written as a gather: every input
position adds, in window-offset order, the output gradients of the windows whose argmax
it is (the order NumPy's kernel adds them in), so no two loop iterations write one
element and nothing is zeroed first; an argmax in the padding reaches nothing.

Generated: float32 and float64, any window, stride, padding and dilation. Other dtypes
run the provider below.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tir_text import Generated, Writer, header

__all__ = ["PoolSpec", "pool_spec", "pool_unsupported", "POOL_KINDS"]

POOL_KINDS = ("max_pool2d", "max_pool2d_scatter")


@dataclass(frozen=True)
class PoolSpec(Generated):
    """What one generated pooling function is specialised to (the planes are not: they
    are the function's one symbolic extent)."""
    kind: str  # "max_pool2d" or "max_pool2d_scatter"
    size: tuple  # the input's (H, W)
    kernel: tuple
    stride: tuple
    padding: tuple  # ((top, bottom), (left, right))
    dilation: tuple
    dtype: str

    @property
    def pooled(self) -> tuple:
        """The output's (OH, OW)."""
        return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1 for n, k, s, (lo, hi), d in
                     zip(self.size, self.kernel, self.stride, self.padding, self.dilation))

    @property
    def tiles(self) -> bool:
        """Whether the windows tile the image exactly (LeNet's 2x2, stride 2, on an even
        image): each position lies in one window."""
        return (self.stride == self.kernel and self.dilation == (1, 1)
                and self.padding == ((0, 0), (0, 0))
                and all(n == o * k for n, o, k in zip(self.size, self.pooled, self.kernel)))

    def source(self) -> str:
        """``main(x, y, index)`` (the forward) or ``main(g, index, dx)`` (the gradient),
        every array with the planes as its first axis."""
        (h, w), (oh, ow), dt = self.size, self.pooled, self.dtype
        if self.kind == "max_pool2d":
            buffers = [("x", (h, w), dt), ("y", (oh, ow), dt), ("index", (oh, ow), "int64")]
        else:
            buffers = [("g", (oh, ow), dt), ("index", (oh, ow), "int64"), ("dx", (h, w), dt)]
        lines = header([(name, f"(planes, {shape[0]}, {shape[1]})", dtype)
                        for name, shape, dtype in buffers], ("planes",))
        writer = Writer()
        (_forward if self.kind == "max_pool2d" else _scatter)(writer, self)
        return "\n".join(lines + writer.lines) + "\n"


def pool_spec(kind: str, x_shape, dtype, params: dict) -> PoolSpec:
    """The spec of a call of ``kind`` whose (input or gradient) image is ``x_shape``: the
    input's for the forward, ``input_size`` for the gradient."""
    size = tuple(x_shape[2:]) if kind == "max_pool2d" else tuple(params["input_size"])
    return PoolSpec(kind, tuple(int(n) for n in size),
                    tuple(int(k) for k in params["kernel_size"]),
                    tuple(int(s) for s in params["stride"]),
                    tuple((int(lo), int(hi)) for lo, hi in params["padding"]),
                    tuple(int(d) for d in params["dilation"]), np.dtype(dtype).name)


def pool_unsupported(kind: str, x_shape, dtype) -> str | None:
    """Why no function is generated for such a call (None: one is)."""
    if kind not in POOL_KINDS:
        return f"{kind} (only max pooling and its gradient are generated)"
    if np.dtype(dtype) not in (np.float32, np.float64):
        return f"dtype {np.dtype(dtype).name}"
    if len(x_shape) != 4 or 0 in tuple(x_shape):
        return "an empty input"
    return None


def _t(n: int) -> str:
    return f"T.int64({n})"


def _offsets(spec: PoolSpec) -> list[tuple[int, int, int]]:
    """``(k, i, j)``: each window position's argmax number and its row and column."""
    kw = spec.kernel[1]
    return [(i * kw + j, i, j) for i in range(spec.kernel[0]) for j in range(kw)]


def _forward(w: Writer, spec: PoolSpec) -> None:
    (h, wd), (oh, ow) = spec.size, spec.pooled
    rows = _spans(oh, h, spec.kernel[0], spec.stride[0], spec.dilation[0], spec.padding[0][0])
    cols = _spans(ow, wd, spec.kernel[1], spec.stride[1], spec.dilation[1],
                  spec.padding[1][0])
    for a_lo, a_hi, test_rows in rows:
        with w.block(f"for p, a0 in T.grid(planes, {_t(a_hi - a_lo)}):"):
            w.let("a", f"a0 + {_t(a_lo)}")
            for b_lo, b_hi, test_cols in cols:
                for header, b in _column_blocks(b_hi - b_lo):
                    with w.block(header):
                        w.let("b", f"{b} + {_t(b_lo)}")
                        _window(w, spec, test_rows, test_cols)


def _spans(pooled: int, extent: int, k: int, s: int, d: int, lo: int) -> list:
    """``(start, stop, tested)``: the windows along one axis in runs, those reaching the
    padding (``tested``) apart from the inside ones, which read without bounds tests
    (a bounds test kept LLVM from vectorising the whole loop)."""
    first = min(pooled, -(-lo // s))  # the first window inside
    stop = max(first, min(pooled, (extent - 1 - (k - 1) * d + lo) // s + 1))
    spans = [(0, first, True), (first, stop, False), (stop, pooled, True)]
    return [span for span in spans if span[1] > span[0]]


_BLOCK = 8  # output columns of a block: two AVX2 vectors of int64 argmax


def _column_blocks(ow: int) -> list[tuple[str, str]]:
    """``(loop header, b)``: loops over blocks of output columns covering ``[0, ow)``,
    each of a trip count LLVM's loop vectoriser takes whole -- a power of two, ``_BLOCK``
    at most, dividing the loop's -- so that no column runs the scalar code (whose selects
    x86 turns into branches). The bulk in blocks of ``size``, the rest in one block, of
    the least power of two holding it (4 at least), ending at ``ow``: it overlaps the one
    before (those columns computed twice, to the same values)."""
    size = _BLOCK
    while size > ow:
        size //= 2
    full, rest = divmod(ow, size)
    blocks = [(f"for bo, bi in T.grid({_t(full)}, {_t(size)}):", f"bo * {_t(size)} + bi")
              if full > 1 else (f"for bi in range({_t(size)}):", "bi")]
    if rest:
        last = size  # a 4-block at least: LLVM vectorised 1- or 2-blocks in part or not
        while last // 2 >= max(rest, 4):
            last //= 2
        blocks.append((f"for bi in range({_t(last)}):", f"bi + {_t(ow - last)}"))
    return blocks


def _window(w: Writer, spec: PoolSpec, test_rows: bool, test_cols: bool) -> None:
    """The window ``(p, a, b)``: its maximum and argmax (the rows' or columns' bounds
    tested where ``test_rows``, ``test_cols``)."""
    (h, wd), (oh, ow), dt = spec.size, spec.pooled, spec.dtype
    (sh, sw), (dh, dw), ((pt, _), (pl, _)) = spec.stride, spec.dilation, spec.padding
    for k, i, j in _offsets(spec):
        row, col = f"a * {_t(sh)} + {_t(i * dh - pt)}", f"b * {_t(sw)} + {_t(j * dw - pl)}"
        # tested only where some window reaches the padding
        inside = (_inside(row, i * dh - pt, sh, oh, h) if test_rows else []) + \
            (_inside(col, j * dw - pl, sw, ow, wd) if test_cols else [])
        value = f"x[p, {row}, {col}]"
        if inside:
            value = f'T.if_then_else({" and ".join(inside)}, {value}, T.{dt}("-inf"))'
        if k == 0:
            w(f"y[p, a, b] = {value}")
            w(f"index[p, a, b] = {_int(0)}")
            continue
        # NumPy's argmax: the first maximum, or the first NaN (after one, nothing is
        # greater); selects, not branches (random data mispredicts them: 4x slower),
        # the running maximum in a register (the buffers are noalias)
        later = f"{value} > y[p, a, b] or T.isnan({value}) and not T.isnan(y[p, a, b])"
        w(f"index[p, a, b] = T.Select({later}, {_int(k)}, index[p, a, b])")
        w(f"y[p, a, b] = T.Select({later}, {value}, y[p, a, b])")


def _inside(index: str, shift: int, stride: int, pooled: int, extent: int) -> list[str]:
    """The tests that ``index`` (``window * stride + shift`` for windows ``< pooled``)
    lies inside ``[0, extent)``, where some window's does not."""
    return ([f"{index} >= {_t(0)}"] if shift < 0 else []) + \
        ([f"{index} < {_t(extent)}"] if (pooled - 1) * stride + shift >= extent else [])


def _scatter(w: Writer, spec: PoolSpec) -> None:
    (h, wd), (oh, ow), dt = spec.size, spec.pooled, spec.dtype
    (sh, sw), (dh, dw), ((pt, _), (pl, _)) = spec.stride, spec.dilation, spec.padding
    if spec.tiles:  # one window per position: each window writes its own, no sums
        with w.block(f"for p, a, b in T.grid(planes, {_t(oh)}, {_t(ow)}):"):
            w.let("k", "index[p, a, b]")
            w.let("v", "g[p, a, b]")
            for k, i, j in _offsets(spec):
                w(f"dx[p, a * {_t(sh)} + {_t(i)}, b * {_t(sw)} + {_t(j)}] = "
                  f"T.Select(k == {_int(k)}, v, T.{dt}(0))")
        return
    with w.block(f"for p, r, c in T.grid(planes, {_t(h)}, {_t(wd)}):"):
        total = f"T.{dt}(0)"
        for k, i, j in _offsets(spec):
            # the window (a, b) whose offset (i, j) is (r, c): r = a * sh + i * dh - pt
            row, col = f"r + {_t(pt - i * dh)}", f"c + {_t(pl - j * dw)}"
            a, b = f"T.floordiv({row}, {_t(sh)})", f"T.floordiv({col}, {_t(sw)})"
            hits = [f"{row} >= {_t(0)}", f"T.floormod({row}, {_t(sh)}) == {_t(0)}",
                    f"{a} < {_t(oh)}", f"{col} >= {_t(0)}",
                    f"T.floormod({col}, {_t(sw)}) == {_t(0)}", f"{b} < {_t(ow)}"]
            term = (f'T.if_then_else({" and ".join(hits)}, T.if_then_else(index[p, {a}, {b}] '
                    f'== {_int(k)}, g[p, {a}, {b}], T.{dt}(0)), T.{dt}(0))')
            total = f"{total} + {term}"
        w(f"dx[p, r, c] = {total}")


def _int(k: int) -> str:
    return f"T.int64({k})"
