"""The generated TVMScript texts run through TVM's IR builder line by line
(tir_text.parsed) make the very function TVM's parser makes of them."""
import pytest

from sporeling.tvm_backend import tir_text
from sporeling.tvm_backend.normalize import NormSpec
from sporeling.tvm_backend.pooling import PoolSpec
from sporeling.tvm_backend.rnn import RnnSpec
from sporeling.tvm_backend.softmax_ce import CeSpec
from sporeling.tvm_backend.target import tvm

SPECS = [
    RnnSpec("lstm", 4, 2, 5, 20, 2, 2, True, True, "float32", None),
    RnnSpec("lstm", 3, 1, 6, 16, 1, 1, False, False, "float32", (True, True, True)),
    RnnSpec("lstm", 3, 2, 5, 20, 2, 2, True, True, "float64", (True, False, True)),
    RnnSpec("gru", 4, 3, 7, 12, 2, 1, True, True, "float32", None),
    RnnSpec("gru", 4, 3, 7, 12, 1, 2, True, False, "float32", (True, True)),
    PoolSpec("max_pool2d", (8, 8), (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1), "float32"),
    PoolSpec("max_pool2d_scatter", (9, 7), (3, 3), (2, 1), ((1, 1), (1, 0)), (1, 2),
             "float64"),
    CeSpec("softmax_cross_entropy", 10, "float32", "int32", "mean", -100),
    CeSpec("softmax_cross_entropy", 7, "float64", "int64", "none", 3),
    CeSpec("softmax_cross_entropy_grad", 10, "float32", "int64", "sum", -100),
    NormSpec(33, "float32", 1e-5),
    NormSpec(64, "float64", 1e-12),
]


def _same(built, parsed):
    """Equal functions, up to what TVM's simplifier folds (TVM's parser keeps ``0 == 0``
    where Python's evaluation folds it to True)."""
    simplify = tvm().tirx.transform.StmtSimplify()
    tvm().ir.assert_structural_equal(simplify(tvm().IRModule({"main": built})),
                                     simplify(tvm().IRModule({"main": parsed})))


def _parsed_by_tvm(text):
    from tvm.script.parser import tirx
    return tvm().script.from_source(text, extra_vars={"T": tirx, "declare": tir_text.declare})


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.kind}")
def test_each_generated_text_makes_tvms_function(spec):
    text = spec.source()
    _same(tir_text._run(text), _parsed_by_tvm(text))


def test_a_line_of_another_form_goes_to_tvms_parser():
    lines = NormSpec(8, "float32", 1e-5).source().splitlines()
    at = next(k for k, line in enumerate(lines) if line.strip().startswith("for "))
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at:at] = [indent + "if True:", indent + "    T.evaluate(0)"]  # TVMScript's if
    text = "\n".join(lines)
    with pytest.raises(tir_text._Unknown):
        tir_text._run(text)
    _same(tir_text.parsed(text), _parsed_by_tvm(text))
