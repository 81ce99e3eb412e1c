import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import bind
from sporeling.compiler.ops.nn import softmax_cross_entropy as sce

rng = np.random.default_rng(3)
r = rng.standard_normal
TARGET = np.array([[0, 2], [1, -100]])
LABELS = np.array([2, 0, -100, 1])
PROBS = rng.dirichlet(np.ones(3), (2, 2)).transpose(0, 2, 1)  # (N=2, C=3, 2)

CASES = {
    "cross_entropy": [
        (lambda x: ops.cross_entropy(x, TARGET), [r((2, 3, 2))]),
        (lambda x, w: ops.cross_entropy(x, TARGET, weight=w, label_smoothing=0.2),
         [r((2, 3, 2)), rng.uniform(0.5, 2.0, (3,))]),
        (lambda x, p: ops.cross_entropy(x, p, reduction="sum", label_smoothing=0.1),
         [r((2, 3, 2)), PROBS]),
    ],
    "softmax_cross_entropy": [
        (lambda x: sce.softmax_cross_entropy(x, LABELS), [r((4, 3))]),
        (lambda x: sce.softmax_cross_entropy(x, TARGET, reduction="none"), [r((2, 3, 2))]),
        (lambda x: sce.softmax_cross_entropy(x, np.array(1), reduction="sum"), [r((3,))]),
    ],
    # the gradient's gradient, in the logits and the cotangent, for each reduction
    "softmax_cross_entropy_grad": [
        (lambda x, ct: bind(sce.softmax_cross_entropy_grad_p, x, LABELS, ct,
                            reduction="mean", ignore_index=-100), [r((4, 3)), np.array(0.7)]),
        (lambda x, ct: bind(sce.softmax_cross_entropy_grad_p, x, TARGET, ct,
                            reduction="none", ignore_index=-100), [r((2, 3, 2)), r((2, 2))]),
        (lambda x, ct: bind(sce.softmax_cross_entropy_grad_p, x, np.array(2), ct,
                            reduction="sum", ignore_index=-100), [r((3,)), np.array(1.3)]),
    ],
    "nll_loss": [(lambda x: ops.nll_loss(x, np.array([2, 0, 1]), reduction="none"),
                  [r((3, 3))])],
    "mse_loss": [(ops.mse_loss, [r((3, 4)), r((3, 4))])],
    "l1_loss": [(lambda x, t: ops.l1_loss(x, t, reduction="sum"), [r((3, 4)), r((3, 4))])],
    "smooth_l1_loss": [(lambda x: ops.smooth_l1_loss(x, np.array([0.2, -3.0, 1.0, 0.0]),
                                                     beta=0.5),
                        [np.array([0.3, -1.0, 1.1, 0.8])])],
    "binary_cross_entropy_with_logits": [
        (lambda x, t, pw: ops.binary_cross_entropy_with_logits(x, t, pos_weight=pw),
         [r((3, 2)), rng.uniform(0, 1, (3, 2)), rng.uniform(0.5, 2, (2,))]),
    ],
}
