"""Gradient checks of the control-flow primitives (cond, scan, while_loop)."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(7)
r = rng.standard_normal


def _cond(sign):
    def f(x, y):
        pred = ops.greater(ops.add(ops.mul(ops.sum(x), 0.0), sign), 0.0)  # the sign's branch
        return ops.cond(pred, lambda a, b: ops.mul(ops.sin(a), b),
                        lambda a, b: ops.sub(a, ops.exp(b)), x, y)
    return f


def _cond_capture(x, w):
    # w is closed over (an explicit operand of the primitive); the false branch ignores it
    return ops.cond(ops.less(ops.sum(x), 100.0), lambda a: ops.mul(a, ops.tanh(w)),
                    lambda a: ops.neg(a), x)


def _rnn(c, xs, w):
    return ops.scan(lambda h, x: (ops.tanh(ops.add(ops.mul(h, w), x)), ops.mul(h, x)), c, xs)


def _rnn_reverse(c, xs, w):
    return ops.scan(lambda h, x: (ops.sin(ops.add(ops.mul(h, w), x)), ops.exp(h)), c, xs,
                    reverse=True)


def _fori(v, w):
    return ops.fori_loop(0, 3, lambda i, a: ops.sin(ops.add(ops.mul(a, w),
                                                            ops.cast(i, a.dtype))), v)


def _while(v, w):
    # the trip count depends on a counter, the carry on the data
    out = ops.while_loop(lambda c: ops.less(c[0], 3),
                         lambda c: (ops.add(c[0], 1), ops.sin(ops.mul(c[1], w))),
                         (np.int64(0), v))
    return out[1]


def _check(x, w):
    # the run-time check of a `raise` under a tensor condition: an identity when not raised
    from sporeling.compiler.ops._control_check import check
    code = ops.cast(ops.greater(ops.sum(ops.mul(x, 0.0)), 1.0), np.int64)
    y, z = check(code, ((1, ValueError("never"), "case.py:1"),), [ops.mul(x, w), ops.sin(w)])
    return ops.add(ops.tanh(y), z)


CASES = {
    "check": [(_check, [r(3), r(3)])],
    "cond": [(_cond(1.0), [r(3), r(3)]), (_cond(-1.0), [r(3), r(3)]),
             (_cond_capture, [r((2, 3)), r(3)])],
    "scan": [(_rnn, [r(3), r((4, 3)), r(3)]), (_rnn_reverse, [r(2), r((3, 2)), r(2)]),
             (_fori, [r(2), r(2)])],
    "while_loop": [(_while, [r(2), r(2)])],
}
