"""Issue 22, "what real programs hit first": the module paths model code imports
(tutorials, mindcv). Names checked against MindSpore 2.10's modules of the same path."""
import importlib

import numpy as np
import pytest

import sporeling.ms as ms

# (facade module, names MindSpore 2.10 exposes there that the facade must have)
PATHS = [
    ("sporeling.ms.ops.operations", ["ReduceSum", "MatMul", "Transpose", "Concat", "Softmax"]),
    ("sporeling.ms.ops.functional", ["reshape", "cast", "dtype", "shape", "depend",
                                     "stop_gradient", "tuple_to_array", "Primitive"]),
    ("sporeling.ms.ops.composite", ["GradOperation", "clip_by_value", "matmul", "ones_like"]),
    ("sporeling.ms.ops.primitive", ["Primitive", "constexpr"]),
    ("sporeling.ms.common.initializer", ["initializer", "Normal", "XavierUniform", "One"]),
    ("sporeling.ms.common.dtype", ["float32", "int32", "float16", "pytype_to_dtype"]),
    ("sporeling.ms.nn.layer", ["Dense", "Conv2d", "BatchNorm2d", "ReLU", "SequentialCell",
                               "LSTM", "Dropout", "Embedding"]),
]


@pytest.mark.parametrize("module,names", PATHS, ids=[p[0] for p in PATHS])
def test_module_paths_import(module, names):
    mod = importlib.import_module(module)
    for name in names:
        assert name in mod.__all__ and getattr(mod, name) is not None, name


def test_from_imports_as_model_code_writes_them():
    from sporeling.ms.ops import functional as F
    from sporeling.ms.ops import operations as P
    import sporeling.ms.ops.composite as C
    import sporeling.ms.ops.operations as P2
    import sporeling.ms.common.dtype as mstype
    from sporeling.ms.nn.layer import Dense
    assert P2 is P and ms.ops.operations is P and ms.nn.layer.Dense is ms.nn.Dense is Dense
    assert P.ReduceSum is ms.ops.ReduceSum and F.reshape is ms.ops.reshape
    assert C.GradOperation is ms.ops.GradOperation and mstype.float32 is ms.float32
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(P.ReduceSum()(x, 1).asnumpy(), [3.0, 7.0])
    # MindSpore 2.10: ops.cast(Tensor([1.5, 2.]), int32) -> [1, 2]; ops.dtype -> Float32
    assert F.cast(x, mstype.int32).asnumpy().tolist() == [[1, 2], [3, 4]]
    assert str(F.dtype(x)) == "Float32"
    # 2.10: grad of cast(a, float16).sum() is ones
    g = ms.grad(lambda a: F.cast(a, mstype.float16).sum())(ms.Tensor([1.5, 2.0]))
    np.testing.assert_allclose(g.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(C.GradOperation()(lambda a: (a * a).sum())(x).asnumpy(),
                               [[2.0, 4.0], [6.0, 8.0]])


def test_module_lists_follow_mindspore():
    from sporeling.ms.ops import composite as C, functional as F, operations as P
    # 2.10: GradOperation is in composite, not operations; no scatter_sub in functional
    assert "GradOperation" not in P.__all__ and "Primitive" not in P.__all__
    assert "scatter_sub" not in F.__all__
    # nn.layer has layers only: losses, optimizers, wrappers stay in nn
    for name in ("MSELoss", "Adam", "TrainOneStepCell", "Cell"):
        assert name not in ms.nn.layer.__all__
    assert {"HyperMap", "Map", "MultitypeFuncGraph"} <= set(C.__all__)  # 2.10 keeps them there


def test_constexpr_runs_on_constants():
    from sporeling.ms.ops.primitive import constexpr

    @constexpr
    def double(n):
        return 2 * n

    assert double(3) == 6
    assert constexpr(get_instance=False)(lambda: 1)() == 1
