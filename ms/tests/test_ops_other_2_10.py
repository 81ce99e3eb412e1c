"""``ms.ops``'s other 2.10 names: the op-registration builders and ``DataType``, ``ops.Custom``
(pyfunc), the registries, ``ReduceOp``, ``ops.signature`` and the module paths
(``ops.P``, ``ops.auto_generate``, ``ops.array_ops``, ``ops.linalg_ops``)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sporeling.ms as ms
from sporeling.core.errors import ArgumentError, ShapeError
from sporeling.ms import ops
from sporeling.ms.common.eager import EagerOnlyError
from sporeling.ms.ops.primitives.custom import CustomFuncTypeError

DT = ops.DataType


# ------------------------------------------------------------------ registration builders

def test_tbe_reg_op_records_mindspore_keys():
    info = (ops.TBERegOp("Abs").fusion_type("ELEMWISE").async_flag(False)
            .binfile_name("abs.so").compute_cost(10).kernel_name("abs").partial_flag(True)
            .op_pattern("formatAgnostic").dynamic_shape(True).need_check_supported(True)
            .input(0, "x", None, "required", None).output(0, "y", True, "required", "all")
            .dtype_format(DT.F16_None, DT.F16_None).dtype_format(DT.F32_None, DT.F32_None)
            .get_op_info())
    assert info["op_name"] == "Abs" and info["imply_type"] == "TBE"
    assert info["binfile"] == "abs.so" and info["kernel"] == "abs"
    assert info["fusion_type"] == "ELEMWISE" and info["op_pattern"] == "formatAgnostic"
    assert info["dynamicShapeSupport"] is True and info["needCheckSupport"] is True
    assert info["inputs"] == [{"index": 0, "name": "x", "paramType": "required"}]
    assert info["outputs"] == [{"index": 0, "name": "y", "need_compile": True,
                                "paramType": "required", "shape": "all"}]
    assert info["dtype_format"] == [(("float16", ""), ("float16", "")),
                                    (("float32", ""), ("float32", ""))]


def test_cpu_aicpu_akg_and_custom_reg_ops():
    stack = (ops.AiCPURegOp("Stack").fusion_type("OPAQUE").attr("axis", "int")
             .input(0, "x", "dynamic").output(0, "y", "required")
             .dtype_format(DT.I8_Default, DT.I8_Default).get_op_info())
    assert stack["imply_type"] == "AiCPU" and stack["attr"] == [{"name": "axis", "type": "int"}]
    assert ops.CpuRegOp("Add").get_op_info()["imply_type"] == "CPU"
    assert ops.AkgGpuRegOp("A").get_op_info()["processor"] == "CUDA"
    assert ops.AkgAscendRegOp("A").get_op_info()["processor"] == "AiCore"
    custom = (ops.CustomRegOp().input(0, "x", "dynamic").output(0, "y")
              .dtype_format(DT.F32_Default, DT.F32_Default).target("CPU").get_op_info())
    assert custom["op_name"] == "Custom" and custom["target"] == "CPU"
    assert custom["outputs"] == [{"index": 0, "name": "y", "paramType": "required"}]
    assert ops.CustomRegOp().get_op_info()["target"] == "UnKnown"


def test_reg_op_arguments_are_checked():
    with pytest.raises(ArgumentError):
        ops.CpuRegOp("")
    with pytest.raises(ArgumentError):
        ops.CpuRegOp("Add").input("0", "x")
    with pytest.raises(ArgumentError, match="one .dtype, format. per input and output"):
        ops.CpuRegOp("Add").input(0, "x").output(0, "y").dtype_format(DT.F32_Default)
    with pytest.raises(ArgumentError):
        ops.TBERegOp("Abs").async_flag(1)
    with pytest.raises(ArgumentError, match="value_depend"):
        ops.TBERegOp("Abs").input(0, "x", value_depend="sometimes")


def test_data_type_table_matches_2_10():
    assert DT.F32_Default == ("float32", "DefaultFormat")
    assert DT.F16_5HD == ("float16", "NC1HWC0") and DT.I8_NDC1HWC0 == ("int8", "NDC1HWC0")
    assert DT.U64_Default_List == ("uint64", "DefaultFormat", "list")
    assert DT.C128_Default_Tuple == ("complex128", "DefaultFormat", "tuple")
    assert DT.F32_FracZNLSTM == ("float32", "FRACTAL_ZN_LSTM")
    assert not hasattr(DT, "F64_FracZNLSTM")  # only float16/float32 have the RNN formats
    assert len([k for k in vars(DT) if not k.startswith("_")]) == 184  # 2.10's count


def test_op_info_register_keeps_the_info_on_the_function():
    info = ops.CpuRegOp("MyOp").input(0, "x").output(0, "y").get_op_info()

    @ops.op_info_register(info)
    def _my_op():
        return 7
    assert _my_op() == 7 and _my_op.reg_info == (info,)


# --------------------------------------------------------------------------- ops.Custom

@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=4),
                  elements=st.floats(-10, 10, width=32)))
def test_custom_pyfunc_runs_numpy_and_casts_to_out_dtype(x):
    square_plus = ops.Custom(lambda a: a.astype(np.float64) ** 2 + 1,
                             out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pyfunc")
    out = square_plus(ms.Tensor(x))
    assert out.dtype == np.float32 and out.shape == x.shape
    np.testing.assert_allclose(out.asnumpy(), x.astype(np.float64) ** 2 + 1, rtol=1e-6)


def test_custom_pyfunc_several_outputs_and_shape_check():
    split = ops.Custom(lambda a: (a.sum(0), a.max(0)), out_shape=((3,), (3,)),
                       out_dtype=(ms.float32, ms.float32))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    total, top = split(ms.Tensor(x))
    np.testing.assert_array_equal(total.asnumpy(), x.sum(0))
    np.testing.assert_array_equal(top.asnumpy(), x.max(0))
    wrong = ops.Custom(lambda a: a, out_shape=(5,), out_dtype=ms.float32)
    with pytest.raises(ShapeError, match="out_shape"):
        wrong(ms.Tensor(x))


def test_custom_bprop_gives_the_gradient():
    cube = ops.Custom(lambda a: a ** 3, out_shape=(3,), out_dtype=ms.float32,
                      bprop=lambda a, out, dout: (3 * a * a * dout,))
    x = ms.Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    grad = ms.grad(lambda v: cube(v).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), 3 * x.asnumpy() ** 2)


def test_custom_without_bprop_or_under_jit_refuses():
    square = ops.Custom(lambda a: a * a, out_shape=(2,), out_dtype=ms.float32)
    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(EagerOnlyError, match="bprop"):
        ms.grad(lambda v: square(v).sum())(x)
    with pytest.raises(EagerOnlyError, match="Graph-mode"):
        ms.jit(lambda v: square(v))(x)


@pytest.mark.parametrize("kind", ["aot", "hybrid", "akg", "tbe", "julia", "aicpu"])
def test_custom_compiled_kinds_raise_a_named_error(kind):
    with pytest.raises(CustomFuncTypeError, match=repr(kind)):
        ops.Custom("kernel.so:fn", out_shape=(1,), out_dtype=ms.float32, func_type=kind)


def test_custom_unknown_kind_or_bad_func():
    with pytest.raises(ArgumentError, match="func_type"):
        ops.Custom(lambda a: a, func_type="magic")
    with pytest.raises(ArgumentError, match="callable"):
        ops.Custom("not callable", func_type="pyfunc")


# -------------------------------------------------------- registries, signature, modules

def test_vm_impl_registry_drives_get_vm_impl_fn():
    relu = ops.ReLU()
    assert ops.get_vm_impl_fn(relu) == relu.__call__
    ops.vm_impl_registry.register(ops.ReLU)(lambda prim: (lambda x: x * 0 + 42))
    try:
        assert ops.get_vm_impl_fn(relu)(1) == 42
    finally:
        ops.vm_impl_registry.pop("ReLU")


def test_tensor_operator_registry_falls_back_to_the_facade_ops():
    assert ops.tensor_operator_registry.get("add") is ops.add
    ops.tensor_operator_registry.register("my_op", ops.mul)
    try:
        assert ops.tensor_operator_registry.get("my_op") is ops.mul
    finally:
        ops.tensor_operator_registry.pop("my_op")
    assert ops.tensor_operator_registry.get("no_such_op") is None


def test_reduce_op_names_the_collective_reductions():
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD) == \
        ("sum", "max", "min", "prod")
    x = ms.Tensor(np.ones(2, np.float32))
    np.testing.assert_array_equal(ops.AllReduce(op=ops.ReduceOp.SUM)(x).asnumpy(), np.ones(2))


@pytest.fixture
def world(monkeypatch):
    """ms.communication's own world of one process (sporeling.parallel hidden)."""
    import sys
    monkeypatch.setitem(sys.modules, "sporeling.parallel", None)
    ops.init_process_group()
    yield
    ops.destroy_process_group()


def test_p2p_op_feeds_batch_isend_irecv(world):
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    send = ops.P2POp("isend", x, 0, tag=4)
    recv = ops.P2POp(ops.irecv, (3,), 0, tag=4, recv_dtype=ms.float32)
    assert recv.tensor.shape == (3,) and recv.tensor.dtype == np.float32
    ops.batch_isend_irecv([send, recv])
    np.testing.assert_array_equal(recv.tensor.asnumpy(), x.asnumpy())


def test_p2p_op_checks_its_arguments():
    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(ArgumentError, match="isend or irecv"):
        ops.P2POp("send", x, 0)
    with pytest.raises(ArgumentError, match="shape tuple"):
        ops.P2POp("isend", (2,), 0)
    with pytest.raises(ArgumentError, match="must be a Tensor"):
        ops.P2POp("irecv", [1, 2], 0)


def test_signature_make_sig():
    sig = ops.signature
    made = sig.make_sig("variable", sig.sig_rw.RW_WRITE, dtype=sig.sig_dtype.T)
    assert made.name == "variable" and made.rw is sig.sig_rw.RW_WRITE
    assert made.kind is sig.sig_kind.KIND_POSITIONAL_KEYWORD and made.dtype is sig.sig_dtype.T
    with pytest.raises(ValueError):
        sig.make_sig("x", rw=7)


def test_module_paths_re_export_the_facade():
    import sporeling.ms.ops.auto_generate as generated
    from sporeling.ms.ops.array_ops import Reshape
    from sporeling.ms.ops.linalg_ops import Svd
    assert ops.P is ops.operations and ops.P.ReduceSum is ops.ReduceSum
    assert generated.gen_ops_def.reshape is ops.reshape and generated.MatMul is ops.MatMul
    assert ops.gen_ops_prim.MatMul is ops.MatMul
    assert Reshape is ops.Reshape and Svd is ops.Svd
    for name in ("P", "auto_generate", "array_ops", "linalg_ops", "signature", "DataType",
                 "CustomRegOp", "vm_impl_registry", "Custom"):
        assert name in ops.__all__
