"""A plugin adding one elementwise primitive, all in this file: the definition with its
traits, its rules, the op function and the plugin hooks -- the kernel is one line.
``test_primitive_record.py`` checks fusion, vmap, grad and sharding pick it up from its
traits alone."""
import numpy as np

from sporeling.compiler import Primitive, bind, def_backward, ops
from sporeling.compiler.ops._util import elementwise_aval, float_operand, promote, unbroadcast
from sporeling.core import impl

NAME = "testplugin_logaddexp"

logaddexp_p = Primitive(NAME, elementwise=True, fusible=True, amp="black")
logaddexp_p.def_abstract_eval(elementwise_aval(NAME))


@def_backward(logaddexp_p, uses=(0, 1, "out"))
def _logaddexp_bwd(ct, x, y, *, out):
    return (unbroadcast(ops.mul(ct, ops.exp(ops.sub(x, out))), x.shape),
            unbroadcast(ops.mul(ct, ops.exp(ops.sub(y, out))), y.shape))


def logaddexp(x, y):
    """``log(exp(x) + exp(y))`` with broadcasting, without overflow."""
    x, y = promote(NAME, x, y)
    return bind(logaddexp_p, float_operand(x), float_operand(y))


@impl
def sporeling_add_primitives(primitives):
    primitives.add_primitive(logaddexp_p)


@impl
def sporeling_add_kernels(kernels):
    kernels.add_kernel("numpy", NAME, lambda b, x, y, out=None: np.logaddexp(x, y, out=out))
