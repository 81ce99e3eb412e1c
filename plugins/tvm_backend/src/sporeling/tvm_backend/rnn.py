"""``lstm`` and ``lstm_grad`` as one generated function each: every layer, direction and
time step of the recurrence in one native call, where oneDNN's RNN primitives spend ~25 us a
step at batch 1 (the LSTM of ``bench/peers.py``: 1.5 of its 2 ms) and NumPy's loop a
dozen kernel calls a step.

The functions are TVMScript text, written out here per shape and parsed by TVM: plain loops
over the gates, innermost over a contiguous axis so that LLVM vectorises them. The weights
are transposed into scratch buffers first, so the matrix-vector products read rows (the
gates innermost, accumulating in place: no reduction LLVM would have to reorder). The
operands and results are the primitives' (NumPy's ``kernels/nn/rnn.py`` documents them);
the gradient recomputes the forward, keeping each step's gate activations, then runs
back-propagation through time, the weight gradients summed over the steps after each
direction. Every buffer a function uses is an argument the caller allocates (TVM's own
workspace allocations crashed once loaded from the disk cache through its FFI alone).

Generated: float32 and float64, any number of layers, one or two directions, with or
without biases and initial states. Padded batches (``lengths``), 16-bit inputs and GRUs
run the provider below (oneDNN's, or NumPy's).
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

import numpy as np

from .vecmath import sigmoid, tanh

__all__ = ["MAX_BATCH", "RnnSpec", "rnn_spec", "rnn_source", "rnn_shapes", "rnn_scratch", "rnn_unsupported"]


MAX_BATCH = 8
"""Larger batches run the provider below: its GEMMs (oneDNN's RNN primitives) outran the
generated products from 16 samples on (32 steps, hidden 128: 1.0 against 1.4 ms forward),
where at 8 the generated function is still 1.5x faster, at 1 about 4x."""


@dataclass(frozen=True)
class RnnSpec:
    """What one generated function is specialised to (it keys the compiled module)."""
    kind: str  # "lstm"
    steps: int
    batch: int
    size: int  # the input's features
    hidden: int
    layers: int
    dirs: int
    has_bias: bool
    has_state: bool
    dtype: str
    cts: tuple | None  # the gradient's cotangent flags (y, h_n, c_n); None: the forward

    @property
    def gates(self) -> int:
        return 4 * self.hidden

    def width(self, layer: int) -> int:
        """The features of ``layer``'s input."""
        return self.size if layer == 0 else self.dirs * self.hidden


def rnn_spec(kind: str, specs, params: dict) -> RnnSpec:
    """The spec of a call of primitive ``kind`` (``lstm``/``lstm_grad``) on operands of
    these ``(shape, dtype)``."""
    x_shape, dtype = specs[0]
    w_hh_shape = specs[(3 if params["has_state"] else 1) + 1][0]
    cts = params.get("cts")
    return RnnSpec(kind.removesuffix("_grad"), *(int(n) for n in x_shape), int(w_hh_shape[1]),
                   int(params["num_layers"]), 2 if params["bidirectional"] else 1,
                   bool(params["has_bias"]), bool(params["has_state"]), np.dtype(dtype).name,
                   None if cts is None else tuple(bool(c) for c in cts))


def rnn_unsupported(kind: str, params: dict, specs) -> str | None:
    """Why no function is generated for such a call (None: one is)."""
    if kind.removesuffix("_grad") != "lstm":
        return f"{kind} (only LSTMs are generated)"
    if params.get("has_lengths"):
        return "per-sample lengths"
    x_shape, dtype = specs[0]
    if np.dtype(dtype) not in (np.float32, np.float64):
        return f"dtype {np.dtype(dtype).name}"
    if 0 in tuple(x_shape):
        return "an empty input"
    if x_shape[1] > MAX_BATCH:
        return f"batch {x_shape[1]} > {MAX_BATCH}"
    return None


def _operands(spec: RnnSpec) -> list[tuple[str, tuple]]:
    """The primitive's operands: ``(name, shape)`` in order."""
    t, n, h, g = spec.steps, spec.batch, spec.hidden, spec.gates
    ld = spec.layers * spec.dirs
    args = [("x", (t, n, spec.size))]
    if spec.has_state:
        args += [("h0", (ld, n, h)), ("c0", (ld, n, h))]
    for k in range(ld):
        width = spec.width(k // spec.dirs)
        args += [(f"w_ih{k}", (g, width)), (f"w_hh{k}", (g, h))]
        if spec.has_bias:
            args += [(f"b_ih{k}", (g,)), (f"b_hh{k}", (g,))]
    if spec.cts is not None:
        args.append(("y_fwd", (t, n, spec.dirs * h)))
        args += [(name, shape) for name, shape, present in zip(
            ("ct_y", "ct_h", "ct_c"), ((t, n, spec.dirs * h), (ld, n, h), (ld, n, h)),
            spec.cts) if present]
    return args


def rnn_shapes(spec: RnnSpec) -> list[tuple[str, tuple]]:
    """The primitive's results: the forward's ``y, h_n, c_n``; the gradient's one per
    floating operand (``d`` + its name)."""
    t, n, h = spec.steps, spec.batch, spec.hidden
    ld = spec.layers * spec.dirs
    if spec.cts is None:
        return [("y", (t, n, spec.dirs * h)), ("h_n", (ld, n, h)), ("c_n", (ld, n, h))]
    floats = [a for a in _operands(spec) if not a[0].startswith(("y_fwd", "ct_"))]
    return [("d" + name, shape) for name, shape in floats]


def rnn_scratch(spec: RnnSpec) -> list[tuple[str, tuple]]:
    """The scratch buffers the function takes after its results: ``(name, shape)``."""
    t, n, h, g = spec.steps, spec.batch, spec.hidden, spec.gates
    ld, dh = spec.layers * spec.dirs, spec.dirs * spec.hidden
    wide = max(spec.width(layer) for layer in range(spec.layers))
    grad = spec.cts is not None
    # the layers' outputs (the next one's inputs): all of them for the gradient (it reads
    # every layer's input again), but the last (y) for the forward
    kept = spec.layers if grad else spec.layers - 1
    # the accumulators of :func:`_accumulate`: an argument, not a local buffer -- TVM
    # allocates those from its workspace, whose allocator a module loaded from the disk
    # cache through TVM's FFI alone lacks (a crash); LLVM keeps them in registers alike
    acc = (_ROWS, _BLOCK_BYTES // np.dtype(spec.dtype).itemsize)
    scratch = [("acc", acc), ("seq", (max(kept, 1), t, n, dh)), ("wt_ih", (ld, wide, g)),
               ("wt_hh", (ld, h, g)), ("xw", (t, n, g)), ("pre", (n, g)),
               ("hs", (n, h)), ("cs", (n, h))]
    if grad:  # what back-propagation reads of each step, and its own state
        scratch += [("acts", (ld, t, n, g)), ("hprev", (ld, t, n, h)),
                    ("cprev", (ld, t, n, h)), ("tc", (ld, t, n, h)),
                    ("dgates", (t, n, g)), ("dh", (n, h)), ("dc", (n, h)),
                    ("dcur", (t, n, dh)), ("dnext", (t, n, wide))]
    return scratch + [("lanes", (max(_generate(spec)[1], 1), h))]  # see _Writer


class _Writer:
    """Lines of TVMScript at an indentation, and the values they name.

    Inside a loop over lanes (:func:`_lanes`) a named float value is stored in scratch
    ``lanes[slot, j]`` and read from there (LLVM forwards the store to the reads: no
    memory traffic but the stores): bound with ``T.bind`` instead, TVM's code generator
    followed the chains of bindings -- a tanh of a tanh compiled for a minute. Integer
    values (indices) are bound: ``T.bind``, since a plain ``name = value`` makes TVMScript
    allocate a variable from TVM's workspace, which a module loaded through TVM's FFI alone
    cannot do."""

    def __init__(self):
        self.lines: list[str] = []
        self.depth = 1
        self.slots: dict[str, int] = {}
        self.lane: str | None = None  # the lane index inside a loop over lanes
        self._pattern = None

    def __call__(self, line: str) -> None:
        if self.lane is not None and self.slots:
            if self._pattern is None:
                self._pattern = re.compile(r"\b(" + "|".join(self.slots) + r")\b")
            line = self._pattern.sub(lambda m: f"lanes[{self.slots[m.group(1)]}, {self.lane}]",
                                     line)
        self.lines.append("    " * self.depth + line)

    def let(self, name: str, value: str) -> None:
        """``name`` stands for ``value`` in the lines that follow."""
        if self.lane is None:
            self(f"{name} = T.bind({value})")
            return
        if name not in self.slots:
            self.slots[name] = len(self.slots)
            self._pattern = None
        self(f"lanes[{self.slots[name]}, {self.lane}] = {value}")

    def block(self, header: str):
        writer = self

        class _Block:
            def __enter__(self):
                writer(header)
                writer.depth += 1

            def __exit__(self, *exc):
                writer.depth -= 1
        return _Block()


@functools.lru_cache(maxsize=64)
def _generate(spec: RnnSpec) -> tuple[tuple[str, ...], int]:
    """The function's body and how many lane slots it uses."""
    w = _Writer()
    _forward(w, spec)
    if spec.cts is not None:
        _backward(w, spec)
    return tuple(w.lines), len(w.slots)


def rnn_source(spec: RnnSpec) -> str:
    """The TVMScript of ``main(operands..., results..., scratch...)`` for ``spec``."""
    buffers = _operands(spec) + rnn_shapes(spec) + rnn_scratch(spec)
    lines = ["@T.prim_func",
             "def main(" + ", ".join(f"{name}_h: T.handle" for name, _ in buffers) + "):",
             '    T.func_attr({"tirx.noalias": True})']
    for name, shape in buffers:
        # align=4: NumPy's arrays are not 64-byte aligned (TVM's default alignment lets
        # LLVM emit aligned vector loads that fault on them)
        lines.append(f"    {name} = T.match_buffer({name}_h, {shape}, {spec.dtype!r}, "
                     "align=4, offset_factor=1)")
    return "\n".join(lines + list(_generate(spec)[0])) + "\n"


_BLOCK_BYTES = 256  # a row's block of accumulators: 4 AVX-512 or 8 AVX2 registers
_ROWS = 4  # rows accumulated together: each weight vector loaded once for all of them


def _accumulate(w: _Writer, dt: str, rows: list, cols: int, inner: list, out, term,
                init=None) -> None:
    """For every index of the ``rows`` loops ``[(var, extent)]`` and column ``col <
    cols``: ``out(col) = init(col) + sum over the inner loops of term(col)`` (``init``
    None: 0). The accumulators of a block of rows and columns stay in vector registers
    over the whole inner loop, read and written once (an accumulator in memory, read and
    written at every term, ran 2.6x slower: scratch ``acc`` is noalias, LLVM promotes it);
    the rows' block shares each load of the
    column operand (a matrix reread from L2 for every row made a 32 x 64 x 256 product
    L2-bound). The row variables are bound inside the blocks, so ``out``, ``term`` and
    ``init`` (strings of ``col``) may use them."""
    width = _BLOCK_BYTES // np.dtype(dt).itemsize
    total = math.prod(n for _, n in rows)
    block = min(_ROWS, total)
    row_segments = _segments(total, block, "rb")
    col_segments = _segments(cols, width, "cb")
    for row_base, row_size, row_header in row_segments:
        with w.block(row_header) if row_header else _nothing():
            for base, size, header in col_segments:
                with w.block(header) if header else _nothing():
                    col = f"{base} + ci"
                    with _rows(w, rows, row_base, row_size):
                        with w.block(f"for ci in T.vectorized({size}):"):
                            w(f"acc[ri, ci] = {init(col) if init else f'T.{dt}(0)'}")
                    with _loops(w, inner):
                        with _rows(w, rows, row_base, row_size):
                            with w.block(f"for ci in T.vectorized({size}):"):
                                w(f"acc[ri, ci] = acc[ri, ci] + {term(col)}")
                    with _rows(w, rows, row_base, row_size):
                        with w.block(f"for ci in T.vectorized({size}):"):
                            w(f"{out(col)} = acc[ri, ci]")


def _segments(extent: int, size: int, var: str) -> list:
    """``(base, size, loop header or None)``: blocks of ``size`` over ``extent`` (a loop
    over the full ones, then the remainder)."""
    full, tail = divmod(extent, size)
    if full == 1 and not tail:
        return [("0", size, None)]
    return ([(f"{var} * {size}", size, f"for {var} in range({full}):")] if full else []) \
        + ([(str(full * size), tail, None)] if tail else [])


def _rows(w: _Writer, rows: list, base: str, size: int):
    """``for ri`` over a block of rows (unrolled), the row variables bound inside."""
    block = w.block(f"for ri in T.unroll({size}):")

    class _Bound:
        def __enter__(self):
            block.__enter__()
            inner = 1
            for var, extent in reversed(rows):
                index = f"({base} + ri)" if inner == 1 else f"({base} + ri) // {inner}"
                w.let(var, f"{index} % {extent}" if inner * extent < math.prod(
                    n for _, n in rows) else index)
                inner *= extent

        def __exit__(self, *exc):
            block.__exit__(*exc)
    return _Bound()


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


def _loops(w: _Writer, loops: list):
    """Nested loops ``[(var, extent)]`` (none: no loop)."""
    if not loops:
        return _nothing()
    names = ", ".join(v for v, _ in loops)
    extents = ", ".join(str(n) for _, n in loops)
    return w.block(f"for {names} in T.grid({extents}):" if len(loops) > 1
                   else f"for {names} in range({extents}):")


def _transpose(w: _Writer, dst: str, src: str, rows: int, cols: int) -> None:
    """``dst[a, j] = src[j, a]`` for ``src`` (cols, rows), by blocks of 8 ``a`` (3x faster
    than one ``a`` at a time)."""
    if rows % 8:
        with w.block(f"for a, j in T.grid({rows}, {cols}):"):
            w(f"{_at(dst, 'a, j')} = {src}[j, a]")
        return
    with w.block(f"for ao, j, ai in T.grid({rows // 8}, {cols}, 8):"):
        w(f"{_at(dst, 'ao * 8 + ai, j')} = {src}[j, ao * 8 + ai]")


def _at(buffer: str, index: str) -> str:
    """``buffer[index]``, where ``buffer`` may be ``"seq[l, "`` (a layer of a 4-d one)."""
    return f"{buffer}{index}]" if buffer.endswith(", ") else f"{buffer}[{index}]"


def _forward(w: _Writer, spec: RnnSpec) -> None:
    t_all, n_all, h, g, dt = spec.steps, spec.batch, spec.hidden, spec.gates, spec.dtype
    grad = spec.cts is not None
    tn = [("t", t_all), ("n", n_all)]
    for layer in range(spec.layers):
        src = "x" if layer == 0 else f"seq[{layer - 1}, "
        width = spec.width(layer)
        out = "y" if layer == spec.layers - 1 and not grad else f"seq[{layer}, "
        for d in range(spec.dirs):
            k = layer * spec.dirs + d
            w(f"# layer {layer}, direction {d}: weights with the gates innermost")
            _transpose(w, f"wt_ih[{k}, ", f"w_ih{k}", width, g)
            _transpose(w, f"wt_hh[{k}, ", f"w_hh{k}", h, g)
            w("# every step's input projection, with both biases, up front")
            _accumulate(w, dt, tn, g, [("a", width)],
                        out=lambda col: f"xw[t, n, {col}]",
                        term=lambda col, k=k: f"{_at(src, 't, n, a')} * wt_ih[{k}, a, {col}]",
                        init=(lambda col, k=k: f"b_ih{k}[{col}] + b_hh{k}[{col}]")
                        if spec.has_bias else None)
            with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                w(f"hs[n, j] = " + (f"h0[{k}, n, j]" if spec.has_state else f"T.{dt}(0)"))
                w(f"cs[n, j] = " + (f"c0[{k}, n, j]" if spec.has_state else f"T.{dt}(0)"))
            with w.block(f"for s in range({t_all}):"):
                t = f"{t_all - 1} - s" if d else "s"
                _accumulate(w, dt, [("n", n_all)], g, [("a", h)],
                            out=lambda col: f"pre[n, {col}]",
                            term=lambda col, k=k: f"hs[n, a] * wt_hh[{k}, a, {col}]",
                            init=lambda col, t=t: f"xw[{t}, n, {col}]")
                _lanes(w, n_all, h, lambda t=t, k=k, d=d: _cell(w, spec, k, d, t, out))
            if not grad:
                with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                    w(f"h_n[{k}, n, j] = hs[n, j]")
                    w(f"c_n[{k}, n, j] = cs[n, j]")


def _lanes(w: _Writer, n_all: int, h: int, body) -> None:
    """``body()`` for every sample ``n`` and unit ``j < h``; LLVM vectorises the ``j``
    loop (TVM's own vectorisation of it turned the selects of :mod:`.vecmath` into
    per-lane code: 8x slower)."""
    with w.block(f"for n, j in T.grid({n_all}, {h}):"):
        w.lane = "j"
        body()
        w.lane = None


def _cell(w: _Writer, spec: RnnSpec, k: int, d: int, t: str, out: str) -> None:
    """One LSTM cell's unit ``j`` of sample ``n`` at step ``t`` (its gates' pre-activations
    in ``pre``): the new state, the output, and for the gradient what it reads again."""
    h, dt = spec.hidden, spec.dtype
    sigmoid(w.let, "gi", "pre[n, j]", dt)
    sigmoid(w.let, "gf", f"pre[n, j + {h}]", dt)
    tanh(w.let, "gg", f"pre[n, j + {2 * h}]", dt)
    sigmoid(w.let, "go", f"pre[n, j + {3 * h}]", dt)
    w.let("c_new", "gf * cs[n, j] + gi * gg")
    tanh(w.let, "tc_new", "c_new", dt)
    if spec.cts is not None:
        for q, v in enumerate(("gi", "gf", "gg", "go")):
            w(f"acts[{k}, {t}, n, j + {q * h}] = {v}")
        w(f"hprev[{k}, {t}, n, j] = hs[n, j]")
        w(f"cprev[{k}, {t}, n, j] = cs[n, j]")
        w(f"tc[{k}, {t}, n, j] = tc_new")
    w("cs[n, j] = c_new")
    w("hs[n, j] = go * tc_new")
    w(f"{_at(out, f'{t}, n, j + {d * h}')} = go * tc_new")


def _cell_grad(w: _Writer, spec: RnnSpec, k: int, d: int, t: str, d_out) -> None:
    """Back through one cell's unit ``j`` of sample ``n`` at step ``t``: its gates'
    pre-activation cotangents into ``dgates``, the cell state's into ``dc`` (``dh`` holds
    the output's from the later step)."""
    h, one = spec.hidden, f"T.{spec.dtype}(1)"
    w.let("dh_c", "dh[n, j]" + (f" + {d_out}[{t}, n, j + {d * h}]" if d_out else ""))
    for q, v in enumerate(("gi", "gf", "gg", "go")):
        w.let(v, f"acts[{k}, {t}, n, j + {q * h}]")
    w.let("tcv", f"tc[{k}, {t}, n, j]")
    w.let("dc_c", f"dc[n, j] + dh_c * go * ({one} - tcv * tcv)")
    w(f"dgates[{t}, n, j] = dc_c * gg * gi * ({one} - gi)")
    w(f"dgates[{t}, n, j + {h}] = dc_c * cprev[{k}, {t}, n, j] * gf * ({one} - gf)")
    w(f"dgates[{t}, n, j + {2 * h}] = dc_c * gi * ({one} - gg * gg)")
    w(f"dgates[{t}, n, j + {3 * h}] = dh_c * tcv * go * ({one} - go)")
    w("dc[n, j] = dc_c * gf")


def _backward(w: _Writer, spec: RnnSpec) -> None:
    t_all, n_all, h, g, dt = spec.steps, spec.batch, spec.hidden, spec.gates, spec.dtype
    dh_all = spec.dirs * h
    has_ct = dict(zip(("y", "h", "c"), spec.cts))
    one = f"T.{dt}(1)"
    tn = [("t", t_all), ("n", n_all)]
    for layer in range(spec.layers - 1, -1, -1):
        src = "x" if layer == 0 else f"seq[{layer - 1}, "
        width = spec.width(layer)
        top = layer == spec.layers - 1
        # the cotangent of this layer's output: ct_y on top, else what the layer above
        # gave its input (copied into dcur: dnext is overwritten below)
        d_out = ("ct_y" if has_ct["y"] else None) if top else "dcur"
        d_in = "dx" if layer == 0 else "dnext"
        if not top:
            with w.block(f"for t, n, j in T.grid({t_all}, {n_all}, {dh_all}):"):
                w("dcur[t, n, j] = dnext[t, n, j]")
        for d in range(spec.dirs):
            k = layer * spec.dirs + d
            w(f"# back through layer {layer}, direction {d}")
            with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                w("dh[n, j] = " + (f"ct_h[{k}, n, j]" if has_ct["h"] else f"T.{dt}(0)"))
                w("dc[n, j] = " + (f"ct_c[{k}, n, j]" if has_ct["c"] else f"T.{dt}(0)"))
            with w.block(f"for s in range({t_all}):"):
                t = "s" if d else f"{t_all - 1} - s"  # the forward's order, reversed
                _lanes(w, n_all, h, lambda t=t, k=k, d=d: _cell_grad(w, spec, k, d, t, d_out))
                _accumulate(w, dt, [("n", n_all)], h, [("j", g)],
                            out=lambda col: f"dh[n, {col}]",
                            term=lambda col, k=k, t=t: f"dgates[{t}, n, j] * w_hh{k}[j, {col}]")
            if spec.has_state:
                with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                    w(f"dh0[{k}, n, j] = dh[n, j]")
                    w(f"dc0[{k}, n, j] = dc[n, j]")
            w("# the weights' gradients: sums over every step and sample")
            for name, rows, cols in ((f"dw_ih{k}", src, width),
                                     (f"dw_hh{k}", f"hprev[{k}, ", h)):
                _accumulate(w, dt, [("j", g)], cols, tn,
                            out=lambda col, name=name: f"{name}[j, {col}]",
                            term=lambda col, rows=rows: f"dgates[t, n, j] * "
                                                        f"{_at(rows, f't, n, {col}')}")
            if spec.has_bias:
                _accumulate(w, dt, [], g, tn, out=lambda col, k=k: f"db_ih{k}[{col}]",
                            term=lambda col: f"dgates[t, n, {col}]")
                with w.block(f"for j in range({g}):"):
                    w(f"db_hh{k}[j] = db_ih{k}[j]")
            # the input's gradient, summed over the directions
            _accumulate(w, dt, tn, width, [("j", g)],
                        out=lambda col: f"{d_in}[t, n, {col}]",
                        term=lambda col, k=k: f"dgates[t, n, j] * w_ih{k}[j, {col}]",
                        init=(lambda col: f"{d_in}[t, n, {col}]") if d else None)
