"""More of ``mindspore.__all__``: ``QuantDtype`` and ``load_segmented_checkpoints``."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core.errors import ArgumentError


def test_quant_dtype_values_as_2_10_serializes_them():
    q = ms.QuantDtype
    assert len(q) == 32 and q.INT1.value() == 0 and q.INT8.value() == 7
    assert q.UINT1.value() == 100 and q.UINT16.value() == 115
    assert q(107) is q.UINT8 and str(q.INT4) == "INT4"
    assert ms.dtype.QuantDtype is q and "QuantDtype" in ms.__all__


class _Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="w")
        self.b = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="b")


def test_load_segmented_checkpoints_merges_every_file(tmp_path):
    w = ms.Parameter(ms.Tensor(np.arange(3, dtype=np.float32)), name="w")
    b = ms.Parameter(ms.Tensor(np.array([5, 6], np.float32)), name="b")
    ms.save_checkpoint([{"name": "w", "data": w}], str(tmp_path / "part0.ckpt"))
    ms.save_checkpoint([{"name": "b", "data": b}], str(tmp_path / "part1.ckpt"))
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    net = _Net()
    loaded = ms.load_segmented_checkpoints(str(tmp_path), net)
    assert sorted(loaded) == ["b", "w"]
    np.testing.assert_array_equal(net.w.asnumpy(), [0, 1, 2])
    np.testing.assert_array_equal(net.b.asnumpy(), [5, 6])
    # as in 2.10, each file is filtered on its own: a file left empty is an error
    with pytest.raises(ValueError, match="empty after filter"):
        ms.load_segmented_checkpoints(str(tmp_path), specify_prefix="w")


def test_load_segmented_checkpoints_checks_the_directory(tmp_path):
    with pytest.raises(ArgumentError, match="must be a str"):
        ms.load_segmented_checkpoints(tmp_path)
    with pytest.raises(ArgumentError, match="not a directory"):
        ms.load_segmented_checkpoints(str(tmp_path / "missing"))
    assert ms.load_segmented_checkpoints(str(tmp_path)) == {}
