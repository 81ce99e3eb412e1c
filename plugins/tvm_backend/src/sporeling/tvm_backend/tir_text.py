"""Writing TensorIR as TVMScript text: the lines and named values of a function
(:class:`Writer`), and the loop shapes a generated recurrent network is made of --
products with their accumulators in vector registers (:func:`accumulate`), loops over
vector lanes (:func:`lanes`), blocked transposes.

Two things TVM does that generated text avoids: a buffer allocated inside a function
comes from TVM's workspace, whose allocator a module loaded from the disk cache through
TVM's FFI alone lacks (a crash: every buffer here is an argument); and values bound in
chains with ``T.bind`` made TVM's code generator run for a minute (a tanh of a tanh:
named float values live in lane slots instead).
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import math
import re

import numpy as np

from .entry import declare
from .target import tvm

__all__ = ["Generated", "header", "parsed", "Writer", "accumulate", "accumulator_shape", "lanes",
           "transpose", "at"]


class Generated:
    """What a function generated as TVMScript text is specialised to (a frozen dataclass:
    it keys the compiled function); ``source()`` writes the text. A module of such
    functions is cached on disk under their texts, not their specs, so a newer generator
    never finds what an older one wrote."""

    def source(self) -> str:
        raise NotImplementedError


def header(buffers, extents: tuple = ()) -> list[str]:
    """The first lines of ``main``: its arguments, the buffers ``(name, shape, dtype)``
    (``shape`` as text, e.g. ``"(rows, 10)"``), declared by :func:`~.entry.declare`
    (which :func:`parsed` lends the text), with ``extents`` the symbolic int64 extents
    their shapes may use (one function for every such size). ``noalias``: no argument
    overlaps another."""
    names = [name for name, _, _ in buffers]
    lines = ["@T.prim_func",
             "def main(" + ", ".join(f"{name}_h: T.handle" for name in names) + "):",
             '    T.func_attr({"tirx.noalias": True})']
    lines += [f"    {name} = T.int64()" for name in extents]
    lines.append(f"    {', '.join(names)}, = declare([{', '.join(f'{n}_h' for n in names)}], "
                 f"[{', '.join(f'({shape}, {dtype!r})' for _, shape, dtype in buffers)}])")
    return lines


def parsed(text: str):
    """The function TVMScript ``text`` (written with :func:`header` and :class:`Writer`)
    defines, made by running its lines through TVM's IR builder (:func:`_run`: what TVM's
    parser does with them, ~20x faster -- that parser is Python, ~1 ms a line: the LSTM
    gradient's text 0.44 -> 0.02 s); a line of another form goes to TVM's parser."""
    try:
        return _run(text)
    except _Unknown:
        script = tvm().script  # first: it imports TVM as this plugin does (target.tvm)
        from tvm.script.parser import tirx
        return script.from_source(text, extra_vars={"T": tirx, "declare": declare})


class _Unknown(Exception):
    """A line :func:`_run` does not run."""


_DEF = re.compile(r"def main\((.*)\):$")
_FOR = re.compile(r"for (.+?) in (.+):$")
_STORE = re.compile(r"(\w+)\[(.+?)\] = (?!=)(.+)$")
_ASSIGN = re.compile(r"(\w+(?:, \w+)*),? = (?!=)(.+)$")


class _Logic(ast.NodeTransformer):
    """``a and b``, ``a or b``, ``not a`` as TVM's ``And``, ``Or``, ``Not`` (folded from the
    left, as TVM's parser folds them)."""

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "_And" if isinstance(node.op, ast.And) else "_Or"
        value = node.values[0]
        for other in node.values[1:]:
            value = ast.Call(ast.Name(op, ast.Load()), [value, other], [])
        return value

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.Call(ast.Name("_Not", ast.Load()), [node.operand], [])
        return node


def _run(text: str):
    """``text``'s function, each line run through TVM's IR builder: a line is ``def main``
    (handles), a ``for`` over ``T.grid``, ``T.vectorized``, ``T.unroll`` or ``range``, a
    store ``buffer[index] = value``, a binding ``name = value`` (``a, b, = value``), or a
    call; expressions are Python's over TVM's IR (what TVM's parser makes of them), with
    ``and``, ``or`` and ``not`` TVM's (:class:`_Logic`)."""
    tir = tvm().tirx
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T
    names: dict = {"T": T, "declare": declare, "range": T.serial, "_And": tir.And,
                   "_Or": tir.Or, "_Not": tir.Not}

    def eval(source):  # noqa: A001 - Python's, on the generators' own text
        try:
            tree = _Logic().visit(ast.parse(source, mode="eval"))
        except SyntaxError as error:  # a statement of another kind (if, with...)
            raise _Unknown(source) from error
        return builtins.eval(compile(ast.fix_missing_locations(tree), "<tir>", "eval"), names)

    def bind(pairs):  # each value named as the text names it (as TVM's parser names it)
        for name, value in pairs:
            names[name] = value
            if isinstance(value, tvm().runtime.Object):
                IRBuilder.name(name, value)

    frames: list = []  # (indentation, frame) of the function and the loops open
    with IRBuilder() as builder:
        for line in text.splitlines():
            body = line.strip()
            if not body or body.startswith("#") or body == "@T.prim_func":
                continue
            depth = len(line) - len(line.lstrip())
            while frames and frames[-1][0] >= depth:
                frames.pop()[1].__exit__(None, None, None)
            if (match := _DEF.match(body)) is not None:
                frame = T.prim_func()
                frame.__enter__()
                frames.append((depth, frame))
                T.func_name("main")
                for arg in match[1].split(", "):
                    name, kind = arg.split(": ")
                    if kind != "T.handle":
                        raise _Unknown(arg)
                    names[name] = T.arg(name, T.handle())
            elif (match := _FOR.match(body)) is not None:
                frame = eval(match[2])
                loops = frame.__enter__()
                frames.append((depth, frame))
                loops = [loops] if isinstance(loops, tir.Var) else list(loops)
                targets = match[1].split(", ")
                if len(targets) != len(loops):
                    raise _Unknown(body)
                bind(zip(targets, loops))
            elif (match := _STORE.match(body)) is not None:
                buffer = names[match[1]]
                value = eval(match[3])
                if isinstance(value, (int, float)):
                    value = tir.const(value, buffer.dtype)
                T.buffer_store(buffer, value, list(eval(f"({match[2]},)")))
            elif (match := _ASSIGN.match(body)) is not None:
                targets = match[1].split(", ")
                value = eval(match[2])
                bind(zip(targets, value) if len(targets) > 1 or body.split(" = ")[0]
                     .endswith(",") else [(targets[0], value)])
            else:
                eval(body)  # a call: T.func_attr(...)
        while frames:
            frames.pop()[1].__exit__(None, None, None)
    return builder.get()


class Writer:
    """Lines of TVMScript at an indentation, and the values they name.

    Inside a loop over lanes (:func:`lanes`) a named float value is stored in scratch
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

    @contextlib.contextmanager
    def block(self, header: str):
        """``header`` (a loop), the lines written inside indented under it."""
        self(header)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1


_BLOCK_BYTES = 256  # a row's block of accumulators: 4 AVX-512 or 8 AVX2 registers
_ROWS = 4  # rows accumulated together: each weight vector loaded once for all of them


def accumulator_shape(dtype: str) -> tuple[int, int]:
    """The scratch argument ``acc`` that :func:`accumulate` keeps its sums in (noalias:
    LLVM holds it in registers)."""
    return _ROWS, _BLOCK_BYTES // np.dtype(dtype).itemsize


def accumulate(w: Writer, dt: str, rows: list, cols: int, inner: list, out, term,
               init=None) -> None:
    """For every index of the ``rows`` loops ``[(var, extent)]`` and column ``col <
    cols``: ``out(col) = init(col) + sum over the inner loops of term(col)`` (``init``
    None: 0). The accumulators of a block of rows and columns stay in vector registers
    over the whole inner loop, read and written once (an accumulator in memory, read and
    written at every term, ran 2.6x slower: scratch ``acc`` is noalias, LLVM promotes it);
    the rows' block shares each load of the column operand (a matrix reread from L2 for
    every row made a 32 x 64 x 256 product L2-bound). The row variables are bound inside
    the blocks, so ``out``, ``term`` and ``init`` (strings of ``col``) may use them."""
    _, width = accumulator_shape(dt)
    total = math.prod(n for _, n in rows)
    block = min(_ROWS, total)
    row_segments = _segments(total, block, "rb")
    col_segments = _segments(cols, width, "cb")
    for row_base, row_size, row_header in row_segments:
        with w.block(row_header) if row_header else contextlib.nullcontext():
            for base, size, header in col_segments:
                with w.block(header) if header else contextlib.nullcontext():
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


@contextlib.contextmanager
def _rows(w: Writer, rows: list, base: str, size: int):
    """``for ri`` over a block of rows (unrolled), the row variables bound inside."""
    total = math.prod(n for _, n in rows)
    with w.block(f"for ri in T.unroll({size}):"):
        inner = 1
        for var, extent in reversed(rows):
            index = f"({base} + ri)" if inner == 1 else f"({base} + ri) // {inner}"
            w.let(var, f"{index} % {extent}" if inner * extent < total else index)
            inner *= extent
        yield


def _loops(w: Writer, loops: list):
    """Nested loops ``[(var, extent)]`` (none: no loop)."""
    if not loops:
        return contextlib.nullcontext()
    names = ", ".join(v for v, _ in loops)
    extents = ", ".join(str(n) for _, n in loops)
    return w.block(f"for {names} in T.grid({extents}):" if len(loops) > 1
                   else f"for {names} in range({extents}):")


def transpose(w: Writer, dst: str, src: str, rows: int, cols: int) -> None:
    """``dst[a, j] = src[j, a]`` for ``src`` (cols, rows), by blocks of 8 ``a`` (3x faster
    than one ``a`` at a time)."""
    if rows % 8:
        with w.block(f"for a, j in T.grid({rows}, {cols}):"):
            w(f"{at(dst, 'a, j')} = {src}[j, a]")
        return
    with w.block(f"for ao, j, ai in T.grid({rows // 8}, {cols}, 8):"):
        w(f"{at(dst, 'ao * 8 + ai, j')} = {src}[j, ao * 8 + ai]")


def at(buffer: str, index: str) -> str:
    """``buffer[index]``, where ``buffer`` may be ``"seq[l, "`` (a layer of a 4-d one)."""
    return f"{buffer}{index}]" if buffer.endswith(", ") else f"{buffer}[{index}]"


def lanes(w: Writer, n_all: int, h: int, body) -> None:
    """``body()`` for every sample ``n`` and unit ``j < h``; LLVM vectorises the ``j``
    loop (TVM's own vectorisation of it turned the selects of :mod:`.vecmath` into
    per-lane code: 8x slower)."""
    with w.block(f"for n, j in T.grid({n_all}, {h}):"):
        w.lane = "j"
        body()
        w.lane = None
