"""Training a PINN: weighted losses, Adam (PyNative or one compiled graph per step), then
L-BFGS driven by scipy on Sporeling's gradients.

The loss is ``sum_k w_k mean(r_k^2)`` over the residual terms at the collocation points
and the conditions' ``mean((u - value)^2)`` at theirs. The gradient with respect to the
weights differentiates through the residuals' input derivatives (third-order nesting for
``u_xx``), with ``sporeling.expression.value_and_grad``.

Graph mode: the whole Adam step (residual, input derivatives, weight gradients, update) is
one ``sx.jit`` graph.
"""
from __future__ import annotations

import time

import numpy as np
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

import sporeling.expression as sx
from sporeling.expression import ops

from .callbacks import Callback, StepInfo
from .conditions import Condition
from .errors import GeometryError
from .geometry import Geometry
from .residual import _as_terms, evaluate_fields, plan_derivatives

__all__ = ["PINN", "MODES"]

MODES = ("graph", "pynative")


class PINN:
    """A physics-informed network on ``domain``.

    ``residual(fields)`` is the PDE residual (see :mod:`.residual`), ``conditions`` a list
    of :class:`Condition`, ``collocation`` the number of interior points (drawn with
    ``sampler``) or the points themselves (checked to lie in ``domain``). ``weights`` maps
    loss-term names (``"pde"``, each condition's name) to weights (default 1).
    """

    def __init__(self, domain: Geometry, net, residual, conditions: list[Condition],
                 collocation, *, sampler: str = "lhs", weights: dict | None = None,
                 mode: str = "graph", seed: int = 0, check_points: int = 32,
                 blas_threads: int | None = 1):
        if mode not in MODES:
            raise GeometryError("unknown mode", op="PINN", expected=" | ".join(MODES),
                                got=repr(mode))
        self.domain, self.net, self.residual, self.mode = domain, net, residual, mode
        # PINN matrices are thin ((points, 20) @ (20, 20)): threaded BLAS only adds
        # synchronisation, 60x slower on a busy 2-core machine; None leaves BLAS alone
        self.blas_threads = blas_threads
        self.conditions = list(conditions)
        if np.ndim(collocation) == 0:
            points = domain.sample_interior(int(collocation), sampler, seed)
        else:
            points = domain.as_points(collocation, where="collocation points")
        for c in self.conditions:
            domain.as_points(c.points, where=f"condition {c.name!r}")
        dtype = net.dtype
        self.collocation = points.astype(dtype)
        probe = points[np.random.default_rng(seed).permutation(len(points))[:check_points]]
        self.plan = plan_derivatives(residual, net, domain.names, probe.astype(dtype))
        pde_terms = list(_as_terms(residual(evaluate_fields(
            net, domain.names, sx.Tensor(probe[:2].astype(dtype)), self.plan)), "pde"))
        self.term_names = pde_terms + [c.name for c in self.conditions]
        weights = dict(weights or {})
        unknown = set(weights) - set(self.term_names) - {"pde"}
        if unknown:
            raise GeometryError("weights for unknown loss terms", op="PINN",
                                expected=" | ".join(self.term_names), got=sorted(unknown))
        self.weights = [float(weights.get(n, weights.get("pde", 1.0) if n.startswith("pde")
                                          else 1.0)) for n in self.term_names]
        self._arrays = [sx.Tensor(self.collocation)] + \
            [sx.Tensor(c.points.astype(dtype)) for c in self.conditions] + \
            [sx.Tensor(c.values.astype(dtype)) for c in self.conditions]
        self._value_and_grad = sx.value_and_grad(self._loss, None, net.params, has_aux=True)
        self.optimizer = None
        self._steps = {}

    # ---- the loss ------------------------------------------------------------------
    def _loss(self, X_f, *cond):
        k = len(self.conditions)
        fields = evaluate_fields(self.net, self.domain.names, X_f, self.plan)
        terms = [ops.mean(r * r) for r in _as_terms(self.residual(fields), "pde").values()]
        for X, V in zip(cond[:k], cond[k:]):
            diff = self.net(X) - V
            terms.append(ops.mean(diff * diff))
        loss = terms[0] * self.weights[0]
        for w, t in zip(self.weights[1:], terms[1:]):
            loss = loss + t * w
        return loss, tuple(terms)

    def _compiled(self, key, fn):
        if key not in self._steps:
            self._steps[key] = sx.jit(fn) if self.mode == "graph" else fn
        return self._steps[key]

    def loss_and_grads(self):
        """``((loss, terms), grads)`` at the current weights (compiled in Graph mode)."""
        return self._compiled("grad", self._value_and_grad)(*self._arrays)

    def _info(self, phase, step, value, start) -> StepInfo:
        loss, terms = value
        return StepInfo(phase, step, float(loss.asnumpy()),
                        {n: float(t.asnumpy()) for n, t in zip(self.term_names, terms)},
                        time.perf_counter() - start)

    # ---- Adam ----------------------------------------------------------------------
    def adam_step_fn(self, learning_rate: float = 1e-3):
        """The (compiled in Graph mode) Adam step: ``step() -> (loss, terms)``."""
        if self.optimizer is None:
            self.optimizer = sx.optim.Adam(self.net.params, learning_rate=learning_rate)
        grads_fn = self._value_and_grad
        optimizer = self.optimizer

        def step(*arrays):
            value, grads = grads_fn(*arrays)
            optimizer(grads)
            return value

        compiled = self._compiled("adam", step)
        return lambda: compiled(*self._arrays)

    def blas_limits(self):
        """A context limiting BLAS threads to ``blas_threads`` (training runs in it)."""
        return threadpool_limits(limits=self.blas_threads, user_api="blas")

    def train_adam(self, steps: int, learning_rate: float = 1e-3,
                   callbacks: list[Callback] = ()) -> StepInfo | None:
        """``steps`` Adam steps (fewer when a callback stops); returns the last step's info."""
        with self.blas_limits():
            return self._train_adam(steps, learning_rate, callbacks)

    def _train_adam(self, steps, learning_rate, callbacks):
        step, start, info = self.adam_step_fn(learning_rate), time.perf_counter(), None
        for k in range(1, int(steps) + 1):
            info = self._info("adam", k, step(), start)
            if any([bool(cb.on_step(self, info)) for cb in callbacks]):
                break
        if info is not None:
            for cb in callbacks:
                cb.on_phase_end(self, info)
        return info

    # ---- L-BFGS --------------------------------------------------------------------
    def train_lbfgs(self, max_iter: int = 5000, callbacks: list[Callback] = (),
                    ftol: float = float(np.finfo(np.float64).eps), gtol: float = 1e-9,
                    maxcor: int = 50):
        """scipy's L-BFGS-B on the flattened weights with Sporeling's gradients
        (Raissi et al.'s settings: 50 correction pairs, ftol at machine epsilon).
        Returns scipy's ``OptimizeResult``."""
        with self.blas_limits():
            return self._train_lbfgs(max_iter, callbacks, ftol, gtol, maxcor)

    def _train_lbfgs(self, max_iter, callbacks, ftol, gtol, maxcor):
        start, last = time.perf_counter(), {}

        def fun(w):
            self.net.set_flat(w)
            value, grads = self.loss_and_grads()
            last["value"] = value
            flat = np.concatenate([np.asarray(g.asnumpy(), np.float64).ravel()
                                   for g in grads])
            return float(value[0].asnumpy()), flat

        state = {"k": 0}

        def on_iter(intermediate_result):
            state["k"] += 1
            info = self._info("lbfgs", state["k"], last["value"], start)
            state["info"] = info
            if any([bool(cb.on_step(self, info)) for cb in callbacks]):
                raise StopIteration

        result = minimize(fun, self.net.get_flat(), jac=True, method="L-BFGS-B",
                          callback=on_iter,
                          options=dict(maxiter=int(max_iter), maxfun=int(max_iter) * 5 // 4,
                                       maxcor=maxcor, maxls=50, ftol=ftol, gtol=gtol))
        self.net.set_flat(result.x)
        if "info" in state:
            for cb in callbacks:
                cb.on_phase_end(self, state["info"])
        return result

    # ---- prediction ----------------------------------------------------------------
    def predict(self, points) -> np.ndarray:
        """``u`` at ``points`` (checked to lie in the domain), shape ``(n,)``."""
        points = self.domain.as_points(points, where="PINN.predict")
        with sx.no_grad():
            u = self.net(sx.Tensor(points.astype(self.net.dtype)))
        return np.asarray(u.asnumpy(), np.float64)[:, 0].copy()
