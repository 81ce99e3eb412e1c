"""The 2.10 ``mindspore.ops`` functions added by ops/functional_math/{aliases, frequencies,
graph_builtins, higher_order, matrix_functions, registration}.py and
ops/functional_array/{attention, collectives, fused_nn, inplace, placement, reshaping,
sparse_parts}.py: each against an independent NumPy/SciPy reference on small inputs,
gradients of the differentiable families against central differences (and through
``value_and_grad``), Graph mode for the traceable ones."""
import math
import operator

import numpy as np
import pytest
from scipy import linalg as sla
from scipy import special

import sporeling.ms as ms
from sporeling.core.errors import SporelingError
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from math_refs import T, assert_grad_matches, assert_matches, in_graph, value

rng = np.random.default_rng(22)
A = rng.standard_normal((3, 4)).astype(np.float32)
B = rng.standard_normal((3, 4)).astype(np.float32)
SQ = (rng.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
POS = rng.uniform(0.5, 3.0, (2, 3)).astype(np.float32)
V3 = np.array([1.0, -2.0, 3.0], np.float32)


def _softplus(x, beta, threshold):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def _silu(x):
    return x / (1 + np.exp(-x))


def _rms(x, g, eps):
    rstd = 1 / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps)
    return x * rstd * g, rstd


def _diag_part_band(m, low, high, pad, left_super, left_sub):
    """TensorFlow's packed band, written out diagonal by diagonal."""
    rows, cols = m.shape
    diags = [np.diagonal(m, d) for d in range(high, low - 1, -1)]
    width = max(len(d) for d in diags)
    out = np.full((len(diags), width), pad, m.dtype)
    for r, (d, values) in enumerate(zip(range(high, low - 1, -1), diags)):
        left = (d >= 0 and left_super) or (d <= 0 and left_sub)
        if left:
            out[r, :len(values)] = values
        else:
            out[r, width - len(values):] = values
    return out


def _conv_transpose2d(x, w, stride, padding, output_padding):
    """Scatter form of the transposed convolution (N, C, H, W), weight (C, O, kh, kw)."""
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full = np.zeros((n, o, (h - 1) * stride + kh + output_padding,
                     (wd - 1) * stride + kw + output_padding), np.float64)
    for i in range(h):
        for j in range(wd):
            full[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += \
                np.einsum("nc,cokl->nokl", x[:, :, i, j], w)
    return full[:, :, padding:full.shape[2] - padding, padding:full.shape[3] - padding]


def _attention(q, k, v, mask, scale):
    s = scale * q @ np.swapaxes(k, -1, -2)
    s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v


QKV = rng.standard_normal((3, 2, 4, 3)).astype(np.float32)  # q, k, v as (B=2, S=4, H=3)
CAUSAL = np.triu(np.ones((4, 4), bool), 1)
MOE_IDX = np.array([[1, 0], [0, 2], [1, 1]])
TOKENS = rng.standard_normal((3, 2)).astype(np.float32)


def _moe_reference():
    flat = MOE_IDX.reshape(-1)
    order = np.argsort(flat, kind="stable")
    return TOKENS[order // 2], np.argsort(order).astype(np.int32)


def _ring_parts():
    """Attention of (S=4, B=1, N=2, D=3) queries over two key blocks, done block by block:
    each block's normalised output and its softmax max and sum (B, N, S, 8); and the whole."""
    q, k, v = (rng.standard_normal((1, 2, 4, 3)) for _ in range(3))
    k2, v2 = rng.standard_normal((2, 1, 2, 5, 3))
    parts = []
    for kk, vv in ((k, v), (k2, v2)):
        s = q @ np.swapaxes(kk, -1, -2)
        m = s.max(-1, keepdims=True)
        e = np.exp(s - m)
        out = (e / e.sum(-1, keepdims=True)) @ vv  # (B, N, S, D)
        parts.append((out.transpose(2, 0, 1, 3).reshape(4, 1, 6), np.repeat(m, 8, -1),
                      np.repeat(e.sum(-1, keepdims=True), 8, -1)))
    whole = _attention(q, np.concatenate([k, k2], 2), np.concatenate([v, v2], 2),
                       np.zeros((4, 9), bool), 1.0)
    return parts, whole.transpose(2, 0, 1, 3).reshape(4, 1, 6)


RING_PARTS, RING_WHOLE = _ring_parts()


def _ring_inputs():
    (o1, m1, s1), (o2, m2, s2) = RING_PARTS
    return tuple(T(a) for a in (o1, m1, s1, o2, m2, s2))


def _ring_reference():
    (_, m1, s1), (_, m2, s2) = RING_PARTS
    m = np.maximum(m1, m2)
    return RING_WHOLE, m, s1 * np.exp(m1 - m) + s2 * np.exp(m2 - m)


VALUE_CASES = [
    # math aliases and special functions
    ("tensor_add", lambda: ops.tensor_add(T(A), T(B)), A + B),
    ("tensor_div", lambda: ops.tensor_div(T(A), T(POS[:1, :1])), A / POS[0, 0]),
    ("floordiv", lambda: ops.floordiv(T(A), 0.5), np.floor_divide(A, 0.5)),
    ("floormod", lambda: ops.floormod(T(A), 0.7), np.mod(A, np.float32(0.7))),
    ("pows", lambda: ops.pows(T(POS), 1.5), POS ** 1.5),
    ("tensor_gt", lambda: ops.tensor_gt(T(A), T(B)), A > B),
    ("tensor_range", lambda: ops.tensor_range(1, 10, 3), np.arange(1, 10, 3)),
    ("reduce_sum_all", lambda: ops.reduce_sum(T(A)), A.sum()),
    ("reduce_mean_axis", lambda: ops.reduce_mean(T(A), 1, True), A.mean(1, keepdims=True)),
    ("reduce_max", lambda: ops.reduce_max(T(A), (0, 1)), A.max()),
    ("reduce_min", lambda: ops.reduce_min(T(A), 0), A.min(0)),
    ("top_k", lambda: ops.top_k(T(A), 2),
     (-np.sort(-A, 1)[:, :2], np.argsort(-A, 1, kind="stable")[:, :2].astype(np.int32))),
    ("isnan_ext", lambda: ops.isnan_ext(T(np.array([1.0, np.nan]))), np.array([False, True])),
    ("float_power_ext", lambda: ops.float_power_ext(T(POS), 2), POS.astype(np.float64) ** 2),
    ("diff_ext", lambda: ops.diff_ext(T(A), 2, 1), np.diff(A, 2, 1)),
    ("einsum_ext", lambda: ops.einsum_ext("ij,kj->ik", T(A), T(B)), A @ B.T),
    ("baddbmm_ext", lambda: ops.baddbmm_ext(T(SQ[None]), T(SQ[None]), T(SQ[None]), beta=0.5,
                                            alpha=2), 0.5 * SQ[None] + 2 * SQ[None] @ SQ[None]),
    ("lgamma", lambda: ops.lgamma(T(np.array([-2.5, -0.5, 0.25, 1.0, 3.5, 10.0], np.float64))),
     special.gammaln(np.array([-2.5, -0.5, 0.25, 1.0, 3.5, 10.0]))),
    ("zeta", lambda: ops.zeta(T(np.array([2.0, 3.0])), T(np.array([1.0, 2.0]))),
     special.zeta([2.0, 3.0], [1.0, 2.0])),
    # linear algebra
    ("vecdot", lambda: ops.vecdot(T(A), T(B)), (A * B).sum(-1)),
    ("vecdot_axis", lambda: ops.vecdot(T(A), T(B), axis=0), (A * B).sum(0)),
    ("vector_norm", lambda: ops.vector_norm(T(A)), np.linalg.norm(A.reshape(-1))),
    ("vector_norm_3", lambda: ops.vector_norm(T(A), 3, 1, True),
     np.linalg.norm(A, 3, 1, keepdims=True)),
    ("vector_norm_inf", lambda: ops.vector_norm(T(A), float("inf"), (0, 1)), np.abs(A).max()),
    ("vector_norm_0", lambda: ops.vector_norm(T(np.array([0.0, 2, 0, 3])), 0), 2.0),
    ("matrix_norm_fro", lambda: ops.matrix_norm(T(A)), np.linalg.norm(A, "fro")),
    ("matrix_norm_1", lambda: ops.matrix_norm(T(A), 1), np.linalg.norm(A, 1)),
    ("matrix_norm_nuc", lambda: ops.matrix_norm(T(A), "nuc"), np.linalg.norm(A, "nuc")),
    ("matrix_norm_2", lambda: ops.matrix_norm(T(A), 2, keepdims=True),
     np.linalg.norm(A, 2).reshape(1, 1)),
    ("matrix_determinant", lambda: ops.matrix_determinant(T(SQ)), np.linalg.det(SQ)),
    ("log_matrix_determinant", lambda: ops.log_matrix_determinant(T(SQ)),
     tuple(np.float32(v) for v in np.linalg.slogdet(SQ))),
    ("matrix_exp", lambda: ops.matrix_exp(T(SQ / 4)), sla.expm(SQ / 4)),
    ("lstsq", lambda: ops.lstsq(T(A.T), T(B.T)), np.linalg.lstsq(A.T, B.T, rcond=None)[0]),
    ("qr_reduced", lambda: ops.qr(T(A.T)), np.linalg.qr(A.T)),
    ("qr_complete", lambda: ops.qr(T(A.T), "complete"), np.linalg.qr(A.T, "complete")),
    ("cholesky_inverse", lambda: ops.cholesky_inverse(T(np.linalg.cholesky(SQ @ SQ.T))),
     np.linalg.inv(SQ @ SQ.T)),
    ("cholesky_inverse_upper",
     lambda: ops.cholesky_inverse(T(np.linalg.cholesky(SQ @ SQ.T).T), upper=True),
     np.linalg.inv(SQ @ SQ.T)),
    ("quantile", lambda: ops.quantile(T(A), 0.3, 1), np.quantile(A, 0.3, 1)),
    ("quantile_vector_q", lambda: ops.quantile(T(A), T(np.array([0.1, 0.9], np.float32)), 0,
                                               True),
     np.quantile(A, [0.1, 0.9], 0, keepdims=True)),
    ("nanquantile", lambda: ops.nanquantile(T(np.array([[1.0, np.nan, 3.0]], np.float32)), 0.5,
                                            1), np.array([2.0])),
    # frequencies
    ("fftfreq", lambda: ops.fftfreq(7, 0.5), np.fft.fftfreq(7, 0.5)),
    ("rfftfreq", lambda: ops.rfftfreq(8), np.fft.rfftfreq(8)),
    ("fftshift", lambda: ops.fftshift(T(A)), np.fft.fftshift(A)),
    ("ifftshift_dim", lambda: ops.ifftshift(T(A), 1), np.fft.ifftshift(A, 1)),
    # arrays
    ("atleast_1d", lambda: ops.atleast_1d(T(np.float32(2))), np.atleast_1d(np.float32(2))),
    ("atleast_2d", lambda: ops.atleast_2d([T(V3), T(A)]), (np.atleast_2d(V3), A)),
    ("atleast_3d", lambda: ops.atleast_3d([T(V3), T(A)]), tuple(np.atleast_3d(V3, A))),
    ("cartesian_prod", lambda: ops.cartesian_prod(T(np.array([1, 2])), T(np.array([3, 4, 5]))),
     np.array([[a, b] for a in (1, 2) for b in (3, 4, 5)])),
    ("row_stack", lambda: ops.row_stack([T(A), T(B)]), np.vstack([A, B])),
    ("expand", lambda: ops.expand(T(V3), T(np.array([2, -1]))), np.broadcast_to(V3, (2, 3))),
    ("expand_as", lambda: ops.expand_as(T(V3), T(np.zeros((2, 3)))),
     np.broadcast_to(V3, (2, 3))),
    ("view_as", lambda: ops.view_as(T(A), T(np.zeros((4, 3)))), A.reshape(4, 3)),
    ("type_as", lambda: ops.type_as(T(A), T(np.zeros(1, np.int32))), A.astype(np.int32)),
    ("take", lambda: ops.take(T(A), T(np.array([[0, 5], [-1, 2]]))),
     np.take(A, [[0, 5], [11, 2]])),
    ("fills", lambda: ops.fills(T(A), 2.5), np.full_like(A, 2.5)),
    ("eps", lambda: ops.eps(T(A)), np.full_like(A, np.finfo(np.float32).eps)),
    ("shape_", lambda: ops.shape_(T(A)), (3, 4)),
    ("reshape_", lambda: ops.reshape_(T(A), (2, 6)), A.reshape(2, 6)),
    ("tensor_slice", lambda: ops.tensor_slice(T(A), (1, 1), (2, -1)), A[1:3, 1:]),
    ("tensor_scatter_update",
     lambda: ops.tensor_scatter_update(T(A), T(np.array([[0, 1], [2, 3]])),
                                       T(np.array([9.0, 8.0], np.float32))),
     np.where(np.isin(np.arange(12).reshape(3, 4), [1, 11]),
              np.array([[0, 9.0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8.0]]), A)),
    ("scalar_to_array", lambda: ops.scalar_to_array(3), np.int64(3)),
    ("matrix_band_part", lambda: ops.matrix_band_part(T(A), 1, 0),
     np.tril(A) - np.tril(A, -2)),
    ("matrix_band_part_all", lambda: ops.matrix_band_part(T(A), -1, 1), np.triu(np.tril(A, 1), -3)),
    ("matrix_diag_part", lambda: ops.matrix_diag_part(T(A)), np.diagonal(A)),
    ("matrix_diag_part_band", lambda: ops.matrix_diag_part(T(A), (-1, 2), 9),
     _diag_part_band(A, -1, 2, 9, False, True)),
    ("matrix_diag_part_left_right", lambda: ops.matrix_diag_part(T(A), (-2, 1), 0, "LEFT_RIGHT"),
     _diag_part_band(A, -2, 1, 0, True, False)),
    ("matrix_diag", lambda: ops.matrix_diag(T(V3)), np.diag(V3)),
    ("matrix_diag_offset", lambda: ops.matrix_diag(T(V3), 1, padding_value=7),
     np.where(np.eye(4, k=1, dtype=bool), np.diag(V3, 1), 7)),
    ("matrix_diag_band_roundtrip",
     lambda: ops.matrix_diag(ops.matrix_diag_part(T(SQ), (-1, 1)), (-1, 1)),
     np.triu(np.tril(SQ, 1), -1)),
    ("matrix_set_diag", lambda: ops.matrix_set_diag(T(A), T(V3)),
     np.where(np.eye(3, 4, dtype=bool), np.pad(np.diag(V3), ((0, 0), (0, 1))), A)),
    ("mirror_pad", lambda: ops.mirror_pad(T(A), T(np.array([[1, 1], [2, 0]]))),
     np.pad(A, ((1, 1), (2, 0)), "reflect")),
    ("mirror_pad_symmetric", lambda: ops.mirror_pad(T(A), T(np.array([[1, 1], [2, 0]])),
                                                    "SYMMETRIC"),
     np.pad(A, ((1, 1), (2, 0)), "symmetric")),
    # neural network
    ("softplus", lambda: ops.softplus(T(A)), _softplus(A, 1, 20)),
    ("softplus_beta", lambda: ops.softplus(T(A), 2, 1), _softplus(A, 2, 1)),
    ("soft_shrink", lambda: ops.soft_shrink(T(A), 0.3),
     np.where(A > 0.3, A - 0.3, np.where(A < -0.3, A + 0.3, 0))),
    ("swiglu", lambda: ops.swiglu(T(A)), _silu(A[:, :2]) * A[:, 2:]),
    ("swiglu_dim0", lambda: ops.swiglu(T(A[:2]), 0), _silu(A[:1]) * A[1:2]),
    ("rms_norm", lambda: ops.rms_norm(T(A), T(V3[:1].repeat(4)), 1e-6),
     _rms(A, V3[0], 1e-6)),
    ("add_rms_norm", lambda: ops.add_rms_norm(T(A), T(B), T(np.ones(4, np.float32))),
     (*_rms(A + B, 1.0, 1e-6), A + B)),
    ("add_layer_norm",
     lambda: ops.add_layer_norm(T(A), T(B), T(np.full(4, 2.0, np.float32)),
                                T(np.full(4, 0.5, np.float32))),
     (2 * ((A + B) - (A + B).mean(-1, keepdims=True)) / np.sqrt((A + B).var(-1, keepdims=True)
                                                                 + 1e-5) + 0.5,
      (A + B).mean(-1, keepdims=True), 1 / np.sqrt((A + B).var(-1, keepdims=True) + 1e-5),
      A + B)),
    ("rotary_half", lambda: ops.rotary_position_embedding(T(A), T(B), T(np.cos(B))),
     A * B + np.concatenate([-A[:, 2:], A[:, :2]], 1) * np.cos(B)),
    ("rotary_interleave", lambda: ops.rotary_position_embedding(T(A), T(B), T(np.cos(B)), 1),
     A * B + np.stack([-A[:, 1::2], A[:, 0::2]], -1).reshape(3, 4) * np.cos(B)),
    ("mse_loss_ext", lambda: ops.mse_loss_ext(T(A), T(B)), ((A - B) ** 2).mean()),
    ("adaptive_avg_pool2d_ext", lambda: ops.adaptive_avg_pool2d_ext(T(A[None, None]), (1, 2)),
     A.reshape(1, 1, 3, 2, 2).mean((2, 4)).reshape(1, 1, 1, 2)),
    ("multilabel_margin_loss",
     lambda: ops.multilabel_margin_loss(T(np.array([[0.1, 0.2, 0.4, 0.8]], np.float32)),
                                        T(np.array([[3, 0, -1, 1]], np.int32))),
     np.float32(0.85)),
    ("conv_transpose2d",
     lambda: ops.conv_transpose2d(T(QKV[0, :, :, :].reshape(1, 2, 4, 3)),
                                  T(QKV[1, :, :2, :2].reshape(2, 1, 2, 2)), stride=2,
                                  padding=1, output_padding=1),
     _conv_transpose2d(QKV[0].reshape(1, 2, 4, 3), QKV[1, :, :2, :2].reshape(2, 1, 2, 2),
                       2, 1, 1)),
    ("conv3d_transpose",
     lambda: ops.conv3d_transpose(T(np.ones((1, 1, 1, 2, 2), np.float32)),
                                  T(np.ones((1, 1, 1, 2, 2), np.float32))),
     np.array([[[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]]]], np.float32)),
    ("adaptive_max_pool3d",
     lambda: ops.adaptive_max_pool3d(T(np.arange(8.0).reshape(1, 1, 2, 2, 2)), 1,
                                     return_indices=True),
     (np.array([[[[[7.0]]]]]), np.array([[[[[7]]]]]))),
    ("flash_attention_score",
     lambda: ops.flash_attention_score(T(QKV[0]), T(QKV[1]), T(QKV[2]), 1,
                                       attn_mask=T(CAUSAL), scalar_value=0.5),
     _attention(QKV[0], QKV[1], QKV[2], CAUSAL, 0.5)),
    ("flash_attention_score_bnsd_gqa",
     lambda: ops.flash_attention_score(T(QKV[0].reshape(2, 2, 2, 3)),
                                       T(QKV[1][:, None, :2]), T(QKV[2][:, None, :2]), 2,
                                       input_layout="BNSD"),
     _attention(QKV[0].reshape(2, 2, 2, 3), QKV[1][:, None, :2], QKV[2][:, None, :2],
                np.zeros((2, 2), bool), 1.0)),
    ("ring_attention_update", lambda: ops.ring_attention_update(*_ring_inputs()),
     _ring_reference()),
    ("moe_token_permute", lambda: ops.moe_token_permute(T(TOKENS), T(MOE_IDX)), _moe_reference()),
    ("moe_token_unpermute",
     lambda: ops.moe_token_unpermute(*ops.moe_token_permute(T(TOKENS), T(MOE_IDX)),
                                     T(np.full((3, 2), 0.5, np.float32))), TOKENS),
    ("coalesce", lambda: ops.coalesce(T(np.array([[1, 0, 1], [0, 1, 0]])),
                                      T(np.array([1.0, 2.0, 3.0], np.float32)),
                                      T(np.array([2, 2]))),
     (np.array([[0, 1], [1, 0]]), np.array([2.0, 4.0]), np.array([2, 2]))),
    ("move_to", lambda: ops.move_to(T(A), "CPU"), A),
    ("reshard", lambda: ops.reshard(T(A), ((1, 1),)), A),
    ("identity", lambda: ops.identity(T(A)), A),
    ("mixed_precision_cast", lambda: ops.mixed_precision_cast(ms.float16, (T(A), T(V3[:1]))),
     (A.astype(np.float16), V3[:1].astype(np.float16))),
]


@pytest.mark.parametrize("name, call, expected", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_matches_reference(name, call, expected):
    assert_matches(call(), expected, rtol=2e-5, atol=1e-5)


SCALAR_CASES = [
    ("scalar_add", ops.scalar_add, (2, 3), 5), ("scalar_sub", ops.scalar_sub, (2, 3), -1),
    ("scalar_mul", ops.scalar_mul, (2, 3), 6), ("scalar_div", ops.scalar_div, (3, 2), 1.5),
    ("scalar_floordiv", ops.scalar_floordiv, (-7, 2), -4),
    ("scalar_mod", ops.scalar_mod, (-7, 3), 2), ("scalar_pow", ops.scalar_pow, (2, 10), 1024),
    ("scalar_log", ops.scalar_log, (math.e,), 1.0), ("scalar_uadd", ops.scalar_uadd, (3,), 3),
    ("scalar_usub", ops.scalar_usub, (3,), -3), ("scalar_gt", ops.scalar_gt, (3, 2), True),
    ("scalar_ge", ops.scalar_ge, (2, 2), True), ("scalar_lt", ops.scalar_lt, (3, 2), False),
    ("scalar_le", ops.scalar_le, (2, 2), True), ("scalar_eq", ops.scalar_eq, (2, 2.0), True),
    ("scalar_ne", ops.scalar_ne, (2, 3), True), ("scalar_max", ops.scalar_max, (2, 5), 5),
    ("scalar_min", ops.scalar_min, (2, 5), 2), ("bool_and", ops.bool_and, (True, False), False),
    ("bool_or", ops.bool_or, (True, False), True), ("bool_not", ops.bool_not, (True,), False),
    ("bool_eq", ops.bool_eq, (True, True), True),
    ("string_concat", ops.string_concat, ("ab", "c"), "abc"),
    ("string_eq", ops.string_eq, ("a", "b"), False),
    ("tuple_getitem", ops.tuple_getitem, ((1, 2, 3), -1), 3),
    ("tuple_setitem", ops.tuple_setitem, ((1, 2, 3), 1, 9), (1, 9, 3)),
    ("tuple_len", ops.tuple_len, ((1, 2),), 2),
    ("tuple_reversed", ops.tuple_reversed, ((1, 2, 3),), (3, 2, 1)),
    ("tuple_div", ops.tuple_div, ((6, 9), (2, 3)), (3, 3)),
    ("tuple_equal", ops.tuple_equal, ((1, 2), (1, 2)), True),
    ("list_getitem", ops.list_getitem, ([4, 5], 1), 5),
    ("list_setitem", ops.list_setitem, ([4, 5], 0, 1), [1, 5]),
    ("list_len", ops.list_len, ([4, 5, 6],), 3),
    ("list_equal", ops.list_equal, ([1], [2]), False),
    ("dict_getitem", ops.dict_getitem, ({"a": 1}, "a"), 1),
    ("dict_setitem", ops.dict_setitem, ({"a": 1}, "b", 2), {"a": 1, "b": 2}),
    ("make_dict", ops.make_dict, (("a", "b"), (1, 2)), {"a": 1, "b": 2}),
    ("make_list", ops.make_list, (1, 2), [1, 2]), ("make_tuple", ops.make_tuple, (1, 2), (1, 2)),
    ("make_range", ops.make_range, (1, 7, 2), (1, 3, 5)),
    ("make_slice", ops.make_slice, (1, 5, 2), slice(1, 5, 2)),
    ("SliceGetItem", ops.SliceGetItem, (slice(1, 5, 2), "step"), 2),
    ("in_dict", ops.in_dict, ("a", {"a": 1}), True),
    ("not_in_dict", ops.not_in_dict, ("a", {"a": 1}), False),
    ("is_", ops.is_, (None, None), True), ("is_not", ops.is_not, (1, None), True),
    ("tail", ops.tail, ((1, 2, 3),), (2, 3)),
    ("zip_operation", ops.zip_operation, ((1, 2), (3, 4)), ((1, 3), (2, 4))),
    ("iter_converter", ops.iter_converter, ([1, 2],), (1, 2)),
    ("ms_hasnext", ops.ms_hasnext, ((),), False), ("ms_next", ops.ms_next, ((1, 2),), (1, (2,))),
    ("shape_mul", ops.shape_mul, ((2, 3, 4),), 24),
    ("reduced_shape", ops.reduced_shape, ((2, 3, 4), (0, -1)), (1, 3, 1)),
    ("reduced_shape_all", ops.reduced_shape, ((2, 3), ()), (1, 1)),
    ("broadcast_gradient_args", ops.broadcast_gradient_args, ((2, 1, 3), (4, 3)),
     ((1,), (0,))),
    ("array_to_scalar", ops.array_to_scalar, (T(np.array([2.5])),), 2.5),
    ("augassign_add", ops.augassign_add, (2, 3), 5),
    ("augassign_sub", ops.augassign_sub, (2, 3), -1),
    ("augassign_mul", ops.augassign_mul, (2, 3), 6),
    ("augassign_div", ops.augassign_div, (3, 2), 1.5),
    ("augassign_floordiv", ops.augassign_floordiv, (7, 2), 3),
    ("augassign_mod", ops.augassign_mod, (7, 2), 1),
    ("isconstant", ops.isconstant, (3,), True),
    ("is_sequence_shape_unknown", ops.is_sequence_shape_unknown, ((1,),), False),
    ("is_sequence_value_unknown", ops.is_sequence_value_unknown, ((1,),), False),
    ("is_dynamic_sequence_element_unknown", ops.is_dynamic_sequence_element_unknown, ((1,),),
     False),
    ("is_tensor_bool_cond", ops.is_tensor_bool_cond, (T(np.array(True)),), True),
    ("switch", ops.switch, (False, "t", "f"), "f"),
    ("switch_layer", ops.switch_layer, (T(np.array(1)), ("a", "b")), "b"),
    ("environ_get", ops.environ_get, ({"k": 1}, "x", 0), 0),
    ("env_get", ops.env_get, ({"k": 1}, "k", 0), 1),
    ("environ_set", ops.environ_set, ({}, "k", 2), {"k": 2}),
    ("environ_add", ops.environ_add, ({"k": 1, "a": 1}, {"k": 2}), {"k": 3, "a": 1}),
    ("environ_create", ops.environ_create, (), {}),
    ("hyper_add", ops.hyper_add, ((1, [2.0]), (3, [4.0])), (4, [6.0])),
    ("typeof", ops.typeof, (T(np.zeros(1, np.int32)),), ms.int32),
    ("typeof_float", ops.typeof, (1.0,), ms.float32),
    ("hastype", ops.hastype, (T(np.zeros(1, np.float32)), ms.float32), True),
    ("partial", lambda: ops.partial(operator.sub, 10)(3), (), 7),
]


@pytest.mark.parametrize("name, fn, args, expected", SCALAR_CASES,
                         ids=[c[0] for c in SCALAR_CASES])
def test_graph_builtins_are_python_operations(name, fn, args, expected):
    got = fn(*args)
    assert got == expected and type(got) is type(expected)


def test_merge_and_geswitch_select_a_branch():
    data = T(A)
    off, on = ops.geswitch(data, T(np.array(True)))
    assert_matches((off, on), (np.zeros_like(A), A))
    assert_matches(ops.merge((T(V3), T(A))), (V3, np.int32(0)))


# --- gradients ------------------------------------------------------------------------------

GRAD_CASES = [
    ("lgamma", ops.lgamma, np.array([-2.5, -0.3, 0.4, 2.0, 7.5])),
    ("softplus", lambda x: ops.softplus(x, 2, 1), A.astype(np.float64)),
    ("swiglu", ops.swiglu, A.astype(np.float64)),
    ("rms_norm", lambda x: ops.rms_norm(x, T(np.full(4, 1.5)))[0], A.astype(np.float64)),
    ("add_layer_norm", lambda x: ops.add_layer_norm(x, x, T(np.full(4, 1.5)),
                                                    T(np.zeros(4)))[0], A.astype(np.float64)),
    ("vector_norm", lambda x: ops.vector_norm(x, 3, 1), A.astype(np.float64)),
    ("matrix_norm_fro", lambda x: ops.matrix_norm(x), A.astype(np.float64)),
    ("vecdot", lambda x: ops.vecdot(x, T(B.astype(np.float64))), A.astype(np.float64)),
    ("fftshift", ops.fftshift, A.astype(np.float64)),
    ("take", lambda x: ops.take(x, T(np.array([0, 5, 5]))), A.astype(np.float64)),
    ("cartesian_prod", lambda x: ops.cartesian_prod(x, T(np.array([1.0, 2.0]))),
     V3.astype(np.float64)),
    ("matrix_diag_part", lambda x: ops.matrix_diag_part(x, (-1, 1)), SQ.astype(np.float64)),
    ("matrix_set_diag", lambda x: ops.matrix_set_diag(x, x[0]), SQ.astype(np.float64)),
    ("matrix_band_part", lambda x: ops.matrix_band_part(x, 0, 1), A.astype(np.float64)),
    ("cholesky_inverse", ops.cholesky_inverse, np.linalg.cholesky(SQ @ SQ.T).astype(np.float64)),
    ("rotary", lambda x: ops.rotary_position_embedding(x, T(np.cos(B)), T(np.sin(B))),
     A.astype(np.float64)),
    ("conv_transpose2d", lambda x: ops.conv_transpose2d(
        x, T(QKV[1, :, :2, :2].reshape(2, 1, 2, 2).astype(np.float64)), stride=2, padding=1),
     QKV[0].reshape(1, 2, 4, 3).astype(np.float64)),
    ("flash_attention_score", lambda x: ops.flash_attention_score(
        x, T(QKV[1].astype(np.float64)), T(QKV[2].astype(np.float64)), 1,
        attn_mask=T(CAUSAL)), QKV[0].astype(np.float64)),
    ("moe_token_unpermute", lambda x: ops.moe_token_unpermute(
        x, T(_moe_reference()[1]), T(np.full((3, 2), 0.25))),
     _moe_reference()[0].astype(np.float64)),
]


@pytest.mark.parametrize("name, fn, x", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_match_central_differences(name, fn, x):
    assert_grad_matches(fn, x, rtol=1e-5, atol=1e-6)


def test_value_and_grad_of_lgamma_is_digamma():
    x = np.array([0.3, 1.5, 4.0], np.float32)
    out, grad = ops.value_and_grad(lambda t: ops.reduce_sum(ops.lgamma(t)))(T(x))
    assert_matches(out, special.gammaln(x).sum(), rtol=1e-5)
    assert_matches(grad, special.digamma(x), rtol=1e-4)


def test_value_and_grad_of_softplus_is_sigmoid():
    out, grad = ops.value_and_grad(lambda t: ops.reduce_sum(ops.softplus(t)))(T(A))
    assert_matches(out, _softplus(A, 1, 20).sum(), rtol=1e-5)
    assert_matches(grad, 1 / (1 + np.exp(-A)), rtol=1e-5)


def test_derivative_jet_and_linearize():
    x = np.array([0.5, 1.0, 2.0])
    out, third = ops.derivative(ops.sin, T(x), 3)
    assert_matches((out, third), (np.sin(x), -np.cos(x)))
    # exp(sin(x)) at order 3, MindSpore's documented example
    doc = np.array([[1, 2], [3, 4]], np.float32)
    _, d3 = ops.derivative(lambda t: ops.exp(ops.sin(t)), T(doc), 3)
    assert_matches(d3, [[-4.0515366, 3.6724353], [0.5053504, -0.52061415]], rtol=1e-4)
    # jet of sin along x(t) = x0 + a t + b t^2 / 2: (sin x)' = a cos, '' = b cos - a^2 sin
    a, b = np.array([1.0, 2.0, 0.5]), np.array([0.3, -1.0, 2.0])
    out, series = ops.jet(ops.sin, T(x), T(np.stack([a, b])))
    assert_matches((out, series), (np.sin(x), np.stack([a * np.cos(x),
                                                        b * np.cos(x) - a * a * np.sin(x)])))
    out, jvp_fn = ops.linearize(ops.exp, T(x))
    assert_matches((out, jvp_fn(T(a))), (np.exp(x), np.exp(x) * a))


def test_j_gives_the_outputs_and_the_backward_function():
    out, bprop = ops.J(ops.sin)(T(V3.astype(np.float64)))
    assert_matches((out, bprop(T(np.ones(3)))), (np.sin(V3), (np.cos(V3),)))


# --- Graph mode -----------------------------------------------------------------------------

def test_graph_mode_matches_pynative():
    def f(x, y):
        return (ops.lgamma(ops.abs(x) + 0.5), ops.softplus(x, 2, 1), ops.swiglu(x),
                ops.vector_norm(x, 3, 1), ops.vecdot(x, y), ops.fftshift(x),
                ops.cartesian_prod(x[0], y[0]), ops.matrix_band_part(x, 0, 1),
                ops.matrix_diag_part(x, (-1, 1)), ops.take(x, T(np.array([1, 7]))),
                ops.rms_norm(x, y[0])[0], ops.tensor_scatter_update(x, T(np.array([[0, 0]])),
                                                                     y[0, :1]),
                ops.moe_token_permute(x, T(MOE_IDX))[0],
                ops.flash_attention_score(x[None], y[None], y[None], 2),
                ops.reduce_sum(x, 1), ops.top_k(x, 2)[0])
    eager, compiled = f(T(A), T(B)), in_graph(f, T(A), T(B))
    for e, c in zip(eager, compiled):  # float32: the compiled graph may round differently
        assert_matches(c, value(e), rtol=1e-4, atol=1e-5)


def test_eager_only_functions_refuse_graph_mode():
    for fn in (ops.qr, ops.matrix_exp, ops.geqrf):
        with pytest.raises(EagerOnlyError):
            in_graph(fn, T(SQ))
    with pytest.raises(EagerOnlyError):
        in_graph(lambda x: ops.quantile(x, 0.5), T(A))


# --- QR/LU pieces ---------------------------------------------------------------------------

def test_geqrf_orgqr_ormqr_rebuild_the_matrix():
    a = SQ.astype(np.float64)
    h, tau = ops.geqrf(T(a))
    q = ops.orgqr(h, tau)
    r = np.triu(value(h))
    assert_matches(ops.matmul(q, T(r)), a, rtol=1e-10, atol=1e-10)
    assert_matches(ops.ormqr(h, tau, T(r)), a, rtol=1e-10, atol=1e-10)
    assert_matches(ops.ormqr(h, tau, T(a), transpose=True), r, atol=1e-10)


def test_lu_unpack_and_lu_solve_match_scipy():
    a = SQ.astype(np.float64)
    lu, piv = sla.lu_factor(a)
    p, lower, upper = ops.lu_unpack(T(lu), T((piv + 1).astype(np.int32)))
    assert_matches(ops.matmul(ops.matmul(p, lower), upper), a, rtol=1e-10, atol=1e-10)
    b = rng.standard_normal((3, 2))
    assert_matches(ops.lu_solve(T(b), T(lu), T((piv + 1).astype(np.int32))),
                   np.linalg.solve(a, b), rtol=1e-8)


# --- in place and random ------------------------------------------------------------------

@pytest.mark.parametrize("name, call, expected", [
    ("tanh_", lambda x: ops.tanh_(x), np.tanh(A)),
    ("inplace_sigmoid", lambda x: ops.inplace_sigmoid(x), 1 / (1 + np.exp(-A))),
    ("erfinv_", lambda x: ops.erfinv_(ops.clamp_(x, -0.5, 0.5)),
     special.erfinv(np.clip(A, -0.5, 0.5))),
    ("clamp_", lambda x: ops.clamp_(x, -0.5), np.maximum(A, -0.5)),
    ("zero_", lambda x: ops.zero_(x), np.zeros_like(A)),
    ("put_", lambda x: ops.put_(x, T(np.array([0, -1])), T(np.array([5.0, 6.0]))),
     np.where(np.arange(12).reshape(3, 4) == 0, 5, np.where(np.arange(12).reshape(3, 4) == 11,
                                                             6, A))),
    ("put_accumulate", lambda x: ops.put_(x, T(np.array([1, 1])), T(np.array([1.0, 2.0])),
                                          True), A + np.eye(1, 12, 1).reshape(3, 4) * 3),
    ("stop_gradient_", lambda x: ops.stop_gradient_(x), A),
])
def test_inplace_writes_into_the_input(name, call, expected):
    x = T(A.copy())
    out = call(x)
    assert out is x
    assert_matches(x, expected.astype(np.float32), rtol=1e-5, atol=1e-6)


def test_stop_gradient_in_place_stops_the_gradient():
    def f(x):
        y = x * 2
        ops.stop_gradient_(y)
        return ops.reduce_sum(y * x)
    _, grad = ops.value_and_grad(f)(T(A))
    assert_matches(grad, 2 * A)  # y is a constant: d(y x)/dx = y


def test_samplers_fill_in_place_with_their_distribution():
    x = T(np.zeros(20000, np.float32))
    assert ops.uniform_(x, 2, 3) is x and 2 <= value(x).min() and value(x).max() < 3
    assert abs(value(ops.normal_(x, 1.0, 2.0)).mean() - 1.0) < 0.1
    assert abs(value(ops.normal_(x, 1.0, 2.0)).std() - 2.0) < 0.1
    assert abs(value(ops.exponential_(x, 4.0)).mean() - 0.25) < 0.02
    assert abs(value(ops.bernoulli_(x, 0.3)).mean() - 0.3) < 0.02
    draws = value(ops.random_(x, 3, 7))
    assert set(np.unique(draws)) == {3, 4, 5, 6}
    ints = T(np.zeros(5000, np.int32))
    assert set(np.unique(value(ops.random_(ints, 0, 2)))) == {0, 1}
    probs = np.array([0.0, 1.0, 0.5], np.float32)
    sampled = value(ops.bernoulli_ext(T(np.tile(probs, 4000))))
    assert sampled.dtype == np.float32
    assert_matches(sampled.reshape(-1, 3).mean(0), probs, atol=0.03)
    assert value(ops.poisson((4, 1), T(np.array([5.0, 10.0], np.float32)), seed=5)).shape == (4, 2)


def test_a_generator_gives_a_reproducible_stream():
    first = value(ops.normal_(T(np.zeros(5, np.float32)),
                              generator=ms.Generator().manual_seed(7)))
    again = value(ops.normal_(T(np.zeros(5, np.float32)),
                              generator=ms.Generator().manual_seed(7)))
    other = value(ops.normal_(T(np.zeros(5, np.float32)),
                              generator=ms.Generator().manual_seed(8)))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


# --- sparse plumbing ------------------------------------------------------------------------

DENSE = np.array([[0, 2.0, 0], [3.0, 0, 4.0]], np.float32)
INDPTR, COLS, VALS = np.array([0, 1, 3]), np.array([1, 0, 2]), np.array([2.0, 3.0, 4.0], np.float32)


def test_csr_kernels_match_dense_numpy():
    csr = ops.make_csr_tensor(T(INDPTR), T(COLS), T(VALS), (2, 3))
    other = rng.uniform(1, 2, (2, 3)).astype(np.float32)
    assert_matches(ops.csr_to_dense(csr), DENSE)
    assert_matches(ops.csr_to_dense(T(INDPTR), T(COLS), T(VALS), (2, 3)), DENSE)
    assert_matches(ops.csr_mul(csr, T(other)), VALS * other[[0, 1, 1], [1, 0, 2]])
    assert_matches(ops.csr_div(csr, T(other[0])), VALS / other[0][[1, 0, 2]])
    assert_matches(ops.csr_gather(T(INDPTR), T(COLS), T(other), (2, 3)),
                   other[[0, 1, 1], [1, 0, 2]])
    vec = rng.standard_normal((3, 1)).astype(np.float32)
    assert_matches(ops.csr_mv(csr, T(vec)), DENSE @ vec, rtol=1e-5)
    assert_matches(ops.csr_reduce_sum(csr, 1), DENSE.sum(1, keepdims=True))
    assert_matches(ops.coo2csr(T(np.array([0, 1, 1])), 2), INDPTR)
    assert_matches(ops.csr2coo(T(INDPTR), 3), np.array([0, 1, 1]))
    assert ops.csr_tensor_get_dense_shape(csr) == (2, 3)
    assert_matches((ops.csr_tensor_get_indptr(csr), ops.csr_tensor_get_indices(csr),
                    ops.csr_tensor_get_values(csr)), (INDPTR, COLS, VALS))


def test_coo_and_row_tensors_keep_their_parts():
    coo = ops.make_coo_tensor(T(np.array([[0, 1], [1, 2]])), T(np.array([2.0, 4.0])), (2, 3))
    assert_matches((ops.coo_tensor_get_indices(coo), ops.coo_tensor_get_values(coo)),
                   (np.array([[0, 1], [1, 2]]), np.array([2.0, 4.0])))
    assert ops.coo_tensor_get_dense_shape(coo) == (2, 3)
    assert isinstance(ops.make_sparse_tensor(T(np.array([[0, 0]])), T(np.ones(1)), (1, 1)),
                      type(coo))
    rows = ops.make_row_tensor(T(np.array([2, 0])), T(np.ones((2, 3))), (4, 3))
    total = ops.row_tensor_add(rows, ops.make_row_tensor_inner(T(np.array([2])),
                                                               T(np.full((1, 3), 5.0)), (4, 3)))
    assert_matches(total.to_dense(), np.array([[1.0] * 3, [0] * 3, [6.0] * 3, [0] * 3]))
    assert ops.row_tensor_get_dense_shape(total) == (4, 3)
    assert_matches((ops.row_tensor_get_indices(total), ops.row_tensor_get_values(total)),
                   (np.array([2, 0, 2]), np.array([[1.0] * 3, [1.0] * 3, [5.0] * 3])))


# --- communication in a world of one process ------------------------------------------------

@pytest.fixture
def world(monkeypatch):
    """ms.communication's own world of one process (sporeling.parallel hidden)."""
    import sys
    monkeypatch.setitem(sys.modules, "sporeling.parallel", None)
    ops.init_process_group()
    yield
    ops.set_comm_ops_inplace(True)
    ops.destroy_process_group()


def test_process_group_queries(world):
    assert ops.is_available() and ops.is_initialized()
    assert (ops.get_rank(), ops.get_world_size(), ops.get_backend()) == (0, 1, "hccl")
    group = ops.new_group([0])
    assert ops.get_process_group_ranks(group) == [0]
    assert (ops.get_global_rank(group, 0), ops.get_group_rank(group, 0)) == (0, 0)
    assert ops.barrier() is None and ops.barrier(async_op=True).wait()


def test_collectives_write_the_processes_own_data(world):
    x = T(A.copy())
    assert ops.all_reduce(x, "max") is None
    assert_matches(x, A)
    out = T(np.zeros_like(A))
    ops.all_gather_into_tensor(out, T(A))
    assert_matches(out, A)
    for fn in (ops.reduce_scatter_tensor, ops.all_to_all_single,
               ops.all_gather_into_tensor_uneven, ops.reduce_scatter_tensor_uneven):
        out = T(np.zeros_like(A))
        fn(out, T(A))
        assert_matches(out, A)
    outs = [T(np.zeros_like(A))]
    ops.all_gather(outs, T(A))
    ops.reduce_scatter(outs[0], [T(B)])
    assert_matches(outs[0], B)
    ops.all_to_all(outs, [T(A)])
    assert_matches(outs[0], A)
    for fn, args in ((ops.broadcast, (0,)), (ops.reduce, (0,))):
        y = T(B.copy())
        fn(y, *args)
        assert_matches(y, B)
    ops.gather_into_tensor(out, T(B))
    ops.scatter_tensor(out, T(A))
    assert_matches(out, A)
    flat = T(np.zeros(12, np.float32))
    ops.all_to_all_v_c(flat, T(A), [[12]])
    assert_matches(flat, A.reshape(-1))
    objects = [None]
    ops.all_gather_object(objects, {"a": 1})
    ops.gather_object("g", objects)
    ops.scatter_object_list(objects, ["s"])
    ops.broadcast_object_list(objects)
    assert objects == ["s"]


def test_not_in_place_collectives_return_the_result(world):
    ops.set_comm_ops_inplace(False, ["all_reduce"])
    x = T(A.copy())
    out, handle = ops.all_reduce(x)
    assert handle is None
    assert_matches(out, A)
    with pytest.raises(SporelingError, match="unknown communication"):
        ops.set_comm_ops_inplace(True, ["no_such_op"])


def test_point_to_point_loops_back_to_the_same_process(world):
    ops.send(T(A), 0, tag=3)
    handle = ops.isend(T(B), 0)
    got = T(np.zeros_like(A))
    assert ops.recv(got, 0, tag=3) == 0
    assert_matches(got, A)
    ops.irecv(got).wait()
    assert_matches(got, B)
    ops.send_object_list([1, "two"])
    objects = [None, None]
    ops.recv_object_list(objects)
    assert objects == [1, "two"] and handle.wait()
    with pytest.raises(SporelingError, match="nothing was sent"):
        ops.recv(got, 0, tag=99)


def test_fused_collective_matmuls_are_the_products(world):
    out, gathered = ops.all_gather_matmul(T(A), T(B.T), "hccl_world_group", 1)
    assert_matches((out, gathered), (A @ B.T, A), rtol=1e-5)
    out = ops.matmul_reduce_scatter(T(A), T(B), "hccl_world_group", 1, trans_x2=True,
                                    bias=T(np.ones(3, np.float32)))
    assert_matches(out, A @ B.T + 1, rtol=1e-5)


def test_collectives_need_an_initialised_world(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "sporeling.parallel", None)
    ms.communication.release()
    with pytest.raises(SporelingError, match="not initialised"):
        ops.all_reduce(T(A))
    assert ops.get_rank() == -1 and not ops.is_initialized()


# --- registration decorators and plumbing ---------------------------------------------------

def test_prim_attr_register_records_the_init_arguments():
    class Scale(ops.Primitive):
        @ops.prim_attr_register
        def __init__(self, factor, bias=0.5):
            self.ran = True

    prim = Scale(3)
    assert prim.attrs == {"factor": 3, "bias": 0.5} and prim.ran and prim.name == "Scale"
    assert prim.init_attrs == {"factor": 3, "bias": 0.5}


def test_decorators_return_their_function():
    def f(x):
        return x + 1
    for deco in (ops.constexpr, ops.kernel, ops.ms_kernel):
        assert deco(f) is f
    assert ops.op_info_register("info")(f) is f and f.reg_info == ("info",)
    assert ops.custom_info_register("a", "b")(f) is f and f.reg_info == ("a", "b")
    assert ops.add_flags(f, a=1) is f and f._func_graph_flags == {"a": 1}
    assert ops.get_vm_impl_fn(f) is f


def test_tensordump_saves_npy_files(tmp_path):
    ops.tensordump(str(tmp_path / "x"), T(A))
    ops.tensordump(str(tmp_path / "x"), T(B), "in")
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert len(saved) == 2 and saved[0].startswith("x_float32_") and \
        saved[1].startswith("x_in_float32_")
    np.testing.assert_array_equal(np.load(tmp_path / saved[0]), A)


@pytest.mark.parametrize("call, message", [
    (lambda: ops.qr(T(SQ), "full"), "unknown mode"),
    (lambda: ops.quantile(T(A), 1.5), r"q must lie in \[0, 1\]"),
    (lambda: ops.vector_norm(T(A), "fro"), "ord must be a number"),
    (lambda: ops.fftfreq(0), "n must be a positive int"),
    (lambda: ops.swiglu(T(A[:, :3])), "even size"),
    (lambda: ops.cartesian_prod(T(A)), "1-D"),
    (lambda: ops.eps(T(np.array([1], np.int32))), "float tensor"),
    (lambda: ops.matrix_diag_part(T(A), 0, 0, "UP"), "unknown align"),
    (lambda: ops.moe_token_permute(T(TOKENS), T(MOE_IDX), padded_mode=True), "padded_mode"),
    (lambda: ops.flash_attention_score(T(QKV[0]), T(QKV[1]), T(QKV[2]), 1, input_layout="TND"),
     "unsupported layout"),
    (lambda: ops.move_to(T(A), "TPU"), "unknown device"),
    (lambda: ops.SliceGetItem(slice(1), "size"), "start, stop and step"),
    (lambda: ops.random_(T(np.zeros(2, np.float32)), 5, 5), "from_ < to"),
])
def test_bad_arguments_raise_named_errors(call, message):
    with pytest.raises(SporelingError, match=message):
        call()


def test_ormqr_uses_the_complete_q_of_a_tall_matrix():
    tall = rng.standard_normal((2, 4, 2))  # a batch of 4 x 2 matrices
    h, tau = ops.geqrf(T(tall))
    full_q = np.stack([np.linalg.qr(m, "complete")[0] for m in tall])
    got = value(ops.ormqr(h, tau, T(np.broadcast_to(np.eye(4), (2, 4, 4)).copy())))
    # Q is unique up to the signs of its columns: compare |Q| and Q @ R
    np.testing.assert_allclose(np.abs(got), np.abs(full_q), atol=1e-10)
    np.testing.assert_allclose(got[..., :2] @ np.triu(value(h))[:, :2], tall, atol=1e-10)
    prim = ops.Ormqr(left=False, transpose=True)(h[0], tau[0], T(np.eye(4)))
    assert_matches(prim, got[0].T, atol=1e-10)
