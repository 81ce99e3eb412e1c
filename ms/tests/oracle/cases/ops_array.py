"""``ms.ops`` array manipulation: shapes, joins and splits, indexing, sorting, masks --
float32/float16 (some int32 too), forward and gradient."""
from ..case import Attr, Case
from ..inputs import Input
from ._grid import variants

S = (2, 3, 4)
DT = ("float32", "float16")


def x(kind="normal", shape=S):
    return lambda d, s: [Input(shape, d, kind)]


def with_extra(*extra, shape=S, kind="normal"):
    """The float input followed by plain or ``Input`` arguments (``Input`` dtypes given)."""
    return lambda d, s: [Input(shape, d, kind), *extra]


def pair(shape_b=S):
    return lambda d, s: [[Input(S, d), Input(shape_b, d)]]


# (op, make_inputs, kwargs variants, dtypes)
ROWS = [
    ("reshape", with_extra((4, 6)), ({},), DT + ("int32",)),
    ("reshape", with_extra((-1, 2)), ({},), DT),
    ("transpose", with_extra((2, 0, 1)), ({},), DT + ("int32",)),
    ("permute", with_extra((1, 2, 0)), ({},), DT),
    ("swapaxes", x(), ({"axis0": 0, "axis1": 2},), DT),
    ("movedim", x(), ({"source": 0, "destination": -1},), DT),
    ("flatten", x(), ({}, {"start_dim": 1}, {"start_dim": 0, "end_dim": 1}), DT),
    ("squeeze", x(shape=(2, 1, 4)), ({}, {"axis": 1}), DT),
    ("expand_dims", x(), ({"axis": 0}, {"axis": -1}), DT),
    ("unsqueeze", x(), ({"dim": 1},), DT),
    ("broadcast_to", with_extra((3, 2, 3, 4)), ({},), DT),
    ("tile", with_extra((2, 1, 2)), ({},), DT + ("int32",)),
    ("flip", x(), ({"dims": (0,)}, {"dims": (1, 2)}), DT),
    ("fliplr", x(), ({},), DT),
    ("flipud", x(), ({},), DT),
    ("roll", x(), ({"shifts": 1, "dims": 0}, {"shifts": (2, -1), "dims": (1, 2)}), DT),
    ("rot90", x(), ({"k": 1, "dims": (1, 2)}, {"k": 2, "dims": (0, 2)}), DT),
    ("concat", pair(), ({"axis": 0}, {"axis": -1}), DT + ("int32",)),
    ("cat", pair(), ({"axis": 1},), DT),
    ("stack", pair(), ({"axis": 0}, {"axis": 2}), DT),
    ("hstack", pair(), ({},), DT),
    ("vstack", pair(), ({},), DT),
    ("split", x(), ({"split_size_or_sections": 2, "axis": 2},
                    {"split_size_or_sections": (1, 2), "axis": 1}), DT),
    ("chunk", x(), ({"chunks": 2, "axis": -1},), DT),
    ("unbind", x(), ({"dim": 1},), DT),
    ("tensor_split", x(), ({"indices_or_sections": 2, "axis": 2},), DT),
    ("narrow", x(), ({"axis": 2, "start": 1, "length": 2},), DT),
    ("select", lambda d, s: [Input((3, 4), "bool", "bool"), Input((3, 4), d),
                             Input((3, 4), d)], ({},), DT),
    ("where", lambda d, s: [Input((3, 4), "bool", "bool"), Input((3, 4), d),
                            Input((4,), d)], ({},), DT),
    ("masked_fill", lambda d, s: [Input(S, d), Input(S, "bool", "bool"), 0.5], ({},), DT),
    ("gather", with_extra(Input((2, 3), "int32", "int:0:3")), ({"axis": 1},), DT),
    ("gather", with_extra(Input((5,), "int64", "int:0:4")), ({"axis": 2},), DT),
    ("gather_elements", with_extra(1, Input((2, 2, 4), "int64", "int:0:3")), ({},), DT),
    ("gather_d", with_extra(2, Input((2, 3, 2), "int64", "int:0:4")), ({},), DT),
    ("index_select", with_extra(1, Input((4,), "int32", "int:0:3")), ({},), DT),
    ("gather_nd", with_extra(Input((3, 2), "int32", "int:0:2")), ({},), DT),
    ("masked_select", lambda d, s: [Input(S, d), Input(S, "bool", "bool")], ({},), DT),
    ("tril", x(shape=(4, 4)), ({}, {"diagonal": 1}), DT),
    ("triu", x(shape=(4, 4)), ({}, {"diagonal": -1}), DT),
    ("diag", x(shape=(4,)), ({},), DT),
    ("diagonal", x(), ({}, {"offset": 1, "dim1": 1, "dim2": 2}), DT),
    ("diag_embed", x(shape=(2, 3)), ({},), DT),
    ("repeat_interleave", x(), ({"repeats": 2, "axis": 1},), DT),
    ("repeat_elements", x(), ({"rep": 2, "axis": 0},), DT),
    ("sort", x("distinct"), ({}, {"axis": 0, "descending": True}), DT),
    ("argsort", x("distinct"), ({}, {"axis": 1, "descending": True}), DT),
    ("topk", with_extra(2, kind="distinct"), ({}, {"dim": 1, "largest": False}), DT),
    ("msort", x("distinct"), ({},), DT),
    ("one_hot", lambda d, s: [Input((2, 3), "int64", "int:0:4"), 4,
                              Input((), d, "pos"), Input((), d, "small")], ({},), DT),
    ("index_add", lambda d, s: [Input((3, 4), d), Input((2,), "int32", "int:0:3"),
                                Input((2, 4), d)], ({"axis": 0},), ("float32",)),
    ("tensor_scatter_add", lambda d, s: [Input((3, 4), d), Input((2, 1), "int32",
                                         "int:0:3"), Input((2, 4), d)], ({},), DT),
    ("meshgrid", lambda d, s: [Input((3,), d), Input((4,), d)],
     ({"indexing": "xy"}, {"indexing": "ij"}), ("float32",)),
    ("cast", with_extra(Attr("float16")), ({},), ("float32",)),
    ("cast", with_extra(Attr("int32")), ({},), ("float32",)),
    ("cast", with_extra(Attr("float32")), ({},), ("float16", "float64")),
    ("zeros_like", x(), ({},), DT),
    ("full_like", with_extra(2.5), ({},), DT),
    ("nonzero", x("int:0:2"), ({},), ("int32",)),
    ("unique_consecutive", x("int:0:3", shape=(8,)), ({},), ("int32",)),
    ("bincount", x("int:0:5", shape=(10,)), ({},), ("int32",)),
    ("searchsorted", lambda d, s: [Input((5,), d, "distinct"), Input((3, 4), d)],
     ({},), ("float32",)),
    ("bucketize", lambda d, s: [Input((3, 4), d), (-0.5, 0.0, 0.7)], ({},), ("float32",)),
    ("range", lambda d, s: [0, 7, 2], ({},), ("int32",)),
    ("arange", lambda d, s: [1.5, 4.0, 0.5], ({},), ("float32",)),
    ("linspace", lambda d, s: [-1.0, 2.0, 7], ({},), ("float32",)),
    ("eye", lambda d, s: [3, 4], ({},), ("float32",)),
    ("ones", lambda d, s: [(2, 3)], ({}, {"dtype": Attr("int32")}), ("float32",)),
    ("zeros", lambda d, s: [(2, 3)], ({"dtype": Attr("float16")},), ("float32",)),
    ("pad", x(), ({"padding": (1, 2)}, {"padding": (1, 1, 0, 2), "value": 0.5},
                  {"padding": (1, 1), "mode": "reflect"},
                  {"padding": (2, 1, 1, 0), "mode": "replicate"}), DT),
    ("tensor_split", x(), ({"indices_or_sections": (1, 3), "axis": -1},), ("float32",)),
    ("atleast_2d", x(shape=(3,)), ({},), ("float32",)),
    ("column_stack", lambda d, s: [[Input((3,), d), Input((3, 2), d)]], ({},), DT),
    ("dstack", pair(), ({},), ("float32",)),
    ("block_diag", lambda d, s: [Input((2, 2), d), Input((1, 3), d)], ({},), DT),
    ("cartesian_prod", lambda d, s: [Input((2,), d), Input((3,), d)], ({},), ("float32",)),
    ("cdist", lambda d, s: [Input((2, 3, 4), d), Input((2, 5, 4), d)],
     ({}, {"p": 1.0}), ("float32",)),
    ("dist", lambda d, s: [Input(S, d), Input(S, d)], ({}, {"p": 1}), ("float32",)),
]


def _cases():
    cases = []
    for op, make, kwargs_list, dtypes in ROWS:
        prefix = f"ops.{op}"
        for c in variants(prefix, f"ops.{op}", make, dtypes=dtypes, shapes=((),),
                          kwargs_list=kwargs_list):
            cases.append(c)
    # a row listed twice with other inputs (reshape, gather, cast, tensor_split) gets a suffix
    seen, unique = {}, []
    for c in cases:
        n = seen.get(c.name, 0)
        seen[c.name] = n + 1
        unique.append(c if n == 0 else Case(f"{c.name}#{n}", c.api, c.inputs, c.kwargs,
                                            grad=c.grad))
    return unique


CASES = _cases()
