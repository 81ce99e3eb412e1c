"""A MindSpore-style optimiser (``construct`` with ``ops.assign``) compiles into the jitted
training step (the update as ``assign`` equations at the graph's end)."""
import numpy as np

import sporeling.expression as sx
import sporeling.ms as ms


def test_a_mindspore_style_optimizer_written_with_assign_compiles():
    """``ms.nn.Optimizer`` subclasses update with ``ops.assign`` in ``construct`` and advance
    ``global_step``: all of it is recorded into the jitted step."""
    class StyleMomentum(ms.nn.Optimizer):
        def __init__(self, params, learning_rate, momentum=0.9):
            super().__init__(learning_rate, params)
            self.momentum = momentum
            self.moments = self.parameters.clone(prefix="moments", init="zeros")

        def construct(self, gradients):
            lr = self.get_lr()
            for param, moment, grad in zip(self.parameters, self.moments, gradients):
                ms.ops.assign(moment, moment * self.momentum + grad)
                ms.ops.assign(param, param - lr * moment)
            return True

    def run(jit):
        p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
        opt = StyleMomentum([p], 0.1)
        grad_fn = sx.value_and_grad(lambda x: ((p * x) ** 2).sum(), None, [p])

        def step(x):
            loss, grads = grad_fn(x)
            opt(grads)
            return loss

        f = sx.jit(step) if jit else step
        x = sx.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        return [float(f(x).asnumpy()) for _ in range(5)], p.asnumpy().copy(), opt, f

    eager_losses, eager_w, _, _ = run(False)
    losses, w, opt, f = run(True)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    np.testing.assert_allclose(w, eager_w, rtol=1e-6)
    assert opt.global_step == 5 and f.compile_count == 1
