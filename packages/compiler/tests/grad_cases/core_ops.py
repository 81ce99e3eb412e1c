import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(0)
r = rng.standard_normal

CONST = r((4,))  # an operand nobody differentiates

CASES = {
    "add": [(ops.add, [r((3, 4)), r((4,))]), (ops.add, [r((2, 1, 3)), r((4, 1))]),
            (lambda x: ops.add(ops.add(x, 0.5), CONST), [r((3, 4))])],  # constants: no ct
    "sub": [(ops.sub, [r((3, 4)), r((3, 1))]),
            (lambda x: ops.sub(CONST, ops.sub(x, 1.5)), [r((3, 4))])],
    "mul": [(ops.mul, [r((3, 4)), r((4,))]),
            (lambda x: ops.mul(ops.mul(x, x), ops.mul(CONST, 1.5)), [r((3, 4))])],
    "div": [(ops.div, [r((3, 4)), rng.uniform(0.5, 2.0, (3, 4))]),
            (lambda x: ops.div(ops.div(x, 2.0), ops.add(ops.square(x), 1.0)), [r((3, 4))])],
    "maximum": [(ops.maximum, [r((3, 4)), r((3, 4))])],
    "neg": [(ops.neg, [r((3, 4))])],
    "exp": [(ops.exp, [r((3, 4))])],
    "log": [(ops.log, [rng.uniform(0.5, 2.0, (3, 4))])],
    "relu": [(ops.relu, [r((3, 4))])],
    # through float32: finite differences need a wide step and a loose tolerance
    "cast": [(lambda x: ops.cast(ops.cast(x, "float32"), "float64"), [r((3,))],
              {"eps": 1e-2, "rtol": 1e-3})],
    "sum": [(lambda x: ops.sum(x, axis=1), [r((3, 4))]),
            (lambda x: ops.sum(x, axis=(0, 2), keepdims=True), [r((2, 3, 4))]),
            (ops.sum, [r((3, 4))])],
    "reshape": [(lambda x: ops.reshape(x, (4, -1)), [r((2, 6))])],
    "broadcast_to": [(lambda x: ops.broadcast_to(x, (2, 3, 4)), [r((3, 1))])],
    "transpose": [(lambda x: ops.transpose(x, (2, 0, 1)), [r((2, 3, 4))])],
    "matmul": [(ops.matmul, [r((3, 4)), r((4, 2))]), (ops.matmul, [r((2, 3, 4)), r((4,))]),
               (ops.matmul, [r((4,)), r((5, 4, 2))]), (ops.matmul, [r((4,)), r((4,))]),
               (ops.matmul, [r((2, 1, 3, 4)), r((5, 4, 2))]),
               # Dense's x @ w.T: the transposed view takes the row-major gradient path
               (lambda x, w: ops.matmul(x, ops.swap_last_axes(w)), [r((3, 4)), r((2, 4))])],
}
