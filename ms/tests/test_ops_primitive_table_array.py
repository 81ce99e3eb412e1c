"""The table-driven array, indexing, scatter/gather, segment and sparse primitive classes
(ops/primitives/array_table.py): each made with its defaults and called on small inputs,
against NumPy."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import ops

from array_nn_checks import T, value

RNG = np.random.default_rng(11)
X = np.arange(12, dtype=np.float64).reshape(3, 4)
IMG = RNG.standard_normal((1, 4, 4, 4))
SEG = np.array([0, 0, 2])
IDX = np.array([[0, 1], [2, 3]])
UPD = np.array([10.0, 20.0])


def _param(a):
    return ms.Parameter(T(np.asarray(a, np.float64).copy()), name="p")


def _scatter_rows(kind):
    base = X.copy()
    rows = np.array([0, 2])
    upd = np.ones((2, 4)) * 3
    fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
          "Max": np.maximum, "Min": np.minimum, "Update": lambda a, b: b}[kind]
    base[rows] = fn(base[rows], upd)
    return base


def _scatter_nd(kind):
    base = X.copy()
    fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
          "Max": np.maximum, "Min": np.minimum, "Update": lambda a, b: b}[kind]
    for (i, j), u in zip(IDX, UPD):
        base[i, j] = fn(base[i, j], u)
    return base


def _depth_to_space(a, b):
    n, c, h, w = a.shape
    y = a.reshape(n, b, b, c // b ** 2, h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(n, c // b ** 2, h * b, w * b)


def _nd_only():
    out = np.zeros((3, 4))
    out[0, 1], out[2, 3] = UPD
    return out


def _put(a, index, values):
    out = a.copy()
    out[index] = values
    return out


CASES = [
    ("AccumulateNV2", lambda: ops.AccumulateNV2()((T(X), T(X))), 2 * X),
    ("AssignSub", lambda: ops.AssignSub()(_param(X), T(X)), 0 * X),
    ("BatchToSpace",
        lambda: ops.BatchToSpace(2, [[0, 0], [0, 0]])(T(IMG.reshape(4, 1, 2, 8)[:, :, :, :2])),
     value(ops.batch_to_space_nd(T(IMG.reshape(4, 1, 2, 8)[:, :, :, :2]), (2, 2),
         [[0, 0], [0, 0]]))),
    ("BatchToSpaceND",
        lambda: ops.BatchToSpaceND([2, 2], [[0, 0], [0, 0]])(T(IMG.reshape(4, 1, 2, 8)[..., :2])),
     value(ops.batch_to_space_nd(T(IMG.reshape(4, 1, 2, 8)[..., :2]), (2, 2), [[0, 0], [0, 0]]))),
    ("BatchToSpaceNDV2", lambda: ops.BatchToSpaceNDV2()(T(IMG.reshape(4, 1, 2, 8)[..., :2]),
                                                        T(np.array([2, 2])), T(np.zeros((2, 2),
                                                            np.int64))),
     value(ops.batch_to_space_nd(T(IMG.reshape(4, 1, 2, 8)[..., :2]), (2, 2), [[0, 0], [0, 0]]))),
    ("SpaceToBatch", lambda: ops.SpaceToBatch(2, [[0, 0], [0, 0]])(T(IMG)),
     value(ops.space_to_batch_nd(T(IMG), (2, 2), [[0, 0], [0, 0]]))),
    ("SpaceToBatchND", lambda: ops.SpaceToBatchND([2, 2], [[0, 0], [0, 0]])(T(IMG)),
     value(ops.space_to_batch_nd(T(IMG), (2, 2), [[0, 0], [0, 0]]))),
    ("DepthToSpace", lambda: ops.DepthToSpace(2)(T(IMG)), _depth_to_space(IMG, 2)),
    ("SpaceToDepth_roundtrip", lambda: ops.DepthToSpace(2)(ops.SpaceToDepth(2)(T(IMG))), IMG),
    ("DataFormatDimMap", lambda: ops.DataFormatDimMap()(T(np.array([0, 1, 2, 3, -1]))),
     [0, 2, 3, 1, 1]),
    ("DataFormatVecPermute", lambda: ops.DataFormatVecPermute()(T(np.array([1, 2, 3, 4]))),
     [1, 4, 2, 3]),
    ("DynamicShape", lambda: ops.DynamicShape()(T(X)), [3, 4]),
    ("TensorShape", lambda: ops.TensorShape()(T(X)), [3, 4]),
    ("Rank", lambda: ops.Rank()(T(X)), 2), ("Size", lambda: ops.Size()(T(X)), 12),
    ("Expand", lambda: ops.Expand()(T(X[:1]), T(np.array([2, 4]))), np.broadcast_to(X[:1], (2, 4))),
    ("ExtractImagePatches",
        lambda: ops.ExtractImagePatches([1, 1, 2, 2], [1, 1, 2, 2], [1, 1, 1, 1])(
        T(IMG)), IMG.reshape(1, 4, 2, 2, 2, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 16, 2, 2)),
    ("ExtractVolumePatches", lambda: ops.ExtractVolumePatches([1, 1, 1, 2, 2], [1, 1, 1, 2, 2])(
        T(IMG[None])), IMG[None].reshape(1, 1, 4, 2, 2, 2, 2).transpose(0, 4, 6, 1, 2, 3, 5)
     .reshape(1, 4, 4, 2, 2)),
    ("Im2Col", lambda: ops.Im2Col(2, 2)(T(IMG)), value(ops.unfold(T(IMG), 2, 1, 0, 2))),
    ("Col2Im", lambda: ops.Col2Im(2, 1, 0, 2)(ops.Im2Col(2, 2)(T(IMG)), T(np.array([4, 4]))), IMG),
    ("GatherD", lambda: ops.GatherD()(T(X), 1, T(np.array([[0, 0], [1, 0], [3, 2]]))),
     np.take_along_axis(X, np.array([[0, 0], [1, 0], [3, 2]]), 1)),
    ("GatherNd", lambda: ops.GatherNd()(T(X), T(IDX)), X[IDX[:, 0], IDX[:, 1]]),
    ("GatherV2", lambda: ops.GatherV2()(T(X), T(np.array([2, 0])), 0), X[[2, 0]]),
    ("SparseGatherV2", lambda: ops.SparseGatherV2()(T(X), T(np.array([1])), 1), X[:, [1]]),
    ("IndexAdd",
        lambda: ops.IndexAdd(0)(_param(X), T(np.array([0, 2], np.int32)), T(np.ones((2, 4)))),
     X + np.array([1, 0, 1])[:, None]),
    ("IndexFill", lambda: ops.IndexFill()(T(X), 1, T(np.array([0, 3], np.int32)),
        T(np.array(-1.0))),
     np.where(np.isin(np.arange(4), [0, 3]), -1.0, X)),
    ("IndexPut", lambda: ops.IndexPut()(T(X), T(np.array([5.0, 6.0])), (T(np.array([0, 2])),
        T(np.array([1, 3])))),
     _put(X, ([0, 2], [1, 3]), [5.0, 6.0])),
    ("InplaceAdd", lambda: ops.InplaceAdd((0, 2))(T(X), T(np.ones((2, 4)))),
        X + np.array([1, 0, 1])[:, None]),
    ("InplaceSub", lambda: ops.InplaceSub((1,))(T(X), T(np.ones((1, 4)))),
        X - np.array([0, 1, 0])[:, None]),
    ("InplaceUpdate", lambda: ops.InplaceUpdate((1,))(T(X), T(np.zeros((1, 4)))),
        X * np.array([1, 0, 1])[:, None]),
    ("InplaceUpdateV2", lambda: ops.InplaceUpdateV2()(T(X), (1,), T(np.zeros((1, 4)))),
     X * np.array([1, 0, 1])[:, None]),
    ("InplaceIndexAdd", lambda: ops.InplaceIndexAdd(0)(_param(X), T(np.array([1], np.int32)),
        T(np.ones((1, 4)))),
     X + np.array([0, 1, 0])[:, None]),
    ("MaskedFill", lambda: ops.MaskedFill()(T(X), T(X > 5), T(np.array(0.0))),
        np.where(X > 5, 0, X)),
    ("MaskedScatter", lambda: ops.MaskedScatter()(T(X), T(X > 8), T(np.array([-1.0, -2.0, -3.0]))),
     np.where(X > 8, np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -3.0]).reshape(3, 4), X)),
    ("MaskedSelect", lambda: ops.MaskedSelect()(T(X), T(X > 8)), X[X > 8]),
    ("MirrorPad", lambda: ops.MirrorPad()(T(X), T(np.array([[1, 1], [0, 2]]))),
     np.pad(X, [(1, 1), (0, 2)], "reflect")),
    ("MirrorPad_symmetric", lambda: ops.MirrorPad("SYMMETRIC")(T(X), T(np.array([[1, 0], [2, 0]]))),
     np.pad(X, [(1, 0), (2, 0)], "symmetric")),
    ("PadV3", lambda: ops.PadV3()(T(X), T(np.array([1, 2])), T(np.array(7.0))),
     np.pad(X, [(0, 0), (1, 2)], constant_values=7.0)),
    ("Padding", lambda: ops.Padding(3)(T(X[:, :1])), np.pad(X[:, :1], [(0, 0), (0, 2)])),
    ("Pack", lambda: ops.Pack(1)((T(X), T(X))), np.stack([X, X], 1)),
    ("Unpack", lambda: ops.Unpack()(T(X)), tuple(X)),
    ("ParallelConcat", lambda: ops.ParallelConcat()((T(X[:1]), T(X[1:]))), X),
    ("ReverseSequence", lambda: ops.ReverseSequence(1)(T(X), T(np.array([2, 3, 4]))),
     np.stack([np.r_[X[0, :2][::-1], X[0, 2:]], np.r_[X[1, :3][::-1], X[1, 3:]], X[2, ::-1]])),
    ("ReverseV2", lambda: ops.ReverseV2((1,))(T(X)), X[:, ::-1]),
    ("Roll", lambda: ops.Roll(1, 1)(T(X)), np.roll(X, 1, 1)),
    ("ScalarCast", lambda: ops.ScalarCast()(2.7, ms.int32), 2),
    ("ScalarToArray", lambda: ops.ScalarToArray()(1.5), 1.5),
    ("ScalarToTensor", lambda: ops.ScalarToTensor()(3, ms.float32), 3.0),
    ("TupleToArray", lambda: ops.TupleToArray()((1.0, 2.0)), [1.0, 2.0]),
    ("TensorToTuple", lambda: np.array(ops.TensorToTuple()(T(X[0]))), X[0]),
    *((f"Scatter{k}", (lambda k=k: getattr(ops, f"Scatter{k}")()(
        _param(X), T(np.array([0, 2], np.int32)), T(np.ones((2, 4)) * 3))), _scatter_rows(k))
      for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")),
    *((f"ScatterNd{k}", (lambda k=k: getattr(ops, f"ScatterNd{k}")()(
        _param(X), T(IDX), T(UPD))), _scatter_nd(k))
      for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")),
    *((f"TensorScatter{k}", (lambda k=k: getattr(ops, f"TensorScatter{k}")()(
        T(X), T(IDX), T(UPD))), _scatter_nd(k))
      for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")),
    ("ScatterAddWithAxis", lambda: ops.ScatterAddWithAxis(1)(
        T(X), T(np.array([[0], [1], [0]])), T(np.ones((3, 1)))),
            X + np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]])),
    ("ScatterNd", lambda: ops.ScatterNd()(T(IDX), T(UPD), (3, 4)),
        _scatter_nd("Update") * 0 + _nd_only()),
    ("ScatterNonAliasingAdd", lambda: ops.ScatterNonAliasingAdd()(_param(X), T(IDX), T(UPD)),
        _scatter_nd("Add")),
    ("TensorScatterElements", lambda: ops.TensorScatterElements(1)(
        T(X), T(np.array([[1], [0], [3]])), T(np.zeros((3, 1)))),
     np.where(np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]]) > 0, 0, X)),
    ("SplitV", lambda: ops.SplitV([1, -1], 1, 2)(T(X)), (X[:, :1], X[:, 1:])),
    ("StopGradient", lambda: ops.StopGradient()(T(X)), X),
    ("UnravelIndex", lambda: ops.UnravelIndex()(T(np.array([5, 7])), T(np.array([3, 4]))),
     np.stack(np.unravel_index([5, 7], (3, 4)))),
    ("UnsortedSegmentSum", lambda: ops.UnsortedSegmentSum()(T(X), T(np.array([1, 0, 1])), 3),
     [X[1], X[0] + X[2], 0 * X[0]]),
    ("UnsortedSegmentMax", lambda: ops.UnsortedSegmentMax()(T(X), T(np.array([1, 0, 1])), 2),
     [X[1], X[2]]),
    ("UnsortedSegmentMin", lambda: ops.UnsortedSegmentMin()(T(X), T(np.array([1, 0, 1])), 2),
     [X[1], X[0]]),
    ("UnsortedSegmentProd", lambda: ops.UnsortedSegmentProd()(T(X), T(np.array([1, 0, 1])), 2),
     [X[1], X[0] * X[2]]),
    ("SegmentSum", lambda: ops.SegmentSum()(T(X), T(SEG)), [X[0] + X[1], 0 * X[0], X[2]]),
    ("SegmentProd", lambda: ops.SegmentProd()(T(X), T(SEG)), [X[0] * X[1], 1 + 0 * X[0], X[2]]),
    ("SegmentMean", lambda: ops.SegmentMean()(T(X), T(SEG)), [(X[0] + X[1]) / 2, 0 * X[0], X[2]]),
    ("SegmentMax", lambda: ops.SegmentMax()(T(X), T(SEG)), [X[1], 0 * X[0], X[2]]),
    ("SegmentMin", lambda: ops.SegmentMin()(T(X), T(SEG)), [X[0], 0 * X[0], X[2]]),
    ("EmbeddingLookup", lambda: ops.EmbeddingLookup()(T(X), T(np.array([1, 5, 2])), 1),
     [X[0], 0 * X[0], X[1]]),
    ("SparseToDense", lambda: ops.SparseToDense()(T(IDX), T(UPD), (3, 4)), _nd_only()),
    ("SparseTensorDenseAdd", lambda: ops.SparseTensorDenseAdd()(T(IDX), T(UPD), (3, 4), T(X)),
     X + _nd_only()),
    ("SparseTensorDenseMatmul", lambda: ops.SparseTensorDenseMatmul()(T(IDX), T(UPD), (3, 4),
        T(X.T)),
     _nd_only() @ X.T),
    ("SparseSlice",
        lambda: ops.SparseSlice()(T(IDX), T(UPD), T(np.array([3, 4])), T(np.array([1, 2])),
                                              T(np.array([2, 2]))), ([[1, 1]], [20.0], [2, 2])),
    ("Coalesce",
        lambda: ops.Coalesce()(T(np.array([[0, 0, 1], [1, 1, 0]])), T(np.array([1.0, 2.0, 3.0])),
                                        T(np.array([2, 2]))),
                                            ([[0, 1], [1, 0]], [3.0, 3.0], [2, 2])),
    ("NthElement", lambda: ops.NthElement()(T(X[:, ::-1].copy()), 1), X[:, 1]),
    ("InTopK", lambda: ops.InTopK(2)(T(X.astype(np.float32)), T(np.array([3, 0, 2], np.int32))),
     [True, False, True]),
    ("IdentityN", lambda: ops.IdentityN()((T(X), T(X[0]))), (X, X[0])),
    ("EditDistance", lambda: ops.EditDistance(False)(
        T(np.array([[0, 0], [0, 1]])), T(np.array([1, 2])), T(np.array([1, 2])),
        T(np.array([[0, 0], [0, 1], [0, 2]])), T(np.array([1, 3, 2])), T(np.array([1, 3]))), [1.0]),
    ("ConfusionMatrix",
        lambda: ops.ConfusionMatrix(3)(T(np.array([0, 1, 1, 2])), T(np.array([0, 2, 1, 2]))),
     [[1, 0, 0], [0, 1, 1], [0, 0, 1]]),
    ("NoRepeatNGram", lambda: ops.NoRepeatNGram(2)(T(np.array([[1, 2, 1]])), T(np.zeros((1, 4)))),
     [[0, 0, -np.finfo(np.float64).max, 0]]),
    ("CompareAndBitpack", lambda: ops.CompareAndBitpack()(T(np.arange(8.0)), T(np.array(3.0))),
        [15]),
    ("SubAndFilter", lambda: ops.SubAndFilter()(T(np.array([1, 5, 3, 9])), 5, 1),
        ([0, 4, 2], [0, 1, 2])),
    ("Merge", lambda: ops.Merge()((T(X), T(X + 1))), (X, 0)),
    ("GeSwitch", lambda: ops.GeSwitch()(T(X), T(np.array(True))), (0 * X, X)),
]


def _compare(got, expected):
    got = value(got)
    if isinstance(expected, (tuple, list)) and expected and isinstance(got, (tuple, list)):
        for g, e in zip(got, expected):
            _compare(g, e)
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected, np.float64),
                               rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    _compare(call(), expected)


def test_parameter_classes_update_in_place():
    p = _param(X)
    ops.ScatterAdd()(p, T(np.array([1], np.int32)), T(np.ones((1, 4))))
    np.testing.assert_allclose(value(p), X + np.array([0, 1, 0])[:, None])


def test_dtype_class():
    assert ops.DType()(T(X.astype(np.float32))) == ms.float32


def test_gradients_flow_through_classes():
    x = T(X)
    for fn in (lambda a: ops.GatherNd()(a, T(IDX)),
               lambda a: ops.MirrorPad()(a, T(np.array([[1, 1], [1, 1]]))),
               lambda a: ops.SegmentMean()(a, T(SEG)),
               lambda a: ops.ExtractImagePatches([1, 1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1])(
                   ops.Reshape()(a, (1, 1, 3, 4)))):
        _, grad = ms.value_and_grad(lambda a: ops.ReduceSum()(fn(a) * fn(a)))(x)
        assert np.all(np.isfinite(value(grad))) and np.any(value(grad) != 0)


def test_eager_only_classes_refuse_gradients_and_are_listed():
    from sporeling.ms.common import EagerOnlyError
    assert ops.IndexPut.__ms_eager_only__ and ops.Unique.__ms_eager_only__
    assert not getattr(ops.GatherNd, "__ms_eager_only__", False)
    put = ops.IndexPut()
    with pytest.raises(EagerOnlyError, match="ops.IndexPut"):
        ms.grad(lambda a: ops.ReduceSum()(put(a, T(np.array([1.0])), (T(np.array([0])),))))(T(X))
