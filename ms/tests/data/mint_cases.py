"""The ``mint`` cases shared by ``mint_record.py`` (run with real MindSpore 2.10, writes
``mint_2_10.npz``) and ``test_mint.py`` (runs them on ``sporeling.ms``): plain NumPy data,
no MindSpore import, so one list drives both sides.

A case is ``(key, target, args, kwargs)``: ``target`` a dotted name under ``mint`` (``F.`` is
``mint.nn.functional``), ``args``/``kwargs`` with NumPy arrays made Tensors (lists of arrays:
lists of Tensors). Layer cases build ``mint.nn.<cls>``, set ``weight``/``bias`` and call it;
the ``RUNNERS`` take ``(ms, mint)`` and return arrays (optimizer steps, gradients).
"""
from __future__ import annotations

import numpy as np

rng = np.random.default_rng(2210)
f32 = np.float32
X = rng.standard_normal((3, 4)).astype(f32)
Y = rng.standard_normal((3, 4)).astype(f32)
P = (np.abs(X) + 0.5).astype(f32)       # positive
U = (np.tanh(X) * 0.9).astype(f32)      # in (-1, 1)
X3 = rng.standard_normal((2, 3, 4)).astype(f32)
B1 = rng.standard_normal((2, 3, 4)).astype(f32)
B2 = rng.standard_normal((2, 4, 5)).astype(f32)
V4 = rng.standard_normal(4).astype(f32)
V3 = rng.standard_normal(3).astype(f32)
SQ = (rng.standard_normal((3, 3)) + 3 * np.eye(3)).astype(f32)
I1 = np.array([[3, 5, 12], [-4, 6, 9]], np.int32)
I2 = np.array([[1, 7, 8], [6, -2, 3]], np.int32)
IDX = np.array([2, 0], np.int64)
IDX2 = np.array([[0, 3], [1, 1], [2, 0]], np.int64)
MASK = X > 0
IMG = rng.standard_normal((2, 3, 6, 6)).astype(f32)
W2 = (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(f32)
BIAS4 = rng.standard_normal(4).astype(f32)
SEQ = rng.standard_normal((2, 3, 7)).astype(f32)
W1 = (rng.standard_normal((4, 3, 3)) * 0.3).astype(f32)
WL = (rng.standard_normal((5, 4)) * 0.3).astype(f32)
BL = rng.standard_normal(5).astype(f32)
TGT = np.array([1, 0, 3], np.int64)
PROB = (1 / (1 + np.exp(-Y))).astype(f32)
LBL = (Y > 0).astype(f32)
EMB = rng.standard_normal((6, 3)).astype(f32)
TOK = np.array([[0, 2, 5], [1, 1, 4]], np.int64)
WT = (rng.standard_normal((3, 2, 3, 3)) * 0.3).astype(f32)
B2V = rng.standard_normal(2).astype(f32)
RHS = rng.standard_normal((3, 2)).astype(f32)
VOL = rng.standard_normal((1, 3, 5, 5, 5)).astype(f32)
W3 = (rng.standard_normal((4, 3, 3, 3, 3)) * 0.2).astype(f32)
COLS = rng.standard_normal((2, 12, 9)).astype(f32)
GRID = rng.uniform(-1.1, 1.1, (2, 4, 5, 2)).astype(f32)


def _max_pool_2x2(x):
    """(values, flat indices within each H*W plane) of a 2x2, stride-2 max pool."""
    n, c, h, w = x.shape
    win = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(
        n, c, h // 2, w // 2, 4)
    arg = win.argmax(-1)
    rows = np.arange(h // 2)[:, None] * 2 + arg // 2
    cols = np.arange(w // 2)[None, :] * 2 + arg % 2
    return win.max(-1), (rows * w + cols).astype(np.int64)


POOLED, POOL_IDX = _max_pool_2x2(IMG)

UNARY = {"abs": X, "acos": U, "acosh": P + 1, "arccos": U, "arccosh": P + 1, "arcsin": U,
         "arcsinh": X, "arctan": X, "arctanh": U, "asin": U, "asinh": X, "atan": X,
         "atanh": U, "ceil": X * 3, "cos": X, "cosh": X, "erf": X, "erfc": X, "erfinv": U,
         "exp": X, "exp2": X, "expm1": X, "floor": X * 3, "frac": X * 3, "log": P,
         "log10": P, "log1p": P, "log2": P, "neg": X, "negative": X, "reciprocal": P,
         "round": X * 3, "rsqrt": P, "sigmoid": X, "sign": X, "sin": X, "sinc": X, "sinh": X,
         "sqrt": P, "square": X, "tan": U, "tanh": X, "isfinite": X, "isinf": X, "isnan": X,
         "logical_not": MASK, "bitwise_not": I1, "isneginf": X, "ravel": X, "t": X,
         "trace": SQ, "inverse": SQ, "clone": X}
BINARY = {"mul": (X, Y), "div": (X, P), "divide": (X, P), "eq": (X, X * (MASK)),
          "ne": (X, X * MASK), "gt": (X, Y), "greater": (X, Y), "greater_equal": (X, Y),
          "le": (X, Y), "less": (X, Y), "less_equal": (X, Y), "lt": (X, Y),
          "maximum": (X, Y), "minimum": (X, Y), "pow": (P, Y), "float_power": (P, Y),
          "fmod": (X * 3, P), "remainder": (X * 3, P), "floor_divide": (X * 3, P),
          "atan2": (X, Y), "arctan2": (X, Y), "logaddexp": (X, Y), "logaddexp2": (X, Y),
          "xlogy": (P, P), "logical_and": (MASK, Y > 0), "logical_or": (MASK, Y > 0),
          "logical_xor": (MASK, Y > 0), "bitwise_and": (I1, I2), "bitwise_or": (I1, I2),
          "bitwise_xor": (I1, I2), "gcd": (I1, I2), "isclose": (X, X + 1e-6),
          "matmul": (X, WL.T), "mm": (X, WL.T), "bmm": (B1, B2), "mv": (X, V4),
          "dot": (V4, V4 * 2), "outer": (V4, V3), "vdot": (V4, V4 * 2), "cdist": (X, Y),
          "masked_select": (X, MASK), "take": (X, IDX2), "cross": (X[:, :3], Y[:, :3])}

CASES = [(f"{n}", n, (a,), {}) for n, a in UNARY.items()]
CASES += [(f"{n}", n, args, {}) for n, args in BINARY.items()]
CASES += [
    ("add_alpha", "add", (X, Y), {"alpha": 2}), ("sub_alpha", "sub", (X, Y), {"alpha": 3}),
    ("add", "add", (X, Y), {}), ("sub", "sub", (X, Y), {}),
    ("div_floor", "div", (X * 3, P), {"rounding_mode": "floor"}),
    ("div_trunc", "div", (X * 3, P), {"rounding_mode": "trunc"}),
    ("lerp", "lerp", (X, Y, 0.3), {}), ("clamp", "clamp", (X, -0.5, 0.5), {}),
    ("addcdiv", "addcdiv", (X, Y, P), {"value": 0.5}), ("allclose", "allclose", (X, X), {}),
    ("nan_to_num", "nan_to_num", (np.array([np.nan, np.inf, -np.inf, 1], f32),),
     {"nan": 0.5}),
    # reductions
    ("sum_dim", "sum", (X, 1), {"keepdim": True}), ("sum", "sum", (X,), {}),
    ("mean_dim", "mean", (X,), {"dim": 0}), ("mean", "mean", (X,), {}),
    ("prod_dim", "prod", (X, 1), {}), ("amax", "amax", (X, 1), {}), ("amin_all", "amin", (X,), {}),
    ("max_all", "max", (X,), {}), ("max_dim", "max", (X, 1), {}),
    ("max_dim_keep", "max", (X,), {"dim": 0, "keepdim": True}), ("max_other", "max", (X, Y), {}),
    ("min_all", "min", (X,), {}), ("min_dim", "min", (X, 1), {}),
    ("argmax", "argmax", (X, 1), {}), ("argmax_all", "argmax", (X,), {}),
    ("argmin", "argmin", (X,), {"dim": 1, "keepdim": True}),
    ("all", "all", (MASK, 1), {}), ("any", "any", (MASK,), {}),
    ("std", "std", (X, 1), {}), ("var_c0", "var", (X,), {"dim": (0, 1), "correction": 0}),
    ("std_mean", "std_mean", (X, 0), {}), ("var_mean", "var_mean", (X,), {"keepdim": True}),
    ("logsumexp", "logsumexp", (X, 1), {}), ("norm", "norm", (X,), {}),
    ("norm_p1", "norm", (X, 1), {"dim": 1}), ("norm_inf", "norm", (X, float("inf")), {"dim": 0}),
    ("median_all", "median", (X,), {}), ("median_dim", "median", (X, 1), {}),
    ("nansum", "nansum", (np.array([1, np.nan, 2], f32),), {}),
    ("count_nonzero", "count_nonzero", (MASK.astype(f32),), {"dim": 1}),
    ("cumsum", "cumsum", (X, 1), {}), ("cumprod", "cumprod", (X, 0), {}),
    ("cummax", "cummax", (X, 1), {}), ("cummin", "cummin", (X, 0), {}),
    ("topk", "topk", (X, 2), {"dim": 1}), ("topk_small", "topk", (X, 2, 0), {"largest": False}),
    ("sort", "sort", (X,), {"dim": 1, "descending": True}), ("sort0", "sort", (X,), {"dim": 0}),
    ("argsort", "argsort", (X, 1), {}), ("kthvalue", "kthvalue", (X, 2, 1), {}),
    ("histc", "histc", (X,), {"bins": 4, "min": -2, "max": 2}),
    ("bincount", "bincount", (np.array([0, 1, 1, 4], np.int64),), {}),
    # shapes, indexing
    ("cat", "cat", ([X, Y], 1), {}), ("concat", "concat", ([X, Y],), {"dim": 0}),
    ("stack", "stack", ([X, Y],), {"dim": 1}), ("chunk", "chunk", (X, 2, 1), {}),
    ("split", "split", (X, [1, 3], 1), {}), ("split_int", "split", (X, 2), {}),
    ("transpose", "transpose", (X3, 0, 2), {}), ("permute", "permute", (X3, (2, 0, 1)), {}),
    ("reshape", "reshape", (X, (2, 6)), {}), ("flatten", "flatten", (X3,), {}),
    ("flatten_1", "flatten", (X3, 1), {}), ("squeeze", "squeeze", (X[None],), {}),
    ("squeeze_dim", "squeeze", (X[:, None], 1), {}), ("unsqueeze", "unsqueeze", (X, 1), {}),
    ("flip", "flip", (X, (0, 1)), {}), ("roll", "roll", (X, 1, 1), {}),
    ("tile", "tile", (X, (2, 1)), {}), ("broadcast_to", "broadcast_to", (V4, (3, 4)), {}),
    ("narrow", "narrow", (X, 1, 1, 2), {}), ("select", "select", (X, 1, -1), {}),
    ("index_select", "index_select", (X, 1, IDX), {}), ("gather", "gather", (X, 1, IDX2), {}),
    ("scatter", "scatter", (X, 1, IDX2[:, :1], Y[:, :1]), {}),
    ("scatter_add", "scatter_add", (X, 1, IDX2, Y[:, :2]), {}),
    ("index_add", "index_add", (X, 0, IDX, Y[:2]), {"alpha": 2}),
    ("where", "where", (MASK, X, Y), {}), ("where1", "where", (MASK,), {}),
    ("nonzero", "nonzero", (MASK,), {}), ("tril", "tril", (X, 1), {}),
    ("triu", "triu", (X, -1), {}), ("diag_v", "diag", (V3, 1), {}), ("diag_m", "diag", (SQ,), {}),
    ("unbind", "unbind", (X, 1), {}), ("repeat_interleave", "repeat_interleave", (X, 2),
                                       {"dim": 0}),
    ("swapaxes", "swapaxes", (X3, 0, 1), {}), ("meshgrid", "meshgrid", (V3, V4), {}),
    ("meshgrid_xy", "meshgrid", (V3, V4), {"indexing": "xy"}),
    ("searchsorted", "searchsorted", (np.sort(V4), X), {}),
    ("unique_consecutive", "unique_consecutive", (np.array([1, 1, 2, 2, 3, 1], np.int64),),
     {"return_counts": True}),
    ("diff", "diff", (X,), {"dim": 0}), ("einsum", "einsum", ("ij,kj->ik", X, Y), {}),
    ("addmm", "addmm", (BL, X, WL.T), {"beta": 0.5, "alpha": 2}),
    ("baddbmm", "baddbmm", (np.zeros((2, 3, 5), f32) + 1, B1, B2), {"beta": 0.5}),
    ("addbmm", "addbmm", (np.zeros((3, 5), f32) + 1, B1, B2), {"alpha": 2}),
    ("addmv", "addmv", (V3, X, V4), {"alpha": 2}),
    # creation
    ("arange", "arange", (0, 5, 2), {}), ("eye", "eye", (3,), {}), ("eye_nm", "eye", (2, 3), {}),
    ("zeros", "zeros", ((2, 3),), {}), ("ones", "ones", ((2, 3),), {}),
    ("full", "full", ((2, 2), 3.0), {}), ("full_like", "full_like", (X, 2.0), {}),
    ("zeros_like", "zeros_like", (X,), {}), ("ones_like", "ones_like", (X,), {}),
    ("softmax", "softmax", (X, 1), {}),
    # mint.nn.functional
    ("F.relu", "F.relu", (X,), {}), ("F.relu6", "F.relu6", (X * 4,), {}),
    ("F.gelu", "F.gelu", (X,), {}), ("F.gelu_tanh", "F.gelu", (X,), {"approximate": "tanh"}),
    ("F.silu", "F.silu", (X,), {}), ("F.elu", "F.elu", (X,), {"alpha": 0.5}),
    ("F.leaky_relu", "F.leaky_relu", (X, 0.1), {}), ("F.hardtanh", "F.hardtanh", (X * 2,), {}),
    ("F.threshold", "F.threshold", (X, 0.1, 20.0), {}), ("F.sigmoid", "F.sigmoid", (X,), {}),
    ("F.tanh", "F.tanh", (X,), {}), ("F.logsigmoid", "F.logsigmoid", (X,), {}),
    ("F.softmax", "F.softmax", (X,), {"dim": 0}), ("F.log_softmax", "F.log_softmax", (X, 1), {}),
    ("F.glu", "F.glu", (X,), {}), ("F.linear", "F.linear", (X, WL, BL), {}),
    ("F.conv2d", "F.conv2d", (IMG, W2, BIAS4), {"stride": 2, "padding": 1}),
    ("F.conv2d_same", "F.conv2d", (IMG, W2), {"padding": "same"}),
    ("F.conv1d", "F.conv1d", (SEQ, W1, BIAS4), {"padding": 1}),
    ("F.pad", "F.pad", (X3, (1, 2)), {"value": 0.5}),
    ("F.pad_reflect", "F.pad", (IMG, (1, 1, 2, 0)), {"mode": "reflect"}),
    ("F.dropout_eval", "F.dropout", (X,), {"training": False}),
    ("F.flatten", "F.flatten", (X3,), {}), ("F.normalize", "F.normalize", (X,), {}),
    ("F.one_hot", "F.one_hot", (TGT, 4), {}), ("F.one_hot_auto", "F.one_hot", (TGT,), {}),
    ("F.layer_norm", "F.layer_norm", (X3, (4,), V4, V4 + 1), {}),
    ("F.group_norm", "F.group_norm", (IMG, 3), {}),
    ("F.batch_norm", "F.batch_norm", (IMG, V3, np.abs(V3) + 1), {}),
    ("F.embedding", "F.embedding", (TOK, EMB), {}),
    ("F.cross_entropy", "F.cross_entropy", (X, TGT), {}),
    ("F.cross_entropy_ls", "F.cross_entropy", (X, TGT), {"label_smoothing": 0.1,
                                                         "reduction": "sum"}),
    ("F.cross_entropy_prob", "F.cross_entropy", (X, np.abs(Y) / np.abs(Y).sum(1, keepdims=True)),
     {}),
    ("F.nll_loss", "F.nll_loss", (X, TGT), {"reduction": "none"}),
    ("F.mse_loss", "F.mse_loss", (X, Y), {}),
    ("F.binary_cross_entropy", "F.binary_cross_entropy", (PROB, LBL), {}),
    ("F.bce_logits", "F.binary_cross_entropy_with_logits", (X, LBL), {}),
    ("F.kl_div", "F.kl_div", (np.log(PROB), LBL * 0.5 + 0.2), {"reduction": "batchmean"}),
    ("F.soft_margin_loss", "F.soft_margin_loss", (X, np.sign(Y)), {}),
    ("F.cosine_embedding_loss", "F.cosine_embedding_loss", (X, Y, np.array([1, -1, 1], f32)),
     {}),
    ("F.avg_pool2d", "F.avg_pool2d", (IMG, 2), {}),
    ("F.avg_pool2d_pad", "F.avg_pool2d", (IMG, 3, 2, 1), {}),
    ("F.max_pool2d", "F.max_pool2d", (IMG, 2), {}),
    ("F.max_pool2d_pad", "F.max_pool2d", (IMG, 3), {"stride": 2, "padding": 1}),
    ("F.avg_pool1d", "F.avg_pool1d", (SEQ, 2), {}),
    ("F.adaptive_avg_pool2d", "F.adaptive_avg_pool2d", (IMG, (2, 3)), {}),
    ("F.adaptive_max_pool2d", "F.adaptive_max_pool2d", (IMG, 2), {}),
    ("F.adaptive_avg_pool1d", "F.adaptive_avg_pool1d", (SEQ, 3), {}),
    ("F.interpolate", "F.interpolate", (IMG,), {"scale_factor": 2.0, "mode": "nearest"}),
    ("F.interpolate_bl", "F.interpolate", (IMG,), {"size": (4, 5), "mode": "bilinear",
                                                   "align_corners": False}),
    ("F.pixel_shuffle", "F.pixel_shuffle", (rng.standard_normal((1, 4, 2, 2)).astype(f32), 2),
     {}),
    ("F.unfold", "F.unfold", (IMG, 2), {"stride": 2}),
    ("F.prelu", "F.prelu", (IMG, np.array([0.1, 0.2, 0.3], f32)), {}),
    ("F.relu_", "F.relu_", (X,), {}), ("F.sigmoid_", "F.sigmoid_", (X,), {}),
    ("F.elu_", "F.elu_", (X, 0.5), {}), ("F.hardtanh_", "F.hardtanh_", (X * 2,), {}),
    ("F.threshold_", "F.threshold_", (X, 0.1, 20.0), {}),
    ("F.relu_inplace", "F.relu", (X,), {"inplace": True}),
    ("addr_", "addr_", (X[:, :3] * 1, V3, V3), {"beta": 0.5, "alpha": 2}),
    ("conv_tbc", "conv_tbc", (SEQ.transpose(2, 0, 1).copy(), W1.transpose(2, 1, 0).copy(),
                              BIAS4), {"pad": 1}),
    ("triangular_solve", "triangular_solve", (RHS, SQ), {}),
    ("triangular_solve_l", "triangular_solve", (RHS, SQ),
     {"upper": False, "transpose": True, "unitriangular": True}),
    ("F.conv_transpose2d", "F.conv_transpose2d", (IMG, WT, B2V),
     {"stride": 2, "padding": 1, "output_padding": 1}),
    ("F.conv_transpose2d_g", "F.conv_transpose2d", (IMG[:, :2], WT[:2]), {"groups": 2}),
    ("conv2d", "conv2d", (IMG, W2, BIAS4), {"padding": (1, 2), "dilation": 2}),
    ("F.conv3d", "F.conv3d", (VOL, W3, BIAS4), {"stride": 2, "padding": 1}),
    ("dstack", "dstack", ([X, Y],), {}), ("hstack", "hstack", ([X, Y],), {}),
    ("not_equal", "not_equal", (X, X * MASK), {}), ("real", "real", (X,), {}),
    ("npu_gelu", "npu_gelu", (X,), {}),
    ("F.adaptive_avg_pool3d", "F.adaptive_avg_pool3d", (VOL, 2), {}),
    ("F.adaptive_max_pool1d", "F.adaptive_max_pool1d", (SEQ, 3), {}),
    ("F.avg_pool3d", "F.avg_pool3d", (VOL, 2), {}),
    ("F.avg_pool3d_pad", "F.avg_pool3d", (VOL, 3, 2, 1), {"count_include_pad": False}),
    ("F.dropout2d_eval", "F.dropout2d", (IMG,), {"training": False}),
    ("F.fold", "F.fold", (COLS, (6, 6), 2), {"stride": 2}),
    ("F.fold_overlap", "F.fold", (COLS[:, :, :4], (3, 3), 2), {}),
    ("F.grid_sample", "F.grid_sample", (IMG, GRID), {"align_corners": False}),
    ("F.grid_sample_nearest", "F.grid_sample", (IMG, GRID),
     {"mode": "nearest", "padding_mode": "border", "align_corners": True}),
    ("F.l1_loss", "F.l1_loss", (X, Y), {}),
    ("F.smooth_l1_loss", "F.smooth_l1_loss", (X, Y), {"beta": 0.5, "reduction": "sum"}),
    ("F.max_unpool2d", "F.max_unpool2d", (POOLED, POOL_IDX, 2), {}),
    ("F.upsample", "F.upsample", (IMG,), {"scale_factor": 2.0}),
    ("F.interpolate_bicubic", "F.interpolate", (IMG,), {"size": (8, 9), "mode": "bicubic",
                                                        "align_corners": False}),
    ("F.interpolate_linear", "F.interpolate", (SEQ,), {"size": 11, "mode": "linear"}),
    ("F.embedding_max_norm", "F.embedding", (TOK, EMB), {"max_norm": 1.0}),
    ("F.nll_loss_w", "F.nll_loss", (X, TGT), {"weight": V4 * 0 + np.arange(4, dtype=f32)}),
    ("F.cross_entropy_ignore", "F.cross_entropy", (X, np.array([1, -100, 3], np.int64)), {}),
    ("F.batch_norm_train", "F.batch_norm", (IMG, V3, np.abs(V3) + 1, V3, V3),
     {"training": True, "momentum": 0.2}),
    ("F.pad_replicate", "F.pad", (IMG, (2, 1, 0, 1)), {"mode": "replicate"}),
    ("F.pad_circular", "F.pad", (IMG, (1, 2, 2, 1)), {"mode": "circular"}),
    ("F.leaky_relu_default", "F.leaky_relu", (X,), {}),
    ("linalg.inv", "linalg.inv", (SQ,), {}), ("linalg.norm", "linalg.norm", (X,), {}),
    ("linalg.norm_fro", "linalg.norm", (X3, "fro"), {"dim": (0, 2)}),
    ("linalg.norm_dim", "linalg.norm", (X3, 3.0), {"dim": 1, "keepdim": True}),
    ("linalg.vector_norm", "linalg.vector_norm", (X3,), {}),
    ("linalg.vector_norm_dims", "linalg.vector_norm", (X3, 1), {"dim": (0, 2),
                                                               "keepdim": True}),
    ("linalg.vector_norm_inf", "linalg.vector_norm", (X, float("inf")), {"dim": 1}),
    ("linalg.vector_norm_0", "linalg.vector_norm", (X * MASK, 0), {"dim": -1}),
    ("linalg.matrix_norm", "linalg.matrix_norm", (X3,), {}),
    ("linalg.matrix_norm_1", "linalg.matrix_norm", (X3, 1), {}),
    ("linalg.matrix_norm_inf", "linalg.matrix_norm", (X3, -float("inf")), {"dim": (0, 2)}),
    ("special.erfc", "special.erfc", (X,), {}), ("special.expm1", "special.expm1", (X,), {}),
    ("special.exp2", "special.exp2", (X,), {}), ("special.round", "special.round", (X * 3,), {}),
    ("special.sinc", "special.sinc", (X,), {}), ("special.log1p", "special.log1p", (P,), {}),
    ("special.log_softmax", "special.log_softmax", (X, 1), {}),
    ("F.softmax_default", "F.softmax", (X3,), {}), ("F.softmax_2d", "F.softmax", (X,), {}),
    ("F.log_softmax_default", "F.log_softmax", (X3,), {}),
    ("nn.Softmax_default", "F.softmax", (IMG,), {}),
]

# (key, class, ctor args, ctor kwargs, {attribute: array}, input, training)
LAYERS = [
    ("nn.Linear", "Linear", (4, 5), {}, {"weight": WL, "bias": BL}, X, False),
    ("nn.Linear_nobias", "Linear", (4, 5), {"bias": False}, {"weight": WL}, X, False),
    ("nn.Conv2d", "Conv2d", (3, 4, 3), {"padding": 1}, {"weight": W2, "bias": BIAS4}, IMG,
     False),
    ("nn.Conv2d_s2", "Conv2d", (3, 4, 3), {"stride": 2, "padding": (1, 0), "bias": False},
     {"weight": W2}, IMG, False),
    ("nn.Conv2d_same", "Conv2d", (3, 4, 3), {"padding": "same"}, {"weight": W2, "bias": BIAS4},
     IMG, False),
    ("nn.ConvTranspose2d", "ConvTranspose2d", (3, 2, 3),
     {"stride": 2, "padding": 1, "output_padding": 1}, {"weight": WT, "bias": B2V}, IMG, False),
    ("nn.SyncBatchNorm_train", "SyncBatchNorm", (3,), {"momentum": 0.2}, {}, IMG, True),
    ("nn.BatchNorm1d_train", "BatchNorm1d", (4,), {"momentum": 0.3}, {}, X, True),
    ("nn.BatchNorm2d_affine", "BatchNorm2d", (3,), {}, {"weight": V3, "bias": V3 * 2}, IMG,
     True),
    ("nn.BatchNorm2d_nostats", "BatchNorm2d", (3,), {"track_running_stats": False}, {}, IMG,
     False),
    ("nn.BatchNorm2d_cumulative", "BatchNorm2d", (3,), {"momentum": None}, {}, IMG, True),
    ("nn.GroupNorm_affine", "GroupNorm", (3, 3), {}, {"weight": V3, "bias": V3 * 2}, IMG,
     False),
    ("nn.PReLU", "PReLU", (3,), {}, {"weight": np.array([0.1, 0.2, 0.3], f32)}, IMG, False),
    ("nn.Conv3d", "Conv3d", (3, 4, 3), {"padding": 1}, {"weight": W3, "bias": BIAS4}, VOL,
     False),
    ("nn.Conv2d_replicate", "Conv2d", (3, 4, 3), {"padding": 2, "padding_mode": "replicate"},
     {"weight": W2, "bias": BIAS4}, IMG, False),
    ("nn.Conv2d_circular", "Conv2d", (3, 4, 3), {"padding": 1, "padding_mode": "circular"},
     {"weight": W2, "bias": BIAS4}, IMG, False),
    ("nn.Conv2d_groups", "Conv2d", (4, 4, 3), {"groups": 2, "stride": 2},
     {"weight": W2[:, :2], "bias": BIAS4}, np.concatenate([IMG, IMG[:, :1]], 1), False),
    ("nn.BatchNorm3d_train", "BatchNorm3d", (3,), {}, {}, VOL, True),
    ("nn.AdaptiveAvgPool1d", "AdaptiveAvgPool1d", (3,), {}, {}, SEQ, False),
    ("nn.AdaptiveAvgPool3d", "AdaptiveAvgPool3d", (2,), {}, {}, VOL, False),
    ("nn.AdaptiveMaxPool1d", "AdaptiveMaxPool1d", (3,), {}, {}, SEQ, False),
    ("nn.AdaptiveMaxPool2d", "AdaptiveMaxPool2d", ((2, 3),), {}, {}, IMG, False),
    ("nn.AvgPool1d", "AvgPool1d", (3,), {"stride": 2, "padding": 1}, {}, SEQ, False),
    ("nn.AvgPool3d", "AvgPool3d", (2,), {}, {}, VOL, False),
    ("nn.ConstantPad1d", "ConstantPad1d", ((1, 2), 0.5), {}, {}, SEQ, False),
    ("nn.ConstantPad2d", "ConstantPad2d", (1, -1.0), {}, {}, IMG, False),
    ("nn.ConstantPad3d", "ConstantPad3d", ((1, 0, 0, 1, 1, 1), 2.0), {}, {}, VOL, False),
    ("nn.ZeroPad3d", "ZeroPad3d", (1,), {}, {}, VOL, False),
    ("nn.ReflectionPad1d", "ReflectionPad1d", ((2, 1),), {}, {}, SEQ, False),
    ("nn.ReflectionPad3d", "ReflectionPad3d", (1,), {}, {}, VOL, False),
    ("nn.ReplicationPad1d", "ReplicationPad1d", (2,), {}, {}, SEQ, False),
    ("nn.ReplicationPad2d", "ReplicationPad2d", ((1, 0, 2, 1),), {}, {}, IMG, False),
    ("nn.ReplicationPad3d", "ReplicationPad3d", (1,), {}, {}, VOL, False),
    ("nn.Fold", "Fold", ((6, 6), 2), {"stride": 2}, {}, COLS, False),
    ("nn.Identity", "Identity", (), {}, {}, X, False),
    ("nn.GLU", "GLU", (0,), {}, {}, X[:2], False),
    ("nn.Softshrink", "Softshrink", (0.3,), {}, {}, X, False),
    ("nn.Dropout2d_eval", "Dropout2d", (0.3,), {}, {}, IMG, False),
    ("nn.Hardtanh", "Hardtanh", (-0.5, 0.5), {}, {}, X, False),
    ("nn.LeakyReLU", "LeakyReLU", (0.2,), {}, {}, X, False),
    ("nn.LogSigmoid", "LogSigmoid", (), {}, {}, X, False),
    ("nn.ReLU6", "ReLU6", (), {}, {}, X * 4, False),
    ("nn.Sigmoid", "Sigmoid", (), {}, {}, X, False),
    ("nn.Threshold", "Threshold", (0.1, 20.0), {}, {}, X, False),
    ("nn.Upsample", "Upsample", (), {"scale_factor": 2.0, "mode": "nearest"}, {}, IMG, False),
    ("nn.Upsample_bilinear", "Upsample", (), {"size": (5, 7), "mode": "bilinear",
                                              "align_corners": True}, {}, IMG, False),
    ("nn.Conv1d", "Conv1d", (3, 4, 3), {}, {"weight": W1, "bias": BIAS4}, SEQ, False),
    ("nn.LayerNorm", "LayerNorm", ((4,),), {}, {"weight": V4, "bias": V4 + 1}, X3, False),
    ("nn.Embedding", "Embedding", (6, 3), {"padding_idx": 1}, {"weight": EMB}, TOK, False),
    ("nn.GroupNorm", "GroupNorm", (3, 3), {}, {}, IMG, False),
    ("nn.BatchNorm2d_train", "BatchNorm2d", (3,), {}, {}, IMG, True),
    ("nn.ReLU", "ReLU", (), {}, {}, X, False), ("nn.GELU", "GELU", (), {}, {}, X, False),
    ("nn.SiLU", "SiLU", (), {}, {}, X, False), ("nn.Tanh", "Tanh", (), {}, {}, X, False),
    ("nn.Softmax", "Softmax", (), {"dim": 1}, {}, X, False),
    ("nn.LogSoftmax", "LogSoftmax", (1,), {}, {}, X, False),
    ("nn.Hardswish", "Hardswish", (), {}, {}, X * 4, False),
    ("nn.Hardsigmoid", "Hardsigmoid", (), {}, {}, X * 4, False),
    ("nn.Hardshrink", "Hardshrink", (), {}, {}, X, False),
    ("nn.SELU", "SELU", (), {}, {}, X, False), ("nn.Mish", "Mish", (), {}, {}, X, False),
    ("nn.ELU", "ELU", (), {}, {}, X, False), ("nn.Dropout_eval", "Dropout", (), {}, {}, X, False),
    ("nn.Flatten", "Flatten", (), {}, {}, X3, False),
    ("nn.MaxPool2d", "MaxPool2d", (2,), {}, {}, IMG, False),
    ("nn.AvgPool2d", "AvgPool2d", (3,), {"stride": 2, "padding": 1}, {}, IMG, False),
    ("nn.AdaptiveAvgPool2d", "AdaptiveAvgPool2d", ((1, 1),), {}, {}, IMG, False),
    ("nn.ZeroPad2d", "ZeroPad2d", ((1, 0, 2, 1),), {}, {}, IMG, False),
    ("nn.ZeroPad1d", "ZeroPad1d", (2,), {}, {}, SEQ, False),
    ("nn.ReflectionPad2d", "ReflectionPad2d", (1,), {}, {}, IMG, False),
    ("nn.UpsamplingNearest2d", "UpsamplingNearest2d", (), {"scale_factor": 2.0}, {}, IMG,
     False),
    ("nn.UpsamplingBilinear2d", "UpsamplingBilinear2d", (), {"size": (4, 5)}, {}, IMG, False),
    ("nn.Unfold", "Unfold", (2,), {"stride": 2}, {}, IMG, False),
    ("nn.PixelShuffle", "PixelShuffle", (2,), {}, {}, IMG[:, :1].repeat(4, 1), False),
]
LOSSES = [  # (key, class, ctor kwargs, inputs)
    ("nn.CrossEntropyLoss", "CrossEntropyLoss", {}, (X, TGT)),
    ("nn.MSELoss", "MSELoss", {"reduction": "sum"}, (X, Y)),
    ("nn.L1Loss", "L1Loss", {}, (X, Y)),
    ("nn.SmoothL1Loss", "SmoothL1Loss", {"beta": 0.5}, (X, Y)),
    ("nn.BCEWithLogitsLoss", "BCEWithLogitsLoss", {"pos_weight": V4 * 0 + 2}, (X, LBL)),
    ("nn.BCELoss", "BCELoss", {}, (PROB, LBL)),
    ("nn.KLDivLoss", "KLDivLoss", {"reduction": "sum"}, (np.log(PROB), LBL * 0.5 + 0.2)),
    ("nn.NLLLoss", "NLLLoss", {"weight": np.arange(1, 5, dtype=f32)}, (X, TGT)),
    ("nn.CosineEmbeddingLoss", "CosineEmbeddingLoss", {"margin": 0.2},
     (X, Y, np.array([1, -1, -1], f32))),
    ("nn.SoftMarginLoss", "SoftMarginLoss", {}, (X, np.sign(Y))),
]

W0 = rng.standard_normal((3, 2)).astype(f32)
GRADS = [rng.standard_normal((3, 2)).astype(f32) for _ in range(3)]
OPTIMS = [  # (key, class, kwargs): 3 steps from W0 with GRADS
    ("optim.SGD", "SGD", {"lr": 0.1}),
    ("optim.SGD_mom", "SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01,
                              "dampening": 0.1}),
    ("optim.SGD_nesterov", "SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    ("optim.Adam", "Adam", {"lr": 0.01}),
    ("optim.Adam_wd", "Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("optim.AdamW", "AdamW", {"lr": 0.01}),
    ("optim.AdamW_wd", "AdamW", {"lr": 0.05, "betas": (0.8, 0.9), "eps": 1e-6,
                                 "weight_decay": 0.5}),
    ("optim.FusedAdamW", "FusedAdamW", {"lr": 0.01, "weight_decay": 0.1}),
    ("optim.Adam_max", "Adam", {"lr": 0.01, "maximize": True}),
]


def grad_fns(b):
    """``{key: (scalar function, inputs)}``: ``b.grad`` differentiates it w.r.t. every input."""
    mint, F = b.mint, b.mint.nn.functional
    T = b.tensor
    TGT_T, X_T, IMG_T, IDX2_T, IDX_T = T(TGT), T(X), T(IMG), T(IDX2), T(IDX)
    return {
        "grad.gelu": (lambda x: mint.sum(F.gelu(x) * 2.0), (X,)),
        "grad.softmax_ce": (lambda x: F.cross_entropy(x, TGT_T), (X,)),
        "grad.linear": (lambda w: mint.sum(F.linear(X_T, w, None) ** 2), (WL,)),
        "grad.conv2d": (lambda w: mint.mean(F.conv2d(IMG_T, w, None, 1, 1)), (W2,)),
        "grad.layer_norm": (lambda x: mint.sum(F.layer_norm(x, (4,)) * X_T), (X,)),
        "grad.max_dim": (lambda x: mint.sum(mint.max(x, 1)[0]), (X,)),
        "grad.std": (lambda x: mint.std(x, 1).sum(), (X,)),
        "grad.norm": (lambda x: mint.norm(x), (X,)),
        "grad.gather": (lambda x: mint.sum(mint.gather(x, 1, IDX2_T) * 3), (X,)),
        "grad.batch_norm_train": (lambda x: mint.sum(F.batch_norm(
            x, T(V3 * 0), T(V3 * 0 + 1), T(V3), None, True) * IMG_T), (IMG,)),
        "grad.pad_reflect": (lambda x: mint.sum(F.pad(x, (1, 2, 2, 1), mode="reflect") ** 2),
                             (IMG,)),
        "grad.interpolate": (lambda x: mint.sum(F.interpolate(
            x, size=(4, 5), mode="bilinear", align_corners=False) ** 2), (IMG,)),
        "grad.embedding": (lambda w: mint.sum(F.embedding(T(TOK), w) ** 2), (EMB,)),
        "grad.max_pool2d": (lambda x: mint.sum(F.max_pool2d(x, 3, 2, 1) ** 2), (IMG,)),
        "grad.avg_pool2d": (lambda x: mint.sum(F.avg_pool2d(x, 3, 2, 1) ** 2), (IMG,)),
        "grad.cross_entropy_ls": (lambda x: F.cross_entropy(x, TGT_T, label_smoothing=0.2),
                                  (X,)),
        "grad.bce_logits": (lambda x: F.binary_cross_entropy_with_logits(x, T(LBL)), (X,)),
        "grad.group_norm": (lambda x, w: mint.sum(F.group_norm(x, 3, w, None) * IMG_T),
                            (IMG, V3)),
        "grad.kthvalue": (lambda x: mint.sum(mint.kthvalue(x, 2, 1)[0] ** 2), (X,)),
        "grad.sort": (lambda x: mint.sum(mint.sort(x, dim=1)[0] * X_T), (Y,)),
        "grad.select": (lambda x: mint.sum(mint.select(x, 1, -1) ** 2), (X,)),
        "grad.cumprod": (lambda x: mint.sum(mint.cumprod(x, 1)), (P,)),
        "grad.var_mean": (lambda x: mint.sum(mint.var_mean(x, 1)[0] + mint.var_mean(x, 1)[1]
                                             ** 2), (X,)),
        "grad.addmm": (lambda a, m: mint.sum(mint.addmm(a, m, T(WL.T), beta=0.5, alpha=2)
                                             ** 2), (BL, X)),
        "grad.conv_transpose2d": (lambda w: mint.sum(F.conv_transpose2d(IMG_T, w, None, 2, 1)
                                                     ** 2), (WT,)),
        "grad.index_add": (lambda x: mint.sum(mint.index_add(X_T, 0, IDX_T, x) ** 2),
                           (Y[:2],)),
    }


# --- running: ``b`` is a backend (``MindSporeBackend`` for ms and sporeling.ms, or the
# recorder's PyTorch one for what MindSpore's CPU build lacks) ---------------------------------

class MindSporeBackend:
    """``ms``: ``mindspore`` or ``sporeling.ms``."""

    def __init__(self, ms):
        self.ms, self.mint = ms, ms.mint

    def tensor(self, a):
        return self.ms.Tensor(a)

    def to_np(self, t):
        return t.asnumpy()

    def set_param(self, layer, name, a):
        getattr(layer, name).set_data(self.ms.Tensor(a))

    def train(self, layer, flag):
        layer.set_train(flag)

    def stats(self, layer):
        return [p for n, p in layer.parameters_and_names() if "mean" in n or "var" in n]

    def param(self, a):
        return self.ms.Parameter(self.ms.Tensor(a), name="w")

    def step(self, opt, w, g):
        opt((self.ms.Tensor(g),))

    def grad(self, fn, args):
        g = self.ms.grad(fn, grad_position=tuple(range(len(args))))(
            *[self.ms.Tensor(a) for a in args])
        return g if isinstance(g, tuple) else (g,)  # MindSpore: one position, one Tensor


def _conv(b, value):
    if isinstance(value, np.ndarray):
        return b.tensor(value)
    if isinstance(value, list):
        return [_conv(b, v) for v in value]
    return value


def to_np(b, value):
    if isinstance(value, (tuple, list)):
        return [to_np(b, v) for v in value]
    if isinstance(value, (bool, int, float)):
        return np.asarray(value)
    return np.asarray(b.to_np(value))


def resolve(mint, target):
    if target.startswith("F."):
        return getattr(mint.nn.functional, target[2:])
    obj = mint
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def flatten_result(key, value, out):
    """``out[key]`` (or ``key/0``, ``key/1``... and ``key#len`` for sequences)."""
    if isinstance(value, list):
        out[f"{key}#len"] = np.asarray(len(value))
        for i, v in enumerate(value):
            flatten_result(f"{key}/{i}", v, out)
    else:
        out[key] = np.asarray(value)


def run_case(b, case):
    key, target, args, kwargs = case
    fn = resolve(b.mint, target)
    return to_np(b, fn(*[_conv(b, a) for a in args],
                       **{k: _conv(b, v) for k, v in kwargs.items()}))


def run_layer(b, case):
    key, cls, args, kwargs, attrs, x, training = case
    layer = getattr(b.mint.nn, cls)(*args, **kwargs)
    for name, value in attrs.items():
        b.set_param(layer, name, value)
    b.train(layer, training)
    y = layer(b.tensor(x))
    if training and "BatchNorm" in cls and kwargs.get("track_running_stats", True):
        return to_np(b, [y, *b.stats(layer)])
    return to_np(b, y)


def run_loss(b, case):
    key, cls, kwargs, inputs = case
    loss = getattr(b.mint.nn, cls)(**{k: _conv(b, v) for k, v in kwargs.items()})
    return to_np(b, loss(*[b.tensor(v) for v in inputs]))


def run_optim(b, case):
    key, cls, kwargs = case
    w = b.param(W0.copy())
    opt = getattr(b.mint.optim, cls)([w], **kwargs)
    for g in GRADS:
        b.step(opt, w, g)
    return to_np(b, w)


def run_grad(b, key):
    fn, args = grad_fns(b)[key]
    return to_np(b, list(b.grad(fn, args)))


def all_runs(b):
    """``[(key, thunk)]`` for every case."""
    runs = [(c[0], lambda c=c: run_case(b, c)) for c in CASES]
    runs += [(c[0], lambda c=c: run_layer(b, c)) for c in LAYERS]
    runs += [(c[0], lambda c=c: run_loss(b, c)) for c in LOSSES]
    runs += [(c[0], lambda c=c: run_optim(b, c)) for c in OPTIMS]
    runs += [(k, lambda k=k: run_grad(b, k)) for k in GRAD_KEYS]
    return runs


GRAD_KEYS = ["grad.gelu", "grad.softmax_ce", "grad.linear", "grad.conv2d", "grad.layer_norm",
             "grad.max_dim", "grad.std", "grad.norm", "grad.gather", "grad.index_add",
             "grad.conv_transpose2d", "grad.batch_norm_train", "grad.pad_reflect",
             "grad.interpolate", "grad.embedding", "grad.max_pool2d", "grad.avg_pool2d",
             "grad.cross_entropy_ls", "grad.bce_logits", "grad.group_norm", "grad.kthvalue",
             "grad.sort", "grad.select", "grad.cumprod", "grad.var_mean", "grad.addmm"]
