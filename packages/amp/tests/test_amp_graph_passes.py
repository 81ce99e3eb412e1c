"""Graph mode: amp_level in the context converts compiled graphs (cast insertion) and no
cast round trip that cancels remains (cast elimination), counted in the dumped IR."""
import re

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler.passes import registered_passes
from sporeling.expression import nn, ops
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.optim import Adam

from amp_helpers import SmallCNN, accuracy, digits_like

_CAST = re.compile(r"(%\d+): (\w+)\[.*?\] = cast\((%\d+), dtype=(\w+)\)")
_DEF = re.compile(r"(%\d+): (\w+)\[")


def _casts(text):
    """``[(out, out dtype, input)]`` of the cast lines, and every value's dtype."""
    dtypes = dict(_DEF.findall(text))
    return [(m[0], m[1], m[2]) for m in _CAST.findall(text)], dtypes


def _cancelling_pairs(text):
    casts, dtypes = _casts(text)
    made_by_cast = {out: src for out, _, src in casts}
    pairs = 0
    for out, dt, src in casts:
        first = made_by_cast.get(src)
        if first is not None and np.can_cast(dtypes.get(first, "float64"),
                                              dtypes[src], "safe"):
            pairs += 1
    return pairs


def _train(level, tmp_path=None, steps=36):
    sx.set_seed(0)
    x, y, xt, yt = digits_like()
    net = SmallCNN()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), Adam(net.trainable_params(), 0.01))
    options = {"save_graphs": str(tmp_path)} if tmp_path else {}
    sx.set_context(mode=sx.GRAPH_MODE, amp_level=level, **options)
    try:
        step.set_train(True)
        for i in range(steps):
            j = (i * 50) % 600
            step(x[j:j + 50], y[j:j + 50])
        return accuracy(net, xt, yt), step
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE, amp_level="O0", save_graphs=False)


def test_the_passes_are_registered_through_the_hook():
    passes = registered_passes()
    assert passes["amp_cast_insertion"].stage == "canonicalize"
    assert passes["amp_cast_elimination"].stage == "simplify"


def test_o2_graph_has_no_cancelling_casts_in_the_dumped_ir(tmp_path):
    _train("O2", tmp_path, steps=1)
    (folder,) = [d for d in tmp_path.iterdir() if "TrainOneStepCell" in d.name]
    files = sorted(folder.iterdir())
    inserted = next(f for f in files if f.name.endswith("amp_cast_insertion_after.ir"))
    first_elim = next(f for f in files if f.name.endswith("amp_cast_elimination_after.ir"))
    final = [f for f in files if f.name.endswith("_after.ir")][-1]
    assert _cancelling_pairs(inserted.read_text()) > 10    # the insertion's round trips
    assert _cancelling_pairs(first_elim.read_text()) == 0  # gone after one elimination
    assert _cancelling_pairs(final.read_text()) == 0
    n_inserted = len(_casts(inserted.read_text())[0])
    n_final = len(_casts(final.read_text())[0])
    assert n_final < n_inserted / 2
    assert "conv2d(" in final.read_text() and "float16[50, 8, 8, 8] = conv2d" in \
        final.read_text()


@pytest.mark.parametrize("level", ["O1", "O2", "O3", "auto"])
def test_context_level_trains_like_float32(level):
    base, _ = _train("O0")
    acc, step = _train(level)
    assert base > 0.6 and abs(acc - base) <= 0.01, (level, acc, base)
    graph = cache_of(step).last_executable.graph
    dt = {eq.prim.name: str(eq.outputs[0].aval.dtype) for eq in graph.equations}
    assert dt["conv2d"] == "float16"


def test_o1_converts_only_the_white_list_and_jit_sees_it():
    @sx.jit
    def f(x, w):
        return ops.exp(ops.relu(x @ w)).sum()
    x = np.ones((2, 3), np.float32)
    w = np.full((3, 3), 0.1, np.float32)
    with sx.context(amp_level="O1", amp_dtype=sx.bfloat16):
        out = f(x, w)
    g = f.last_executable.graph
    kinds = {eq.prim.name: str(eq.outputs[0].aval.dtype) for eq in g.equations
             if eq.prim.name != "cast"}
    assert kinds["matmul"] == "bfloat16" and out.dtype == np.float32
    assert all(v != "bfloat16" for k, v in kinds.items() if k != "matmul")
    np.testing.assert_allclose(float(out), 6 * np.exp(0.3), rtol=1e-2)
