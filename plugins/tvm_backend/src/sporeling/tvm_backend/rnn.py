"""``lstm``, ``gru`` and their gradients as one generated function each: every layer,
direction and time step of the recurrence in one native call, where oneDNN's RNN
primitives spend ~25 us a step at batch 1 (the LSTM of ``bench/peers.py``: 1.5 of its
2 ms) and NumPy's loop a dozen kernel calls a step.

The functions are TVMScript text, written out here per shape and parsed by TVM: plain loops
over the gates, innermost over a contiguous axis so that LLVM vectorises them. The weights
are transposed into scratch buffers first, so the matrix-vector products read rows (the
gates innermost, accumulating in place: no reduction LLVM would have to reorder). The
operands and results are the primitives' (NumPy's ``kernels/nn/rnn.py`` documents them);
the gradient recomputes the forward, keeping each step's gate activations, then runs
back-propagation through time, the weight gradients summed over the steps after each
direction. Every buffer a function uses is an argument the caller allocates (see
:mod:`.tir_text`); the cells' formulas are in :mod:`.rnn_cells`.

Generated: LSTMs and GRUs in float32 and float64, any number of layers, one or two
directions, with or without biases and initial states, batches up to :data:`MAX_BATCH`.
Padded batches (``lengths``), 16-bit inputs and larger batches run the provider below
(oneDNN's, or NumPy's).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .rnn_cells import gru_cell, gru_cell_grad, lstm_cell, lstm_cell_grad, offset
from .tir_text import (Generated, Writer, accumulate, accumulator_shape, at, header, lanes,
                       transpose)

__all__ = ["MAX_BATCH", "RnnSpec", "rnn_spec", "rnn_source", "rnn_shapes", "rnn_scratch",
           "rnn_unsupported"]


MAX_BATCH = 8
"""Larger batches run the provider below: its GEMMs (oneDNN's RNN primitives) outran the
generated products from 16 samples on (32 steps, hidden 128: 0.94 against 1.36 ms
forward), where at 8 the generated function is still 1.5x faster (hidden 64: 0.36 against
0.55 ms), at 1 about 4x."""


@dataclass(frozen=True)
class RnnSpec(Generated):
    """What one generated function is specialised to."""
    kind: str  # "lstm" or "gru"
    steps: int
    batch: int
    size: int  # the input's features
    hidden: int
    layers: int
    dirs: int
    has_bias: bool
    has_state: bool
    dtype: str
    cts: tuple | None  # the gradient's cotangent flags (y, h_n[, c_n]); None: the forward

    @property
    def gates(self) -> int:
        return (4 if self.kind == "lstm" else 3) * self.hidden

    @property
    def states(self) -> tuple[str, ...]:
        return ("h", "c") if self.kind == "lstm" else ("h",)

    def width(self, layer: int) -> int:
        """The features of ``layer``'s input."""
        return self.size if layer == 0 else self.dirs * self.hidden

    def source(self) -> str:
        return rnn_source(self)


def rnn_spec(kind: str, specs, params: dict) -> RnnSpec:
    """The spec of a call of primitive ``kind`` (``lstm``, ``gru``, ``lstm_grad``,
    ``gru_grad``) on operands of these ``(shape, dtype)``."""
    x_shape, dtype = specs[0]
    states = (2 if kind.startswith("lstm") else 1) if params["has_state"] else 0
    w_hh_shape = specs[1 + states + 1][0]
    cts = params.get("cts")
    return RnnSpec(kind.removesuffix("_grad"), *(int(n) for n in x_shape), int(w_hh_shape[1]),
                   int(params["num_layers"]), 2 if params["bidirectional"] else 1,
                   bool(params["has_bias"]), bool(params["has_state"]), np.dtype(dtype).name,
                   None if cts is None else tuple(bool(c) for c in cts))


def rnn_unsupported(kind: str, params: dict, specs) -> str | None:
    """Why no function is generated for such a call (None: one is)."""
    if kind.removesuffix("_grad") not in ("lstm", "gru"):
        return f"{kind} (only LSTMs and GRUs are generated)"
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
        args += [(f"{s}0", (ld, n, h)) for s in spec.states]
    for k in range(ld):
        width = spec.width(k // spec.dirs)
        args += [(f"w_ih{k}", (g, width)), (f"w_hh{k}", (g, h))]
        if spec.has_bias:
            args += [(f"b_ih{k}", (g,)), (f"b_hh{k}", (g,))]
    if spec.cts is not None:
        args.append(("y_fwd", (t, n, spec.dirs * h)))
        names = ["ct_y"] + [f"ct_{s}" for s in spec.states]
        shapes = [(t, n, spec.dirs * h)] + [(ld, n, h)] * len(spec.states)
        args += [(name, shape) for name, shape, present in zip(names, shapes, spec.cts)
                 if present]
    return args


def rnn_shapes(spec: RnnSpec) -> list[tuple[str, tuple]]:
    """The primitive's results: the forward's ``y, h_n[, c_n]``; the gradient's one per
    floating operand (``d`` + its name)."""
    t, n, h = spec.steps, spec.batch, spec.hidden
    ld = spec.layers * spec.dirs
    if spec.cts is None:
        return [("y", (t, n, spec.dirs * h))] + [(f"{s}_n", (ld, n, h)) for s in spec.states]
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
    lstm = spec.kind == "lstm"
    scratch = [("acc", accumulator_shape(spec.dtype)), ("seq", (max(kept, 1), t, n, dh)),
               ("wt_ih", (ld, wide, g)), ("wt_hh", (ld, h, g)), ("xw", (t, n, g)),
               ("pre", (n, g)), ("hs", (n, h))] + ([("cs", (n, h))] if lstm else [])
    if grad:  # what back-propagation reads of each step, and its own state
        scratch += [("acts", (ld, t, n, g)), ("hprev", (ld, t, n, h))]
        scratch += ([("cprev", (ld, t, n, h)), ("tc", (ld, t, n, h)), ("dgates", (t, n, g)),
                     ("dc", (n, h))] if lstm else
                    [("hn", (ld, t, n, h)), ("dxg", (t, n, g)), ("dhg", (t, n, g))])
        scratch += [("dh", (n, h)), ("dcur", (t, n, dh)), ("dnext", (t, n, wide))]
    return scratch + [("lanes", (max(_generate(spec)[1], 1), h))]  # see tir_text.Writer


@functools.lru_cache(maxsize=64)
def _generate(spec: RnnSpec) -> tuple[tuple[str, ...], int]:
    """The function's body and how many lane slots it uses."""
    w = Writer()
    _forward(w, spec)
    if spec.cts is not None:
        _backward(w, spec)
    return tuple(w.lines), len(w.slots)


def rnn_source(spec: RnnSpec) -> str:
    """The TVMScript of ``main(operands..., results..., scratch...)`` for ``spec``."""
    buffers = _operands(spec) + rnn_shapes(spec) + rnn_scratch(spec)
    lines = header([(name, str(shape), spec.dtype) for name, shape in buffers])
    return "\n".join(lines + list(_generate(spec)[0])) + "\n"


def _forward(w: Writer, spec: RnnSpec) -> None:
    t_all, n_all, h, g, dt = spec.steps, spec.batch, spec.hidden, spec.gates, spec.dtype
    grad, lstm = spec.cts is not None, spec.kind == "lstm"
    cell = lstm_cell if lstm else gru_cell
    tn = [("t", t_all), ("n", n_all)]
    for layer in range(spec.layers):
        src = "x" if layer == 0 else f"seq[{layer - 1}, "
        width = spec.width(layer)
        out = "y" if layer == spec.layers - 1 and not grad else f"seq[{layer}, "
        for d in range(spec.dirs):
            k = layer * spec.dirs + d
            w(f"# layer {layer}, direction {d}: weights with the gates innermost")
            transpose(w, f"wt_ih[{k}, ", f"w_ih{k}", width, g)
            transpose(w, f"wt_hh[{k}, ", f"w_hh{k}", h, g)
            # the input biases are the LSTM's two, the GRU's b_ih (its b_hh is inside r *)
            bias = (lambda col, k=k: f"b_ih{k}[{col}] + b_hh{k}[{col}]") if lstm else \
                (lambda col, k=k: f"b_ih{k}[{col}]")
            w("# every step's input projection, with its biases, up front")
            accumulate(w, dt, tn, g, [("a", width)], out=lambda col: f"xw[t, n, {col}]",
                       term=lambda col, k=k: f"{at(src, 't, n, a')} * wt_ih[{k}, a, {col}]",
                       init=bias if spec.has_bias else None)
            with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                for state, buffer in zip(spec.states, ("hs", "cs")):
                    w(f"{buffer}[n, j] = " + (f"{state}0[{k}, n, j]" if spec.has_state
                                              else f"T.{dt}(0)"))
            with w.block(f"for s in range({t_all}):"):
                t = f"{t_all - 1} - s" if d else "s"
                hidden_init = (lambda col, t=t: f"xw[{t}, n, {col}]") if lstm else \
                    (lambda col, k=k: f"b_hh{k}[{col}]") if spec.has_bias else None
                accumulate(w, dt, [("n", n_all)], g, [("a", h)],
                           out=lambda col: f"pre[n, {col}]",
                           term=lambda col, k=k: f"hs[n, a] * wt_hh[{k}, a, {col}]",
                           init=hidden_init)
                lanes(w, n_all, h, lambda t=t, k=k, d=d: cell(
                    w, h, dt, grad, k, t, offset(out, t, d * h)))
            if not grad:
                with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                    for state, buffer in zip(spec.states, ("hs", "cs")):
                        w(f"{state}_n[{k}, n, j] = {buffer}[n, j]")


def _backward(w: Writer, spec: RnnSpec) -> None:
    t_all, n_all, h, g, dt = spec.steps, spec.batch, spec.hidden, spec.gates, spec.dtype
    lstm = spec.kind == "lstm"
    cell_grad = lstm_cell_grad if lstm else gru_cell_grad
    # the gates' cotangents, input side and hidden side (one buffer for an LSTM)
    dx_gates, dh_gates = ("dgates", "dgates") if lstm else ("dxg", "dhg")
    dh_all = spec.dirs * h
    has_ct = dict(zip(("y",) + spec.states, spec.cts))
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
                for state in spec.states:
                    w(f"d{state}[n, j] = " + (f"ct_{state}[{k}, n, j]" if has_ct[state]
                                              else f"T.{dt}(0)"))
            with w.block(f"for s in range({t_all}):"):
                t = "s" if d else f"{t_all - 1} - s"  # the forward's order, reversed
                lanes(w, n_all, h, lambda t=t, k=k, d=d: cell_grad(
                    w, h, dt, k, t, offset(d_out, t, d * h) if d_out else None))
                # the state's cotangent for the step before: the GRU's adds its direct
                # path, which its cell left in dh
                accumulate(w, dt, [("n", n_all)], h, [("j", g)],
                           out=lambda col: f"dh[n, {col}]",
                           term=lambda col, k=k, t=t: f"{dh_gates}[{t}, n, j] * "
                                                      f"w_hh{k}[j, {col}]",
                           init=None if lstm else (lambda col: f"dh[n, {col}]"))
            if spec.has_state:
                with w.block(f"for n, j in T.grid({n_all}, {h}):"):
                    for state in spec.states:
                        w(f"d{state}0[{k}, n, j] = d{state}[n, j]")
            w("# the weights' gradients: sums over every step and sample")
            for name, gates, rows, cols in ((f"dw_ih{k}", dx_gates, src, width),
                                            (f"dw_hh{k}", dh_gates, f"hprev[{k}, ", h)):
                accumulate(w, dt, [("j", g)], cols, tn,
                           out=lambda col, name=name: f"{name}[j, {col}]",
                           term=lambda col, rows=rows, gates=gates: f"{gates}[t, n, j] * "
                                                                    f"{at(rows, f't, n, {col}')}")
            if spec.has_bias:
                for name, gates in ((f"db_ih{k}", dx_gates), (f"db_hh{k}", dh_gates)):
                    accumulate(w, dt, [], g, tn, out=lambda col, name=name: f"{name}[{col}]",
                               term=lambda col, gates=gates: f"{gates}[t, n, {col}]")
            # the input's gradient, summed over the directions
            accumulate(w, dt, tn, width, [("j", g)],
                       out=lambda col: f"{d_in}[t, n, {col}]",
                       term=lambda col, k=k: f"{dx_gates}[t, n, j] * w_ih{k}[j, {col}]",
                       init=(lambda col: f"{d_in}[t, n, {col}]") if d else None)
