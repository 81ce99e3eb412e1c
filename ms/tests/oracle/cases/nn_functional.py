"""``ms.ops`` neural-network functions: activations, softmax family, normalisation,
convolution, pooling, resizing -- float32 (most in float16 too), forward and gradient."""
from ..inputs import Input
from ._grid import variants

IMG = (2, 3, 6, 6)
DT = ("float32", "float16")

# activation -> (input kind, argument variants)
ACTIVATIONS = {
    "relu": ("distinct", ({},)), "relu6": ("normal", ({},)), "elu": ("distinct", ({},)),  # 2.10: alpha must be 1.0
    "selu": ("distinct", ({},)), "celu": ("distinct", ({}, {"alpha": 2.0})),
    "gelu": ("normal", ({}, {"approximate": "tanh"})), "silu": ("normal", ({},)),
    "mish": ("normal", ({},)), "softplus": ("normal", ({}, {"beta": 2, "threshold": 1})),
    "softsign": ("normal", ({},)), "hardswish": ("distinct", ({},)),
    "hardsigmoid": ("distinct", ({},)), "hardtanh": ("distinct", ({}, {"min_val": -0.5, "max_val": 0.5})),
    "leaky_relu": ("distinct", ({}, {"alpha": 0.1})), "logsigmoid": ("normal", ({},)),
    "softshrink": ("distinct", ({}, {"lambd": 0.3})), "hardshrink": ("distinct", ({}, {"lambd": 0.3})),
    "tanhshrink": ("normal", ({},)), "sigmoid": ("normal", ({},)), "tanh": ("normal", ({},)),
    "softmax": ("normal", ({}, {"axis": 0}, {"axis": 1})),
    "log_softmax": ("normal", ({}, {"axis": 0})), "softmin": ("normal", ({}, {"axis": 1})),
    "glu": ("normal", ({}, {"axis": 1})), "threshold": ("distinct", ({"thr": 0.2, "value": -1.0},)),
    "rrelu": ("distinct", ({"lower": 0.2, "upper": 0.2},)),
}
SHAPES = ((4, 6), (2, 4, 6))


def _img(shape=IMG):
    return lambda d, s: [Input(shape, d)]


def _conv(x_shape, w_shape, bias=None):
    def make(d, s):
        inputs = [Input(x_shape, d), Input(w_shape, d, "small")]
        return inputs + ([Input((bias,), d)] if bias else [])
    return make


# (op, make_inputs, kwargs variants, dtypes)
ROWS = [
    ("conv2d", _conv(IMG, (4, 3, 3, 3), 4), ({}, {"stride": 2}, {"pad_mode": "pad", "padding": 1},
                                             {"pad_mode": "same"}, {"dilation": 2}), ("float32",)),
    ("conv2d", _conv(IMG, (3, 1, 3, 3)), ({"groups": 3},), ("float32",)),
    ("conv2d", _conv((2, 4, 5, 5), (4, 2, 2, 2)), ({"groups": 2}, {"groups": 2, "stride": 2}),
     ("float32",)),
    ("conv1d", _conv((2, 3, 7), (4, 3, 3), 4), ({}, {"stride": 2, "pad_mode": "pad", "padding": 1},
                                                {"dilation": 2}), ("float32",)),
    ("conv3d", _conv((1, 2, 4, 4, 4), (3, 2, 2, 2, 2), 3), ({}, {"stride": 2}), ("float32",)),
    ("conv_transpose2d", _conv((2, 3, 4, 4), (3, 2, 3, 3)), ({}, {"stride": 2},
                                                             {"stride": 2, "padding": 1, "output_padding": 1}),
     ("float32",)),
    ("dense", lambda d, s: [Input((3, 4), d), Input((5, 4), d, "small"), Input((5,), d)], ({},), DT),
    ("max_pool2d", _img(), ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
                            {"kernel_size": 2, "return_indices": True},
                            {"kernel_size": 3, "stride": 2, "ceil_mode": True}), ("float32",)),
    ("avg_pool2d", _img(), ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
                            {"kernel_size": 3, "stride": 2, "padding": 1,
                             "count_include_pad": False},
                            {"kernel_size": 3, "stride": 2, "ceil_mode": True}), DT),
    ("avg_pool1d", _img((2, 3, 7)), ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2}), DT),
    ("max_pool3d", _img((1, 2, 4, 4, 4)), ({"kernel_size": 2},), ("float32",)),
    ("avg_pool3d", _img((1, 2, 4, 4, 4)), ({"kernel_size": 2},), ("float32",)),
    ("adaptive_avg_pool2d", _img(), ({"output_size": 3}, {"output_size": (2, 4)}), DT),
    ("adaptive_max_pool2d", _img(), ({"output_size": 3}, {"output_size": (2, 4)}), ("float32",)),
    ("adaptive_avg_pool1d", _img((2, 3, 6)), ({"output_size": 3},), ("float32",)),
    ("adaptive_max_pool1d", _img((2, 3, 8)), ({"output_size": 4},), ("float32",)),
    ("lp_pool2d", _img(), ({"norm_type": 2, "kernel_size": 2},), ("float32",)),
    ("interpolate", _img(), ({"size": (9, 9), "mode": "nearest"},
                             {"scale_factor": 2.0, "mode": "nearest", "recompute_scale_factor": True},
                             {"size": (8, 5), "mode": "bilinear", "align_corners": True},
                             {"size": (8, 5), "mode": "bilinear"},
                             {"size": (4, 4), "mode": "area"},
                             {"size": (9, 9), "mode": "bicubic", "align_corners": True}), ("float32",)),
    ("interpolate", _img((2, 3, 5)), ({"size": 8, "mode": "linear"},
                                      {"size": 8, "mode": "linear", "align_corners": True}),
     ("float32",)),
    ("pixel_shuffle", _img((1, 8, 3, 3)), ({"upscale_factor": 2},), DT),
    ("pixel_unshuffle", _img((1, 2, 4, 4)), ({"downscale_factor": 2},), DT),
    ("unfold", _img(), ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1}),
     ("float32",)),
    ("layer_norm", lambda d, s: [Input((2, 3, 4), d), (4,), Input((4,), d, "pos"),
                                 Input((4,), d)], ({}, {"eps": 1e-3}), ("float32",)),
    ("group_norm", lambda d, s: [Input((2, 4, 3, 3), d), 2, Input((4,), d, "pos"),
                                 Input((4,), d)], ({},), ("float32",)),
    ("batch_norm", lambda d, s: [Input(IMG, d), Input((3,), d), Input((3,), d, "pos"),
                                 Input((3,), d, "pos"), Input((3,), d)],
     ({}, {"momentum": 0.2}), ("float32",)),
    ("prelu", lambda d, s: [Input(IMG, d, "distinct"), Input((3,), d, "prob")], ({},), DT),
    ("cosine_similarity", lambda d, s: [Input((3, 5), d), Input((3, 5), d)],
     ({}, {"dim": 0}), ("float32",)),
    ("pdist", lambda d, s: [Input((4, 3), d)], ({},), ("float32",)),
    ("grid_sample", lambda d, s: [Input((1, 2, 4, 4), d), Input((1, 3, 3, 2), d, "unit")],
     ({}, {"mode": "nearest"}, {"align_corners": True}, {"padding_mode": "border"}),
     ("float32",)),
    ("affine_grid", lambda d, s: [Input((2, 2, 3), d), (2, 1, 3, 4)],
     ({}, {"align_corners": True}), ("float32",)),
    ("embedding", lambda d, s: [Input((2, 3), "int64", "int:0:5"), Input((5, 4), d)],
     ({}, {"max_norm": 1.0}), ("float32",)),
    ("dropout", _img((3, 4)), ({"training": False}, {"p": 0.0}), DT),
]


def _cases():
    cases = []
    for op, (kind, kwargs_list) in ACTIVATIONS.items():
        cases += variants(f"ops.{op}", f"ops.{op}", lambda d, s, k=kind: [Input(s, d, k)],
                          dtypes=("float32", "float16"), shapes=SHAPES, kwargs_list=kwargs_list)
    counts = {}
    for op, make, kwargs_list, dtypes in ROWS:
        n = counts.get(op, 0)
        counts[op] = n + 1
        prefix = f"ops.{op}" + (f"#{n}" if n else "")
        cases += variants(prefix, f"ops.{op}", make, dtypes=dtypes, shapes=((),),
                          kwargs_list=kwargs_list)
    return cases


CASES = _cases()
