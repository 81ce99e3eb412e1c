"""Losses, as ``ms.ops`` functions and as ``ms.nn`` cells, with each reduction: forward and
the gradient w.r.t. the predictions (and targets where they are float)."""
from ..case import Case
from ..inputs import Input
from ._grid import tag

P = (4, 5)
REDUCTIONS = ("mean", "sum", "none")


def _pred_target(kind_pred="normal", kind_target="normal", shape=P):
    return (Input(shape, "float32", kind_pred), Input(shape, "float32", kind_target))


def _classes(shape=P, classes=5):
    return (Input(shape, "float32"), Input(shape[:1] + shape[2:], "int32", f"int:0:{classes}"))


# (function, cell, inputs, extra kwargs variants)
ROWS = [
    ("mse_loss", "MSELoss", _pred_target(), ({},)),
    ("l1_loss", "L1Loss", _pred_target(), ({},)),
    ("smooth_l1_loss", "SmoothL1Loss", _pred_target(), ({}, {"beta": 0.5})),
    ("huber_loss", "HuberLoss", _pred_target(), ({}, {"delta": 0.5})),
    ("cross_entropy", "CrossEntropyLoss", _classes(), ({}, {"label_smoothing": 0.1})),
    ("cross_entropy", "CrossEntropyLoss", _pred_target("normal", "prob"), ({},)),
    ("cross_entropy", "CrossEntropyLoss", _classes((2, 5, 3)), ({},)),
    ("nll_loss", "NLLLoss", _classes(), ({}, {"ignore_index": 1})),
    ("binary_cross_entropy", "BCELoss", _pred_target("prob", "prob"), ({},)),
    ("binary_cross_entropy_with_logits", "BCEWithLogitsLoss", _pred_target("normal", "prob"),
     ({},)),
    ("kl_div", "KLDivLoss", _pred_target("normal", "prob"), ({},)),
    ("soft_margin_loss", "SoftMarginLoss", (Input(P, "float32"), Input(P, "float32", "int:0:2")),
     ({},)),
    ("multilabel_soft_margin_loss", "MultiLabelSoftMarginLoss",
     (Input(P, "float32"), Input(P, "float32", "int:0:2")), ({},)),
    ("multi_margin_loss", "MultiMarginLoss", (Input(P, "float32"), Input((4,), "int64", "int:0:5")),
     ({}, {"p": 2, "margin": 2})),  # 2.10: an int margin
    ("gaussian_nll_loss", "GaussianNLLLoss",
     (Input(P, "float32"), Input(P, "float32"), Input(P, "float32", "pos")), ({}, {"full": True})),
    ("hinge_embedding_loss", "HingeEmbeddingLoss",
     (Input(P, "float32"), Input(P, "float32", "int:0:2")), ({},)),
    ("margin_ranking_loss", "MarginRankingLoss",
     (Input((6,), "float32"), Input((6,), "float32"), Input((6,), "float32", "int:0:2")),
     ({}, {"margin": 0.3})),
    ("cosine_embedding_loss", "CosineEmbeddingLoss",
     (Input((4, 3), "float32"), Input((4, 3), "float32"), Input((4,), "int32", "int:0:2")),
     ({}, {"margin": 0.2})),
    ("triplet_margin_loss", "TripletMarginLoss",
     (Input(P, "float32"), Input(P, "float32"), Input(P, "float32")), ({},)),
]
# cells MindSpore has with no function of the same arguments
CELL_ONLY = [
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True}, _classes()),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": False}, _pred_target("normal", "prob")),
    ("FocalLoss", {}, (Input((4, 5, 3), "float32"), Input((4, 1, 3), "int32", "int:0:5"))),
    ("DiceLoss", {}, _pred_target("prob", "prob")),
    ("RMSELoss", {}, _pred_target()),
    ("MAELoss", {}, _pred_target()),
    ("BCELoss", {"weight": None}, _pred_target("prob", "prob")),
]


_SIGNED = {"soft_margin_loss", "hinge_embedding_loss", "margin_ranking_loss",
           "cosine_embedding_loss"}


def _signed(inputs):
    """The label input of the margin losses: -1 or 1 (kind ``sign``)."""
    *rest, last = inputs
    return (*rest, Input(last.shape, last.dtype, "sign"))


def _cases():
    cases, counts = [], {}
    for fn, cell, inputs, extras in ROWS:
        if fn in _SIGNED:
            inputs = _signed(inputs)
        n = counts.get(fn, 0)
        counts[fn] = n + 1
        suffix = f"#{n}" if n else ""
        for extra in extras:
            for reduction in REDUCTIONS:
                kwargs = {**extra, "reduction": reduction}
                cases.append(Case(f"ops.{fn}{suffix}[{tag(kwargs)}]", f"ops.{fn}", inputs,
                                  kwargs))
                cases.append(Case(f"nn.{cell}{suffix}[{tag(kwargs)}]", f"nn.{cell}", inputs,
                                  init=kwargs, kind="cell"))
    for n, (cell, init, inputs) in enumerate(CELL_ONLY):
        cases.append(Case(f"nn.{cell}#{n}[{tag(init)}]", f"nn.{cell}", inputs, init=init,
                          kind="cell"))
    return cases


CASES = _cases()
