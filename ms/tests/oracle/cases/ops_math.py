"""``ms.ops`` math: element-wise (unary, binary), reductions, cumulative, linear algebra --
each op in float32/float16/float64 on two shapes (and its argument variants), forward and
gradient."""
from ..case import Case
from ..inputs import Input
from ._grid import FLOATS, binary, unary, variants

# op -> input domain
UNARY = {
    "abs": "distinct", "acos": "unit", "acosh": "gt1", "asin": "unit", "asinh": "normal",
    "atan": "normal", "atanh": "unit", "ceil": "normal", "cos": "normal", "cosh": "normal",
    "erf": "normal", "erfc": "normal", "erfinv": "unit", "exp": "normal", "exp2": "normal",
    "expm1": "normal", "floor": "normal", "log": "pos", "log10": "pos", "log1p": "pos",
    "log2": "pos", "neg": "normal", "reciprocal": "pos", "round": "normal", "rsqrt": "pos",
    "sigmoid": "normal", "sign": "distinct", "sin": "normal", "sinc": "normal",
    "sinh": "normal", "sqrt": "pos", "square": "normal", "tan": "unit", "tanh": "normal",
    "trunc": "normal", "lgamma": "pos", "digamma": "pos", "logit": "prob", "deg2rad": "normal",
    "rad2deg": "normal", "frac": "normal", "i0": "normal", "arccos": "unit", "arcsin": "unit",
    "arctan": "normal", "arcsinh": "normal", "negative": "normal",
    "softsign": "normal", "relu": "distinct", "relu6": "normal", "logsigmoid": "normal",
    "tanhshrink": "normal", "mish": "normal", "silu": "normal", "selu": "distinct",
    "hardswish": "distinct", "hardsigmoid": "distinct", "bessel_i0": "normal",
    "bessel_j0": "pos", "bessel_i1": "normal", "bessel_j1": "pos", "isfinite": "normal",
    "logical_not": "normal", "ones_like": "normal", "zeros_like": "normal", "t": "normal",
}
BINARY = {
    "add": ("normal", "normal"), "sub": ("normal", "normal"), "mul": ("normal", "normal"),
    "div": ("normal", "pos"), "pow": ("pos", "normal"), "maximum": ("distinct", "normal"),
    "minimum": ("distinct", "normal"), "atan2": ("normal", "pos"), "hypot": ("normal", "pos"),
    "fmod": ("normal", "pos"), "remainder": ("normal", "pos"), "floor_div": ("normal", "pos"),
    "xlogy": ("normal", "pos"), "logaddexp": ("normal", "normal"),
    "logaddexp2": ("normal", "normal"), "true_divide": ("normal", "pos"),
    "copysign": ("normal", "normal"),
    "equal": ("normal", "normal"), "ne": ("normal", "normal"), "gt": ("normal", "normal"),
    "ge": ("normal", "normal"), "lt": ("normal", "normal"), "le": ("normal", "normal"),
    "isclose": ("normal", "normal"), "subtract": ("normal", "normal"),
    "multiply": ("normal", "normal"), "divide": ("normal", "pos"),
}
INT_BINARY = ("add", "sub", "mul", "maximum", "minimum", "floor_div", "equal", "gt",
              "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm")
# op -> (argument variants): reductions over a (3, 4) / (2, 3, 4) float input
REDUCE = {
    "sum": ({}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0, 1)}),
    "mean": ({}, {"axis": 0}, {"axis": -1, "keep_dims": True}, {"axis": (0, 1)}),
    "prod": ({}, {"axis": 1}, {"axis": -1, "keep_dims": True}),
    "amax": ({}, {"axis": 1}, {"axis": -1, "keepdims": True}),
    "amin": ({}, {"axis": 0}, {"axis": (0, 1)}),
    "std": ({}, {"axis": 1}, {"axis": -1, "ddof": 0, "keepdims": True}),
    "var": ({}, {"axis": 1}, {"axis": -1, "ddof": 0, "keepdims": True}),
    "logsumexp": ({"dim": 0}, {"dim": -1, "keepdim": True}),
    "norm": ({}, {"dim": -1}, {"ord": 1, "dim": 0}, {"dim": -1, "keepdim": True}),
    "max": ({}, {"axis": 1}, {"axis": -1, "keepdims": True}),
    "min": ({}, {"axis": 0}),
    "argmax": ({}, {"dim": 1}, {"dim": -1, "keepdim": True}),
    "argmin": ({}, {"axis": 0}, {"axis": -1, "keepdims": True}),
    "cumsum": ({"axis": 0}, {"axis": -1}),
    "cumprod": ({"dim": 0}, {"dim": -1}),
    "cummax": ({"axis": 0}, {"axis": -1}),
    "cummin": ({"axis": 0}, {"axis": -1}),
    "logcumsumexp": ({"axis": 0}, {"axis": -1}),
    "median": ({}, {"axis": 0}, {"axis": -1, "keepdims": True}),
    "std_mean": ({}, {"axis": 1}),
    "var_mean": ({}, {"axis": 1}),
    "nansum": ({}, {"axis": 1}),
    "count_nonzero": ({}, {"axis": 1}),
    "all": ({}, {"axis": 1}),
    "any": ({}, {"axis": 0, "keep_dims": True}),
    "aminmax": ({}, {"axis": 1}),
}
# op -> list of input shape tuples (float, normal)
LINALG = {
    "matmul": [((3, 4), (4, 5)), ((2, 3, 4), (4, 2)), ((4,), (4, 3)), ((2, 3, 4), (2, 4, 5))],
    "bmm": [((2, 3, 4), (2, 4, 5))],
    "mm": [((3, 4), (4, 2))],
    "outer": [((3,), (4,))],
    "inner": [((3, 4), (2, 4))],
    "dot": [((3, 4), (4, 2))],
    "kron": [((2, 2), (2, 3))],
    "cross": [((2, 3), (2, 3))],
    "trace": [((3, 3),)],
    "addmm": [((3, 2), (3, 4), (4, 2))],
    "addmv": [((3,), (3, 4), (4,))],
    "addr": [((3, 4), (3,), (4,))],
    "baddbmm": [((2, 3, 2), (2, 3, 4), (2, 4, 2))],
    "addbmm": [((3, 2), (2, 3, 4), (2, 4, 2))],
    "vecdot": [((3, 4), (3, 4))],
}
SQUARE = ("det", "inverse", "slogdet", "matrix_exp", "logdet")


def _cases():
    cases = []
    for op, kind in UNARY.items():
        cases += variants(f"ops.{op}", f"ops.{op}", unary(kind))
    for op, (ka, kb) in BINARY.items():
        cases += variants(f"ops.{op}", f"ops.{op}", binary(ka, kb), dtypes=("float32",
                                                                           "float16"))
        cases += variants(f"ops.{op}[bcast]", f"ops.{op}", binary(ka, kb, broadcast=True),
                          dtypes=("float32", "float64"), shapes=((2, 3, 4),))
    for op in INT_BINARY:
        cases += variants(f"ops.{op}", f"ops.{op}",
                          lambda d, s: [Input(s, d, "int:1:9"), Input(s, d, "int:1:9")],
                          dtypes=("int32", "int64"), shapes=((3, 4),))
    for op, kwargs_list in REDUCE.items():
        cases += variants(f"ops.{op}", f"ops.{op}", unary("distinct"),
                          dtypes=("float32", "float64"), kwargs_list=kwargs_list)
    cases += variants("ops.sum", "ops.sum", unary("int:0:9"), dtypes=("int32",),
                      kwargs_list=({}, {"dim": 1}))
    cases += variants("ops.clamp", "ops.clamp", unary("distinct"),
                      kwargs_list=({"min": -0.5, "max": 0.5}, {"min": 0.0}))
    cases += variants("ops.lerp", "ops.lerp",
                      lambda d, s: [Input(s, d), Input(s, d), 0.3], dtypes=("float32",))
    cases += variants("ops.addcmul", "ops.addcmul",
                      lambda d, s: [Input(s, d), Input(s, d), Input(s, d), Input((1,), d)],
                      dtypes=("float32",))
    cases += variants("ops.addcdiv", "ops.addcdiv",
                      lambda d, s: [Input(s, d), Input(s, d), Input(s, d, "pos"),
                                    Input((1,), d)], dtypes=("float32",))
    for op, shape_sets in LINALG.items():
        for shapes in shape_sets:
            label = ";".join("x".join(map(str, s)) for s in shapes)
            for dtype in ("float32", "float64"):
                cases.append(Case(f"ops.{op}/{dtype}/{label}", f"ops.{op}",
                                  tuple(Input(s, dtype) for s in shapes)))
    for dtype in ("float32", "float64"):
        cases.append(Case(f"ops.tensor_dot/{dtype}/2x3x4;4x3x2", "ops.tensor_dot",
                          (Input((2, 3, 4), dtype), Input((4, 3, 2), dtype)),
                          {"axes": ((1, 2), (1, 0))}))
    for op in SQUARE:
        for dtype in ("float32", "float64"):
            cases.append(Case(f"ops.{op}/{dtype}/3x3", f"ops.{op}",
                              (Input((3, 3), dtype, "wellcond"),)))
    return cases


CASES = _cases()
