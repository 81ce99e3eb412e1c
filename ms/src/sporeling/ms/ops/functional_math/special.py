"""Special functions and integer bit operations of ``mindspore.ops`` that have no ``sx``
primitive to be built from: computed on NumPy values (SciPy for the special functions),
PyNative only. Under a Graph-mode trace they raise ``EagerOnlyError``; their results carry no
gradient.
"""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ._util import SporelingError, Tensor, as_numpy

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
           "i0", "polygamma", "igamma", "igammac",
           "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
           "bitwise_right_shift", "invert", "gcd", "lcm", "nextafter"]


def _scipy_special(op: str):
    try:
        from scipy import special
    except ImportError:  # pragma: no cover - scipy is declared; this names a broken install
        raise SporelingError("needs SciPy", op=op, expected="scipy installed",
                             got="ImportError", hint="pip install scipy") from None
    return special


def _float_array(x) -> np.ndarray:
    a = as_numpy(x)
    return a if a.dtype.kind == "f" else a.astype(np.float32)


def _same_float(fn_name: str, doc: str, qualname: str):
    """A unary special function keeping the input's float dtype."""
    @eager_only(qualname)
    def fn(x):
        a = _float_array(x)
        return Tensor(getattr(_scipy_special(qualname), fn_name)(a).astype(a.dtype))
    fn.__name__ = fn.__qualname__ = qualname.split(".")[-1]
    fn.__doc__ = doc + " (PyNative only, no gradient.)"
    return fn


bessel_i0 = _same_float("i0", "Modified Bessel function of the first kind, order 0.", "ops.bessel_i0")
bessel_i0e = _same_float("i0e", "Exponentially scaled ``bessel_i0``: ``exp(-|x|) I0(x)``.",
                         "ops.bessel_i0e")
bessel_i1 = _same_float("i1", "Modified Bessel function of the first kind, order 1.", "ops.bessel_i1")
bessel_i1e = _same_float("i1e", "Exponentially scaled ``bessel_i1``.", "ops.bessel_i1e")
bessel_j0 = _same_float("j0", "Bessel function of the first kind, order 0.", "ops.bessel_j0")
bessel_j1 = _same_float("j1", "Bessel function of the first kind, order 1.", "ops.bessel_j1")
bessel_k0 = _same_float("k0", "Modified Bessel function of the second kind, order 0.", "ops.bessel_k0")
bessel_k0e = _same_float("k0e", "Exponentially scaled ``bessel_k0``: ``exp(x) K0(x)``.",
                         "ops.bessel_k0e")
bessel_k1 = _same_float("k1", "Modified Bessel function of the second kind, order 1.", "ops.bessel_k1")
bessel_k1e = _same_float("k1e", "Exponentially scaled ``bessel_k1``.", "ops.bessel_k1e")
bessel_y0 = _same_float("y0", "Bessel function of the second kind, order 0.", "ops.bessel_y0")
bessel_y1 = _same_float("y1", "Bessel function of the second kind, order 1.", "ops.bessel_y1")
i0 = _same_float("i0", "Same as ``bessel_i0``.", "ops.i0")


@eager_only("ops.polygamma")
def polygamma(n, input):
    """The ``n``-th derivative of the digamma function. (PyNative only, no gradient.)"""
    a = _float_array(input)
    return Tensor(_scipy_special("ops.polygamma").polygamma(int(as_numpy(n)), a).astype(a.dtype))


def _binary_float(fn_name: str, doc: str, qualname: str):
    @eager_only(qualname)
    def fn(input, other):
        a, b = _float_array(input), _float_array(other)
        out = getattr(_scipy_special(qualname), fn_name)(a, b)
        return Tensor(out.astype(np.result_type(a, b)))
    fn.__name__ = fn.__qualname__ = qualname.split(".")[-1]
    fn.__doc__ = doc + " (PyNative only, no gradient.)"
    return fn


igamma = _binary_float("gammainc", "The regularized lower incomplete gamma P(input, other).",
                       "ops.igamma")
igammac = _binary_float("gammaincc", "The regularized upper incomplete gamma Q(input, other).",
                        "ops.igammac")


def _integer_pair(op: str, input, other):
    a, b = as_numpy(input), as_numpy(other)
    for v in (a, b):
        if v.dtype.kind not in "iub":
            raise SporelingError("needs integer or bool tensors", op=op,
                                 expected="int8/16/32/64, uint8 or bool", got=str(v.dtype))
    return a, b


def _bitwise(ufunc, qualname: str, doc: str):
    @eager_only(qualname)
    def fn(input, other):
        a, b = _integer_pair(qualname, input, other)
        return Tensor(ufunc(a, b))
    fn.__name__ = fn.__qualname__ = qualname.split(".")[-1]
    fn.__doc__ = doc + " Integer/bool tensors. (PyNative only.)"
    return fn


bitwise_and = _bitwise(np.bitwise_and, "ops.bitwise_and", "Bitwise AND.")
bitwise_or = _bitwise(np.bitwise_or, "ops.bitwise_or", "Bitwise OR.")
bitwise_xor = _bitwise(np.bitwise_xor, "ops.bitwise_xor", "Bitwise XOR.")
bitwise_left_shift = _bitwise(np.left_shift, "ops.bitwise_left_shift",
                              "``input << other`` bit by bit.")
bitwise_right_shift = _bitwise(np.right_shift, "ops.bitwise_right_shift",
                               "``input >> other`` (arithmetic for signed integers).")
gcd = _bitwise(np.gcd, "ops.gcd", "Greatest common divisor, element-wise.")
lcm = _bitwise(np.lcm, "ops.lcm", "Least common multiple, element-wise.")


@eager_only("ops.invert")
def invert(x):
    """Bitwise NOT (``~x``) of an integer or bool tensor. (PyNative only.)"""
    a, _ = _integer_pair("ops.invert", x, 0)
    return Tensor(np.invert(a))


@eager_only("ops.nextafter")
def nextafter(input, other):
    """The next representable float after ``input`` toward ``other``. (PyNative only.)"""
    a, b = _float_array(input), _float_array(other)
    return Tensor(np.nextafter(a, b.astype(a.dtype)))
