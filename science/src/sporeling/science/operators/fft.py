"""Fourier transforms as compiler primitives, along the last axis.

Sporeling's dtypes have no complex type (``sporeling.core.dtypes``: bool, ints, floats), so a
complex array travels as **two real arrays, its real and imaginary parts**, of one float
dtype. Every op below takes and returns such pairs:

=================================  =========================================================
function                           NumPy equivalent
=================================  =========================================================
``re, im = rfft(x)``               ``np.fft.rfft(x)``: ``(..., n)`` -> ``(..., n//2 + 1)``
``y = irfft(re, im, n)``           ``np.fft.irfft(re + 1j*im, n)``; ``re``, ``im`` may hold
                                   fewer than ``n//2 + 1`` modes (the rest are zeros)
``re, im = fft(re, im)``           ``np.fft.fft(re + 1j*im)``
``re, im = ifft(re, im)``          ``np.fft.ifft(re + 1j*im)``
=================================  =========================================================

Backward rules (``g``: the output's cotangent, a pair where the output is one; with the real
inner product of pairs, the adjoint of ``fft`` is ``n * ifft``):

* ``fft``: ``n * ifft(g)``; ``ifft``: ``fft(g) / n``;
* ``rfft``: ``irfft(g * w, n) * n``, ``w`` = 1 at the zero (and Nyquist) mode, 1/2 elsewhere
  (irfft counts each inner mode twice, once for its conjugate);
* ``irfft``: ``rfft(g)[:m] * w' / n``, ``w'`` = 1 at zero/Nyquist, 2 elsewhere; zero for the
  imaginary parts irfft ignores (zero and Nyquist modes).

    >>> import numpy as np
    >>> re, im = rfft(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> re, im
    (array([10., -2., -2.]), array([0., 2., 0.]))
    >>> irfft(re, im, 4)
    array([1., 2., 3., 4.])

Each rule is written with these primitives, so gradients of gradients work. Batching rules
move the batch axis first (the transform runs on the last axis). Kernels: :mod:`.fft_kernels`.
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import Primitive, bind, def_backward
from sporeling.compiler.core import Aval
from sporeling.compiler.core.batching import def_batching
from sporeling.compiler.core.location import locate
from sporeling.compiler.ops import broadcast_to, getitem, mul, transpose
from sporeling.compiler.ops._util import as_operand, float_operand, promote
from sporeling.core import dtypes
from sporeling.core.errors import DTypeError, ShapeError, SporelingError

__all__ = ["rfft", "irfft", "fft", "ifft", "FFT_PRIMITIVES"]

rfft_p = Primitive("science_rfft", multiple_results=True, amp="black",
                   doc="real FFT of the last axis -> (real part, imaginary part)")
irfft_p = Primitive("science_irfft", amp="black",
                    doc="inverse real FFT of a (real, imaginary) pair")
fft_p = Primitive("science_fft", multiple_results=True, amp="black",
                  doc="complex FFT of a (re, im) pair")
ifft_p = Primitive("science_ifft", multiple_results=True, amp="black",
                   doc="inverse FFT of a (re, im) pair")
FFT_PRIMITIVES = (rfft_p, irfft_p, fft_p, ifft_p)
# amp="black": mixed precision keeps them in float32 (a transform sums over the whole axis,
# float16 would lose the small modes; NumPy has no float16 FFT anyway)


# ---- abstract evaluation ---------------------------------------------------------------------

def _float_dtype(op, *xs):
    dt = np.dtype(xs[0].dtype)
    if not dtypes.is_floating(dt) or any(np.dtype(x.dtype) != dt for x in xs):
        raise DTypeError("operands must share one float dtype", op=op,
                         expected="float16/32/64 (a complex array is its real and imaginary "
                                  "parts)", got=", ".join(str(np.dtype(x.dtype)) for x in xs))
    return dt


def _last_axis(op, x):
    shape = tuple(x.shape)
    if not shape or shape[-1] < 1:
        raise ShapeError("the transform runs along the last axis", op=op,
                         expected="an array of at least 1 dimension, last axis >= 1",
                         got=f"shape {shape}")
    return shape


def _pair(op, re, im):
    dt = _float_dtype(op, re, im)
    if tuple(re.shape) != tuple(im.shape):
        raise ShapeError("real and imaginary parts differ in shape", op=op,
                         expected="two arrays of one shape",
                         got=f"{tuple(re.shape)} and {tuple(im.shape)}")
    return _last_axis(op, re), dt


@rfft_p.def_abstract_eval
def _rfft_aval(x):
    dt = _float_dtype("rfft", x)
    shape = _last_axis("rfft", x)
    spec = Aval(shape[:-1] + (shape[-1] // 2 + 1,), dt)
    return spec, spec


@irfft_p.def_abstract_eval
def _irfft_aval(re, im, *, n):
    shape, dt = _pair("irfft", re, im)
    if not 1 <= shape[-1] <= n // 2 + 1:
        raise ShapeError("too many modes for the output length", op="irfft",
                         expected=f"at most n//2 + 1 = {n // 2 + 1} modes on the last axis "
                                  f"(n = {n})", got=f"shape {shape}")
    return Aval(shape[:-1] + (n,), dt)


def _same_pair(re, im):
    shape, dt = _pair("fft", re, im)
    return Aval(shape, dt), Aval(shape, dt)


fft_p.def_abstract_eval(_same_pair)
ifft_p.def_abstract_eval(_same_pair)


# ---- backward rules --------------------------------------------------------------------------

def _mode_weights(n: int, m: int, inner: float, dtype, edges: float = 1.0) -> np.ndarray:
    """Per-mode weights for ``m`` modes of a length-``n`` real signal: ``edges`` at the zero
    mode and the Nyquist mode (n even), ``inner`` elsewhere."""
    w = np.full(m, inner, dtype)
    w[0] = edges
    if n % 2 == 0 and n // 2 < m:
        w[n // 2] = edges
    return w


def _zero_if_none(ct, like):
    return np.zeros(like.shape, like.dtype) if ct is None else ct


@def_backward(rfft_p, uses=())
def _rfft_bwd(ct, x, *, out):
    n = x.shape[-1]
    gr, gi = (_zero_if_none(c, o) for c, o in zip(ct, out))
    w = _mode_weights(n, n // 2 + 1, 0.5 * n, np.dtype(x.dtype), edges=float(n))
    return (irfft(mul(gr, w), mul(gi, w), n),)


@def_backward(irfft_p, uses=())
def _irfft_bwd(ct, re, im, *, out, n):
    m = re.shape[-1]
    spec_re, spec_im = rfft(ct)
    if m < n // 2 + 1:
        spec_re, spec_im = (getitem(s, (Ellipsis, slice(0, m))) for s in (spec_re, spec_im))
    dt = np.dtype(re.dtype)
    w_re = _mode_weights(n, m, 2.0 / n, dt, edges=1.0 / n)
    w_im = _mode_weights(n, m, 2.0 / n, dt, edges=0.0)  # irfft drops these imaginary parts
    return mul(spec_re, w_re), mul(spec_im, w_im)


@def_backward(fft_p, uses=())
def _fft_bwd(ct, re, im, *, out):
    n = re.shape[-1]
    gr, gi = (_zero_if_none(c, o) for c, o in zip(ct, out))
    br, bi = ifft(gr, gi)
    return mul(br, np.asarray(n, re.dtype)), mul(bi, np.asarray(n, re.dtype))


@def_backward(ifft_p, uses=())
def _ifft_bwd(ct, re, im, *, out):
    n = re.shape[-1]
    gr, gi = (_zero_if_none(c, o) for c, o in zip(ct, out))
    br, bi = fft(gr, gi)
    return mul(br, np.asarray(1.0 / n, re.dtype)), mul(bi, np.asarray(1.0 / n, re.dtype))


# ---- batching rules: the batch axis goes first, the transform stays on the last axis -------

def _front(x, d, size):
    """``x`` with its batch axis first; an unbatched ``x`` (``d`` None) broadcast to the
    batch."""
    if d is None:
        return broadcast_to(x, (size,) + tuple(x.shape))
    if d == 0:
        return x
    order = [d] + [i for i in range(len(x.shape)) if i != d]
    return transpose(x, tuple(order))


@def_batching(rfft_p)
def _rfft_batch(args, dims):
    (x,), (d,) = args, dims
    return bind(rfft_p, _front(x, d, x.shape[d])), (0, 0)


def _pair_front(args, dims):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    return [_front(a, d, size) for a, d in zip(args, dims)]


@def_batching(irfft_p)
def _irfft_batch(args, dims, *, n):
    return bind(irfft_p, *_pair_front(args, dims), n=n), 0


@def_batching(fft_p)
def _fft_batch(args, dims):
    return bind(fft_p, *_pair_front(args, dims)), (0, 0)


@def_batching(ifft_p)
def _ifft_batch(args, dims):
    return bind(ifft_p, *_pair_front(args, dims)), (0, 0)


# ---- the functions ---------------------------------------------------------------------------

def _checked(prim, *args, **params):
    """``prim``'s abstract rule run up front (NumPy would truncate extra modes or broadcast
    parts of different shapes silently); its error names the user's line."""
    try:
        prim.abstract(*args, **params)
    except SporelingError as exc:
        raise locate(exc) from None

def _parts(re, im):
    re, im = promote("fft", float_operand(re), float_operand(im))
    return re, im


def rfft(x):
    """``(re, im)`` of ``np.fft.rfft(x)`` along the last axis: ``(..., n)`` gives two
    ``(..., n//2 + 1)`` arrays of ``x``'s float dtype (ints become float32)."""
    return bind(rfft_p, float_operand(as_operand(x)))


def irfft(re, im, n: int | None = None):
    """``np.fft.irfft(re + 1j*im, n)`` along the last axis: a real ``(..., n)`` array.

    ``n`` defaults to ``2 * (m - 1)`` for ``m`` modes; fewer than ``n//2 + 1`` modes are
    padded with zeros (a truncated spectrum, as a Fourier layer keeps). The imaginary parts
    of the zero and Nyquist modes are ignored, as NumPy ignores them."""
    re, im = _parts(re, im)
    m = re.shape[-1] if re.shape else 0
    n = 2 * (m - 1) if n is None else int(n)
    if n < 1:
        raise locate(ShapeError("irfft needs a positive output length", op="irfft",
                                expected="n >= 1 (or at least 2 modes when n is not given)",
                                got=f"n = {n} for {m} modes"))
    _checked(irfft_p, re, im, n=n)
    return bind(irfft_p, re, im, n=n)


def fft(re, im):
    """``(re, im)`` of ``np.fft.fft(re + 1j*im)`` along the last axis."""
    re, im = _parts(re, im)
    _checked(fft_p, re, im)
    return bind(fft_p, re, im)


def ifft(re, im):
    """``(re, im)`` of ``np.fft.ifft(re + 1j*im)`` along the last axis."""
    re, im = _parts(re, im)
    _checked(ifft_p, re, im)
    return bind(ifft_p, re, im)
