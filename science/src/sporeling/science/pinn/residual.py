"""PDE residuals through autodiff with respect to the network's inputs.

A residual is a function of :class:`Fields`: ``f.u`` (the network's output, ``(n, 1)``),
``f["x"]`` (an input column), ``f.d("t")`` (``du/dt``), ``f.d2("x")`` (``d2u/dx2``) and
``f.d2("x", "y")``; it returns a Tensor of residuals (or a tuple / dict of them, one loss
term each). Burgers::

    def burgers(f):
        return f.d("t") + f.u * f.d("x") - nu * f.d2("x")

Derivatives are batched by the sum trick: the points are independent, so the gradient of
``sum(u)`` with respect to the ``(n, d)`` inputs holds every ``du/dx_i`` at every point, and
the gradient of ``sum(du/dx_i)`` every ``d2u/dx_i dx_j``. Both are nested
``sporeling.expression.grad`` calls with ``has_aux`` (one forward pass serves ``u``, the
first and the second derivatives), so they run in PyNative and compile in Graph mode.

Before training, :func:`plan_derivatives` runs the residual once on a few points: it learns
which second derivatives the residual needs (one backward-of-backward pass per
differentiated column) and refuses a derivative by an unknown input, or by an input the
output does not depend on (its derivative is exactly zero at every point), with a
:class:`~.errors.ResidualError`.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from .errors import ResidualError

__all__ = ["Fields", "DerivativePlan", "plan_derivatives", "evaluate_fields"]


class DerivativePlan:
    """Which derivatives a residual reads: ``first`` (any first derivative) and the input
    columns ``second`` whose second derivatives it reads."""

    def __init__(self, first: bool = True, second=()):
        self.first, self.second = bool(first), tuple(sorted(set(second)))


class Fields:
    """What a residual function sees at a batch of points (see the module doc)."""

    def __init__(self, names, X, u, grad=None, hessian_rows=None, record=None):
        self.names, self.X, self.u = tuple(names), X, u
        self._grad, self._rows = grad, hessian_rows or {}
        self._record = record  # planning: collect what is asked

    def _column(self, name, op) -> int:
        if name not in self.names:
            raise ResidualError("unknown input", op=op, expected=" | ".join(self.names),
                                got=repr(name), where="the residual function")
        return self.names.index(name)

    def __getitem__(self, name):
        i = self._column(name, "Fields[name]")
        return self.X[:, i:i + 1]

    def d(self, name):
        """``du/d(name)``, shape ``(n, 1)``."""
        i = self._column(name, "Fields.d")
        if self._record is not None:
            self._record.append(("d", (i,)))
        if self._grad is None:
            raise ResidualError("first derivatives were not computed", op="Fields.d",
                                expected="a residual planned with plan_derivatives",
                                got=f"d({name!r})")
        return self._grad[:, i:i + 1]

    def d2(self, name, other=None):
        """``d2u/d(name) d(other)`` (``other`` defaults to ``name``), shape ``(n, 1)``."""
        i = self._column(name, "Fields.d2")
        j = i if other is None else self._column(other, "Fields.d2")
        if self._record is not None:
            self._record.append(("d2", (i, j)))
        row = self._rows.get(i, self._rows.get(j))
        if row is None:
            raise ResidualError("second derivative not planned", op="Fields.d2",
                                expected=f"one of the planned columns {sorted(self._rows)}",
                                got=f"d2({name!r}, {other!r})")
        return row[:, j:j + 1] if i in self._rows else row[:, i:i + 1]


def evaluate_fields(net, names, X, plan: DerivativePlan) -> Fields:
    """``u`` and the planned derivatives at ``X`` (a Tensor ``(n, d)``), recorded for the
    gradient with respect to the network's weights when one is active."""
    def first(X):
        u = net(X)
        return u.sum(), u

    if not plan.second:
        if not plan.first:
            return Fields(names, X, net(X))
        G, (u,) = sx.grad(first, 0, has_aux=True)(X)
        return Fields(names, X, u, G)

    first_grad = sx.grad(first, 0, has_aux=True)
    rows, G, u = {}, None, None
    for i in plan.second:
        def second(X, i=i):
            G, (u,) = first_grad(X)
            return G[:, i].sum(), G, u
        row, (g, v) = sx.grad(second, 0, has_aux=True)(X)
        rows[i] = row
        if G is None:  # the first pass's u and du serve every term
            G, u = g, v
    return Fields(names, X, u, G, rows)


def _as_terms(out, name: str) -> dict:
    if isinstance(out, dict):
        return {f"{name}.{k}": v for k, v in out.items()}
    if isinstance(out, (tuple, list)):
        return {f"{name}[{k}]": v for k, v in enumerate(out)}
    return {name: out}


def plan_derivatives(residual, net, names, points: np.ndarray, name: str = "pde"):
    """Run ``residual`` once (PyNative) at ``points`` and return its :class:`DerivativePlan`,
    after checking each derivative it reads depends on the network's output."""
    record: list = []
    X = sx.Tensor(points)
    probe = evaluate_fields(net, names, X, DerivativePlan(True, range(len(names))))
    probe._record = record
    out = _as_terms(residual(probe), name)
    for key, value in out.items():
        if not isinstance(value, sx.Tensor) or value.shape[:1] != (len(points),):
            raise ResidualError("a residual returns one value per point", op=key,
                                expected=f"a Tensor of shape ({len(points)}, 1)",
                                got=getattr(value, "shape", type(value).__name__),
                                where="the residual function")
    for kind, cols in record:
        values = probe._grad[:, cols[0]] if kind == "d" else \
            probe._rows[cols[0]][:, cols[1]]
        if not np.any(values.asnumpy()):
            label = "d/d" + "".join(names[c] for c in cols) if kind == "d" else \
                "d2/d" + " d".join(names[c] for c in cols)
            raise ResidualError(
                f"the residual differentiates u by {names[cols[-1]]!r} (input column "
                f"{cols[-1]}), but u does not depend on it", op=f"{name}: {label}",
                expected=f"a network output that reads input {names[cols[-1]]!r}",
                got=f"{label} u = 0 at all {len(points)} check points",
                where="the residual function")
    second = {cols[0] for kind, cols in record if kind == "d2"}
    return DerivativePlan(any(kind == "d" for kind, _ in record) or bool(second), second)
