import numpy as np

from sporeling.compiler.passes import fused_call

rng = np.random.default_rng(0)
F64 = np.dtype("float64")

# tanh(x * y + 0.5) * x - broadcast y: a node read twice, a broadcast, a scalar constant
EXPR = (("mul", (("in", 0), ("in", 1)), (), (3, 4), F64),
        ("add", (("node", 0), ("const", 0.5, F64)), (), (3, 4), F64),
        ("tanh", (("node", 1),), (), (3, 4), F64),
        ("mul", (("node", 2), ("in", 0)), (), (3, 4), F64),
        ("broadcast_to", (("in", 1),), (("shape", (3, 4)),), (3, 4), F64),
        ("sub", (("node", 3), ("node", 4)), (), (3, 4), F64))

CASES = {
    "fused_elementwise": [(lambda x, y: fused_call(EXPR, x, y),
                           [rng.standard_normal((3, 4)), rng.standard_normal((4,))])],
}
