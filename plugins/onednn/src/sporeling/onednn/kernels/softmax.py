"""``softmax`` along one axis of any rank: oneDNN's softmax forward, ``dnnl_softmax_accurate``
(shifted by the maximum, as NumPy's). A 0-d or empty input is not served (NumPy's kernel
runs).

``log_softmax`` is not served: oneDNN's ``dnnl_softmax_log`` computes ``x - max - log(sum)``
with a polynomial log, up to ~25 roundings off, and loses the relative precision of the
entries near 0 -- the log-probability of the likeliest class, which a cross-entropy loss
reads (-0.0061732 against -0.0061746, 2e-4 relative). NumPy's kernel keeps it."""
from __future__ import annotations

from .. import constants as C
from ..memory import Desc
from ..plan import PrimitiveDesc, cached_plan
from ._serve import NotServed, contiguous, onednn_kernel, output

_PLAIN = Desc.plain


def _softmax(primitive, alg, backend, x, out, axis):
    if x.ndim == 0 or x.size == 0:
        raise NotServed(primitive, "a 0-d or empty input")
    axis = axis % x.ndim
    x = contiguous(x)
    y = output(backend, out, x.shape, x.dtype)

    def build(b):
        pd = PrimitiveDesc("softmax_forward", C.dnnl_forward_training, alg,
                           _PLAIN(x.shape, x.dtype), _PLAIN(x.shape, x.dtype), axis)
        b.execute(pd, {C.DNNL_ARG_SRC: b.user(_PLAIN(x.shape, x.dtype)),
                       C.DNNL_ARG_DST: b.user(_PLAIN(x.shape, x.dtype))})

    cached_plan((primitive, x.shape, x.dtype, axis), build).run(x, y)
    return y


@onednn_kernel("softmax")
def softmax(backend, x, out=None, *, axis):
    return _softmax("softmax", C.dnnl_softmax_accurate, backend, x, out, axis)
