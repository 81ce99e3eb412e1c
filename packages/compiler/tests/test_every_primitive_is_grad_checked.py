"""Every differentiable primitive is grad-checked (first and second order) in float64; a
case may ask for first order only (``{"order": 1}``: the fused RNNs, whose gradient
primitives have no backward rule)."""
import pytest

from sporeling.compiler import primitives
from sporeling.compiler.testing import check_grads

from grad_cases import all_cases

CASES = all_cases()
# the compiler's own primitives; a plugin's (e.g. sporeling.parallel's collectives) are checked
# in that plugin's tests
# the gradients of first-order-only primitives: grad of grad through them is refused by name
# (test_ops_nn_rnn.py), so they have no case
NO_BACKWARD = {"lstm_grad", "gru_grad"}
DIFFERENTIABLE = sorted(n for n, p in primitives().items()
                        if p.differentiable and p.module.startswith("sporeling.compiler.")
                        and n not in NO_BACKWARD)


def test_every_differentiable_primitive_has_a_case():
    missing = [n for n in DIFFERENTIABLE if n not in CASES]
    assert missing == [], f"primitives without a gradient check: {missing}"


@pytest.mark.parametrize("name, index", [(n, i) for n in sorted(CASES)
                                         for i in range(len(CASES[n]))])
def test_gradients_match_finite_differences(name, index):
    fn, args, *options = CASES[name][index]
    options = dict(options[0]) if options else {}
    order = options.pop("order", 2)
    check_grads(fn, args, order=order, name=f"{name}[{index}]", **options)
