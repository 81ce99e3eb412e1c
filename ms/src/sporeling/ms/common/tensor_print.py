"""How MindSpore 2.10 prints a Tensor, byte for byte (``ms/tests/data/tensor_print_2_10.json``
holds its outputs, recorded by ``record_tensor_print.py``).

* ``str(t)`` (what ``print`` shows) is NumPy's ``str`` of the values: ``[[1.5 2. ]]`` (a 0-d
  float as NumPy 1.26, 2.10's NumPy, writes it: ``100000000.0``, not NumPy 2's ``1e+08``).
* ``repr(t)`` is MindSpore's C++ ``Tensor::ToStringRepr``:
  ``Tensor(shape=[1, 2], dtype=Float32, value=\\n[[ 1.50000000e+00,  2.00000000e+00]])``.
  Floats in C++ ``scientific`` notation, 8 digits (float16 and bfloat16: 4), each 15 (11)
  wide; integers right-aligned to the widest; booleans ``True``/``False`` 5 wide; a 0-d
  tensor's value in C++'s default ``<<`` format (``3.5``, ``1e+08``, ``True``); an empty
  tensor's as nothing. In a 2-d or higher tensor, an axis of more than 6 entries shows the
  first 3, ``...`` and the last 3. A 1-d tensor shows every element, with a line break after
  every 12 floats or booleans (24 integers), up to 1000 elements; a longer one is elided so.

``ms.Tensor`` *is* ``sporeling.expression.Tensor`` (every op returns that class), so a
tensor cannot tell whether it came from the facade: :func:`install` gives the class these
two methods when ``sporeling.ms`` is imported, as it gives it MindSpore's other methods.
Without the facade, Sporeling prints as before (NumPy's number format).

* ``print(x)`` of a traced tensor inside ``ms.jit`` / Graph mode prints when the compiled
  function runs, as 2.10's Graph-mode print does: the C++ ``Tensor::ToString`` without
  commas (``use_comma`` false), ``Tensor(shape=[3], dtype=Int32, value=[1 2 3])``
  (:func:`graph_print_text`, registered with the compiler's ``print`` equation).
"""
from __future__ import annotations

import math
import re

import numpy as np

from sporeling.core import dtypes

__all__ = ["tensor_str", "tensor_repr", "graph_print_text", "install"]

_THRESHOLD = 6              # entries along an axis before the middle is left out
_HALF = _THRESHOLD >> 1
_LINE_FLOAT = _THRESHOLD * 2
_LINE_INT = _THRESHOLD * 4
_LINE_BOOL = _THRESHOLD * 2
_SUMMARY_1D = 1000          # a 1-d tensor is elided only above this many elements


def _cpp_general(value: float, precision: int = 6) -> str:
    """C++ ``ostream << double`` (``%g`` with 6 significant digits; ``inf``, ``nan``)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{precision}g}"


def _cpp_scientific(value: float, digits: int, width: int) -> str:
    """C++ ``std::scientific`` with ``setprecision(digits)``, right-aligned to ``width``."""
    if math.isnan(value) or math.isinf(value):
        text = _cpp_general(value)
    else:
        text = f"{value:.{digits}e}"
    return text.rjust(width)


class _Printer:
    """One tensor's C++ ``TensorDataImpl::ToString`` (``use_comma`` as ``repr`` has it;
    False: as the Graph-mode print has it)."""

    def __init__(self, data: np.ndarray, low_precision: bool, use_comma: bool = True):
        self.comma = "," if use_comma else ""
        self.flat = data.reshape(-1)
        self.shape = data.shape
        self.ndim = data.ndim
        kind = data.dtype.kind
        self.kind = "b" if kind == "b" else ("f" if kind == "f" else "i")
        self.digits, self.width = (4, 11) if low_precision else (8, 15)
        self.cursor = 0
        self.int_width = 0

    def element(self, value) -> str:
        if self.kind == "f":
            return _cpp_scientific(float(value), self.digits, self.width)
        if self.kind == "b":
            return ("True" if value else "False").rjust(5)
        text = str(int(value))
        self.int_width = max(self.int_width, len(text))
        return f"\0{text}\1"  # padded to the widest integer once all are known

    def run(self, out: list, start: int, end: int, breaks: bool = False) -> None:
        """Elements ``start:end`` of the row at the cursor (``breaks``: a line break after
        every 12 floats or booleans, 24 integers)."""
        line = {"f": _LINE_FLOAT, "b": _LINE_BOOL, "i": _LINE_INT}[self.kind]
        for i in range(start, end):
            out.append(self.element(self.flat[self.cursor + i]))
            if i != end - 1:
                out.append(self.comma + " ")
            if breaks and (i + 1) % line == 0:
                out.append("\n ")

    def recurse(self, out: list, depth: int) -> None:
        out.append("[")
        num = self.shape[depth]
        if depth == self.ndim - 1:
            if num > _THRESHOLD and (self.ndim > 1 or num > _SUMMARY_1D):
                self.run(out, 0, _HALF)
                out.append(" ... ")
                self.run(out, num - _HALF, num)
            else:
                self.run(out, 0, num, breaks=self.ndim == 1)
            self.cursor += num
        else:
            indent = "\n" + " " * (depth + 1)
            for i in range(min(_HALF, num)):
                if i > 0:
                    out.append(self.comma + indent)
                self.recurse(out, depth + 1)
            if num > _THRESHOLD:
                out.append(self.comma + indent + "...")
                self.cursor += int(np.prod(self.shape[depth + 1:])) * (num - _THRESHOLD)
            if num > _HALF:
                for i in range(min(num - _HALF, _HALF)):
                    out.append((self.comma if (i != 0 or num <= _THRESHOLD) else "") + indent)
                    self.recurse(out, depth + 1)
        out.append("]")

    def text(self) -> str:
        if self.ndim == 0:
            value = self.flat[0]
            if self.kind == "f":
                return _cpp_general(float(value))
            if self.kind == "b":
                return "True" if value else "False"
            return str(int(value))
        out: list = []
        self.recurse(out, 0)
        text = "".join(out)
        if self.kind == "i":  # the placeholders: right-align every integer to the widest
            text = _PLACEHOLDER.sub(lambda m: m.group(1).rjust(self.int_width), text)
        return text


_PLACEHOLDER = re.compile("\0([^\1]*)\1")


def _values(t) -> np.ndarray:
    data = t.asnumpy()
    return data.astype(np.float32) if data.dtype == dtypes.bfloat16 else data


def tensor_repr(t) -> str:
    """MindSpore 2.10's ``repr`` of a Tensor."""
    from sporeling.expression.tensor.tensor import dtype_name
    data = _values(t)
    low = t.dtype in (np.float16, dtypes.bfloat16)
    body = "" if data.size == 0 else _Printer(data, low).text()
    head = f"Tensor(shape={list(t.shape)}, dtype={dtype_name(t.dtype)}, value="
    return f"{head}\n{body})" if data.ndim > 1 else f"{head} {body})"


def graph_print_text(data: np.ndarray) -> str:
    """What 2.10's Graph-mode ``print`` shows for a tensor holding ``data``:
    ``Tensor(shape=[3], dtype=Int32, value=[1 2 3])`` (a line break after ``value=`` from 2
    dimensions on)."""
    from sporeling.expression.tensor.tensor import dtype_name
    dtype = data.dtype
    low = dtype in (np.float16, dtypes.bfloat16)
    values = data.astype(np.float32) if dtype == dtypes.bfloat16 else data
    body = "" if values.size == 0 else _Printer(values, low, use_comma=False).text()
    head = f"Tensor(shape={list(data.shape)}, dtype={dtype_name(dtype)}, value="
    return f"{head}\n{body})" if data.ndim > 1 else f"{head}{body})"


def _numpy1_float_str(value) -> str:
    """NumPy 1.x's ``str`` of a float scalar (2.10 runs on NumPy 1.26; NumPy 2 writes float32
    from 1e8 on in scientific notation): positional from 1e-4 to 1e16, else scientific."""
    magnitude = abs(float(value))
    if not math.isfinite(magnitude) or magnitude == 0 or 1e-4 <= magnitude < 1e16:
        return np.format_float_positional(value, trim="0")
    return np.format_float_scientific(value, trim="-")


def tensor_str(t) -> str:
    """MindSpore 2.10's ``str`` of a Tensor: NumPy's ``str`` of its values (a 0-d float's
    as NumPy 1.x writes it)."""
    data = _values(t)
    if data.ndim == 0 and data.dtype.kind == "f":
        return _numpy1_float_str(data[()])
    return str(data)


def install(cls) -> None:
    """Print ``cls``'s instances (Sporeling's Tensor) as MindSpore 2.10 does."""
    cls.__repr__ = tensor_repr
    cls.__str__ = tensor_str
    from sporeling.compiler.ops.debug import register_print_format
    register_print_format(cls, graph_print_text)
