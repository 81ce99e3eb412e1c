"""ops.arg_handler, ops.arg_dtype_cast, ops.gen_extend_func, ops.pyboost_inner_prim and
ops.cpp_create_prim_instance_helper against what 2.10 returns for the same input (its
sources under mindspore/ops/_utils and mindspore/ops/auto_generate, and the examples of
its docstrings)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import ops
from sporeling.ms.ops import arg_dtype_cast as C
from sporeling.ms.ops import arg_handler as H
from sporeling.ms.ops import cpp_create_prim_instance_helper as helper
from sporeling.ms.ops import gen_extend_func as G
from sporeling.ms.ops import pyboost_inner_prim as P


def test_modules_are_public_in_ops():
    for name in ("arg_dtype_cast", "arg_handler", "cpp_create_prim_instance_helper",
                 "gen_extend_func", "pyboost_inner_prim"):
        assert name in ops.__all__ and getattr(ops, name).__name__.endswith(name)
    assert ops.auto_generate.gen_extend_func is G


def test_arg_handler_spatial_converters():
    assert H.to_pair("op", "a", 3) == (3, 3)
    assert H.to_pair("op", "a", 1.5) == (1.5, 1.5)
    assert H.to_pair("op", "a", [1, 2]) == [1, 2]
    assert H.to_kernel_size("op", "k", 3) == (3, 3)
    assert H.to_kernel_size("op", "k", (1, 1, 2, 3)) == (2, 3)   # NCHW 4-tuple
    assert H.to_kernel_size("op", "k", (2, 3)) == (2, 3)
    assert H.to_strides("op", "s", (1, 1, 2, 2)) == (2, 2)
    assert H.to_dilations("op", "d", 2) == (2, 2)
    assert H.to_output_padding("op", "p", (0, 0, 1, 1)) == (1, 1)
    assert H.to_rates("op", "r", 4) == (4, 4)
    assert H.to_paddings("op", "p", 1) == (1, 1, 1, 1)
    assert H.to_2d_paddings("op", "p", 1) == (1, 1)
    assert H.to_3d_paddings("op", "p", 2) == (2,) * 6
    assert H.to_3d_kernel_size("op", "k", (1, 1, 2, 3, 4)) == (2, 3, 4)
    assert H.to_3d_strides("op", "s", 2) == (2, 2, 2)
    assert H.to_axis("op", "axis", None) is None
    assert H.to_axis("op", "axis", 1) == (1,)
    assert H.to_axis("op", "axis", [0, 2]) == (0, 2)
    with pytest.raises(ValueError, match="For 'conv', the value of 'k' is invalid: 'x'"):
        H.to_kernel_size("conv", "k", "x")


def test_arg_handler_enums_and_dtypes():
    assert H.dtype_to_type_id("op", "dtype", ms.float32) == 43
    assert H.dtype_to_type_id("op", "dtype", ms.int64) == 35
    assert H.dtype_to_type_id("op", "dtype", ms.bool_) == 30
    assert H.dtype_to_type_id("op", "dtype", ms.float16) == 42
    assert H.dtype_to_type_id("op", "dtype", ms.bfloat16) == 45
    with pytest.raises(TypeError, match="should be mindspore dtype"):
        H.dtype_to_type_id("op", "dtype", "float32")
    assert H.str_to_enum("nllloss", "reduction", "mean") == H.Reduction.MEAN == 1
    assert H.str_to_enum("nllloss", "reduction", "none") == 0
    assert H.str_to_enum("grid_sampler_2d", "padding_mode", "border") == 1
    assert H.str_to_enum("conv", "pad_mode", "valid") == 2
    assert H.str_to_enum("bias_add", "data_format", "NHWC") == H.Format.NHWC == 1
    assert H.str_to_enum("op", "reduction", None) is None
    with pytest.raises(ValueError):
        H.str_to_enum("nllloss", "reduction", "average")
    with pytest.raises(TypeError):
        H.str_to_enum("nllloss", "reduction", 1)
    seed, offset = H.generator_handler("op", "gen", (5, 7))
    assert seed.dtype == ms.int64 and int(seed) == 5 and int(offset) == 7


def test_arg_dtype_cast_type_it():
    assert C.OpDtype.DT_TUPLE_INT == 9 and C.DT_TENSOR_VAL == 5
    assert C.type_it("op", "x", [1, 2], C.DT_LIST_INT_VAL, C.DT_TUPLE_INT_VAL) == (1, 2)
    assert C.type_it("op", "x", 3, C.DT_INT_VAL, C.DT_TUPLE_INT_VAL) == (3,)
    assert C.type_it("op", "x", (1, 2), C.DT_TUPLE_INT_VAL, C.DT_LIST_INT_VAL) == [1, 2]
    f = C.type_it("op", "x", 2, C.DT_INT_VAL, C.DT_FLOAT_VAL)
    assert f == 2.0 and isinstance(f, float)
    t = C.type_it("op", "x", (1, 2, 3), C.DT_TUPLE_INT_VAL, C.DT_TENSOR_VAL)
    assert isinstance(t, ms.Tensor) and t.dtype == ms.int64
    np.testing.assert_array_equal(t.asnumpy(), [1, 2, 3])
    s = C.type_it("op", "x", 2, C.DT_INT_VAL, C.DT_TENSOR_VAL)
    assert s.dtype == ms.int32 and s.shape == () and int(s) == 2
    assert C.type_it("op", "x", 1.5, C.DT_FLOAT_VAL, C.DT_TENSOR_VAL).dtype == ms.float32
    assert C.type_it("op", "x", True, C.DT_BOOL_VAL, C.DT_TENSOR_VAL).dtype == ms.bool_
    n = C.type_it("op", "x", ms.Tensor(7, ms.int32), C.DT_TENSOR_VAL, C.DT_INT_VAL)
    assert n == 7 and isinstance(n, int)
    v = C.type_it("op", "x", ms.Tensor(2.5, ms.float64), C.DT_TENSOR_VAL, C.DT_NUMBER_VAL)
    assert v == 2.5 and isinstance(v, float)
    assert C.type_it("op", "x", ms.Tensor([3, 4], ms.int32), C.DT_TENSOR_VAL,
                     C.DT_TUPLE_INT_VAL) == (3, 4)
    assert C.type_it("op", "x", None, C.DT_INT_VAL, C.DT_TENSOR_VAL) is None
    assert C.type_it("op", "x", (1,), (C.DT_INT_VAL, C.DT_LIST_INT_VAL),
                     C.DT_TUPLE_INT_VAL) == (1,)      # already the target kind
    with pytest.raises(TypeError, match=r"For 'op', the type of 'x' should be one of "
                                        r"'\[int, tuple of int\]'"):
        C.type_it("op", "x", "a", C.DT_INT_VAL, C.DT_TUPLE_INT_VAL)


def test_arg_dtype_cast_helpers():
    assert C.tuple_to_list((1, 2)) == [1, 2] and C.list_to_tuple([1, 2]) == (1, 2)
    assert C.is_sequence_shape_unknown((1, 2)) is False
    assert C.is_integral_mstype(ms.int32) and not C.is_integral_mstype(ms.float32)
    assert C.is_floating_point_mstype(ms.float16)
    assert C.is_instance_of(ms.Tensor([1]), C.DT_TENSOR_VAL)
    assert C.is_instance_in(1.0, (C.DT_INT_VAL, C.DT_FLOAT_VAL))
    assert C.normalize_int_sequence("op", "s", (1, ms.Tensor(2, ms.int32))) == (1, 2)
    with pytest.raises(ValueError, match="should be integral tensor"):
        C.normalize_int_tensor("op", "s", ms.Tensor(1.0))
    assert C.get_support_dtype_list((C.DT_INT_VAL, C.DT_LIST_INT_VAL), C.DT_TUPLE_INT_VAL) \
        == "int, list of int, tuple of int"


def _t(a, dtype=ms.float32):
    return ms.Tensor(np.array(a), dtype)


def test_gen_extend_func_docstring_examples():
    x = _t([[1, 20, 5], [67, 8, 9], [130, 24, 15]])
    assert int(G.argmax(x)) == 6
    np.testing.assert_array_equal(G.argmax(x, dim=-1).asnumpy(), [1, 0, 0])
    np.testing.assert_array_equal(G.argmin(x, dim=-1).asnumpy(), [0, 1, 2])
    out = G.add(ms.Tensor(1, ms.int32), _t([4, 5, 6]), 0.5)
    np.testing.assert_allclose(out.asnumpy(), [3.0, 3.5, 4.0])
    assert out.dtype == ms.float32
    np.testing.assert_allclose(G.sub(_t([4, 5, 6]), ms.Tensor(1, ms.int32), 0.5).asnumpy(),
                               [3.5, 4.5, 5.5])
    c = _t([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]])
    np.testing.assert_allclose(G.cumsum(c, 1).asnumpy(),
                               [[3, 7, 13, 23], [1, 7, 14, 23], [4, 7, 15, 22], [1, 4, 11, 20]])
    np.testing.assert_allclose(G.matrix_inverse(_t([[1., 2.], [3., 4.]])).asnumpy(),
                               [[-2, 1], [1.5, -0.5]], rtol=1e-5)
    np.testing.assert_allclose(G.histc(_t([1., 2, 1]), bins=4, min=0, max=3).asnumpy(),
                               [0, 2, 1, 0])
    np.testing.assert_allclose(G.elu(_t([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]])).asnumpy(),
                               [[-0.63212055, 4., -0.99966455], [2., -0.99326205, 9.]],
                               rtol=1e-6)
    np.testing.assert_allclose(
        G.leaky_relu(_t([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), negative_slope=0.2).asnumpy(),
        [[-0.2, 4., -1.6], [2., -1., 9.]], rtol=1e-6)
    np.testing.assert_allclose(G.log_softmax(_t([1, 2, 3, 4, 5]), dim=-1).asnumpy(),
                               [-4.4519143, -3.4519143, -2.4519143, -1.4519144, -0.4519144],
                               rtol=1e-6)
    np.testing.assert_allclose(G.stack([_t([0, 1]), _t([2, 3])], 0).asnumpy(), [[0, 1], [2, 3]])
    np.testing.assert_allclose(G.softplus(_t([0.1, 0.2, 30, 25])).asnumpy(),
                               [0.74439657, 0.7981388, 30., 25.], rtol=1e-6)
    np.testing.assert_allclose(G.mse_loss(_t([1, 2, 3]), _t([[1, 1, 1], [1, 2, 2]]),
                                          reduction="none").asnumpy(), [[0, 1, 4], [0, 0, 1]])
    assert float(G.l1_loss(_t([[1, 2, 3], [4, 5, 6]]), _t([[6, 5, 4], [3, 2, 1]]))) == 3.0
    np.testing.assert_allclose(G.atan2(_t([0, 1]), _t([1, 1])).asnumpy(), [0., 0.7853982],
                               rtol=1e-6)
    a = ms.Tensor(np.array([8, 2, 1, 5, 9, 3, 4, 6, 7]).reshape(3, 3), ms.float16)
    np.testing.assert_array_equal(G.argsort(a).asnumpy(), [[2, 1, 0], [2, 0, 1], [0, 1, 2]])
    values, indices = G.sort(_t([3., 1., 2.]), descending=True)
    np.testing.assert_array_equal(indices.asnumpy(), [0, 2, 1])
    np.testing.assert_array_equal(G.bincount(ms.Tensor(np.array([0, 1, 1, 3, 2, 1, 7]))).asnumpy(),
                                  [1, 3, 1, 1, 0, 0, 0, 1])
    vals, idx = G.cummin(_t([-0.2284, -0.6628, 0.0975, 0.2680, -1.3298, -0.4220]), dim=0)
    np.testing.assert_array_equal(idx.asnumpy(), [0, 1, 1, 1, 4, 4])
    assert float(G.trace(_t([[10, 11, 12], [13, 14, 15], [16, 17, 18]]))) == 42.0
    assert G.flatten(ms.Tensor(np.ones((1, 2, 3, 4)), ms.float32)).shape == (24,)
    s = _t(np.arange(1, 7).reshape(2, 3))
    np.testing.assert_allclose(G.sum(s, dim=1).asnumpy(), [6, 15])
    np.testing.assert_allclose(G.mean(s, 0, True).asnumpy(), [[2.5, 3.5, 4.5]])
    np.testing.assert_allclose(G.prod(s, 1).asnumpy(), [6, 120])


def test_pyboost_inner_prim_positional_kernels():
    x = _t(np.arange(6.).reshape(2, 3))
    assert P.concat_impl([x, x], 0).shape == (4, 3)
    assert float(P.reduce_max_impl(x, (), False)) == 5.0          # () = every axis
    np.testing.assert_allclose(P.reduce_min_impl(x, (1,), True).asnumpy(), [[0], [3]])
    assert bool(P.reduce_any_impl(x, (), False)) is True
    parts = P.split_impl(x, 1, 3)
    assert len(parts) == 3 and parts[2].shape == (2, 1)
    np.testing.assert_allclose(P.matmul_impl(x, x, False, True).asnumpy(),
                               x.asnumpy() @ x.asnumpy().T)
    np.testing.assert_allclose(P.softmax_impl(x, (-1,)).asnumpy().sum(-1), [1, 1], rtol=1e-6)
    np.testing.assert_allclose(float(P.smooth_l1_loss_impl(x, x + 2, 1.0, "mean")), 1.5)
    np.testing.assert_allclose(P.reverse_v2_impl(x, [1]).asnumpy(), x.asnumpy()[:, ::-1])
    np.testing.assert_allclose(P.hshrink_impl(_t([-1., 0.2, 2.]), 0.5).asnumpy(), [-1, 0, 2])
    assert repr(P.concat_impl) == "Prim[Concat]"
    assert all(name.endswith("_impl") for name in P.__all__)


def test_cpp_create_prim_instance_helper_tables():
    d = helper.op_args_default_value
    assert d["Concat"] == {"axis": 0}                 # as 2.10's table
    assert d["SmoothL1Loss"] == {"beta": 1.0, "reduction": "none"}
    assert d["ReduceSum"]["keep_dims"] is False
    assert all(hasattr(ops, name) for name in d)
    assert helper.op_labels["Assign"] == {"side_effect_mem": True}
    assert helper.op_labels["Dropout"] == {"side_effect_hidden": True}
    assert all(hasattr(ops, name) for name in helper.op_labels)
