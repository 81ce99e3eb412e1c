import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(3)
r = rng.standard_normal
TARGET = np.array([[0, 2], [1, -100]])
PROBS = rng.dirichlet(np.ones(3), (2, 2)).transpose(0, 2, 1)  # (N=2, C=3, 2)

CASES = {
    "cross_entropy": [
        (lambda x: ops.cross_entropy(x, TARGET), [r((2, 3, 2))]),
        (lambda x, w: ops.cross_entropy(x, TARGET, weight=w, label_smoothing=0.2),
         [r((2, 3, 2)), rng.uniform(0.5, 2.0, (3,))]),
        (lambda x, p: ops.cross_entropy(x, p, reduction="sum", label_smoothing=0.1),
         [r((2, 3, 2)), PROBS]),
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
