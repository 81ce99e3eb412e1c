"""The backend conformance suite: every kernel a backend provides, checked against NumPy.

    >>> from sporeling.runtime import get_backend
    >>> report = check_backend(get_backend("numpy"), primitives=["add"], max_examples=3)
    >>> report.checked
    ['add']

For each kernel the backend registered (``sporeling_add_kernels``) that the suite has
inputs for (:data:`~sporeling.runtime.conformance_cases.CASES`), hypothesis generates cases
(shapes with broadcasting, 0-d and empty arrays, float32/float64 and integers where the
primitive takes them, strided inputs where buffers are NumPy arrays) and checks:

* **value** -- the result equals the NumPy backend's (shape, dtype, values within a float
  tolerance; integers and booleans exactly);
* **out=** -- a kernel declared ``"out"`` (:class:`~sporeling.runtime.KernelMemory`)
  writes its whole result into a given buffer and returns that buffer;
* **in place / aliasing** -- with ``out=`` one of the inputs at each declared ``in_place``
  position (and one buffer passed at two such positions), the result is still right;
  ``"out"`` and ``"fresh"`` results share no memory with the inputs;
* **pool accounting** -- for a backend with a ``pool``, a result allocated by the kernel
  is counted in the pool while alive, and once it is dropped the pool's bytes in use are
  back where they were (no leaked temporaries).

A failure raises :class:`ConformanceError` naming the primitive, the check, the inputs
(dtype, shape, strides) and parameters; hypothesis shrinks it to a small case first.
"""
from __future__ import annotations

import gc
import warnings
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from sporeling.core import SporelingError

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError as exc:  # a testing module: hypothesis comes with the test extras
    raise ImportError("sporeling.runtime.testing needs hypothesis "
                      "(pip install 'sporeling-runtime[test]')") from exc

from .backend import Backend, get_backend
from .conformance_cases import CASES, Case
from .kernel_registry import get_kernels

__all__ = ["check_backend", "check_kernel", "ConformanceError", "ConformanceReport"]


class ConformanceError(SporelingError, AssertionError):
    """A backend's kernel disagrees with the NumPy backend or breaks its memory contract."""


@dataclass
class ConformanceReport:
    """What :func:`check_backend` ran: ``checked`` primitives and the backend's kernels
    the suite has no inputs for (``uncovered``)."""
    backend: str
    checked: list = field(default_factory=list)
    uncovered: list = field(default_factory=list)


def check_backend(backend: Backend, *, primitives: Iterable[str] | None = None,
                  max_examples: int = 10, reference: Backend | None = None,
                  strict: bool = False) -> ConformanceReport:
    """Check every kernel ``backend`` provides (or ``primitives``) against ``reference``
    (the NumPy backend). ``strict``: a provided kernel with no generated inputs is an
    error instead of a line in ``report.uncovered``."""
    reference = reference if reference is not None else get_backend("numpy")
    provided = get_kernels().primitives(backend.name)
    names = list(primitives) if primitives is not None else provided
    report = ConformanceReport(backend.name)
    for name in names:
        if name not in CASES or not backend.has_kernel(name):
            report.uncovered.append(name)
            continue
        check_kernel(backend, name, max_examples=max_examples, reference=reference)
        report.checked.append(name)
    if strict and report.uncovered:
        raise ConformanceError(f"backend {backend.name!r} has kernels the suite cannot check",
                               expected="inputs in sporeling.runtime.conformance_cases.CASES",
                               got=", ".join(report.uncovered))
    return report


def check_kernel(backend: Backend, primitive: str, *, max_examples: int = 10,
                 reference: Backend | None = None) -> None:
    """Run the conformance checks of ``primitive``'s kernel on generated cases."""
    reference = reference if reference is not None else get_backend("numpy")
    strategy = CASES[primitive]

    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy, strided=st.booleans())
    def run(case: Case, strided: bool) -> None:
        with warnings.catch_warnings():  # NaN means of empty slices: NumPy's answer, checked
            warnings.simplefilter("ignore", RuntimeWarning)
            _Check(backend, reference, primitive, case, strided).all()

    run()


def _describe(x) -> str:
    if not isinstance(x, np.ndarray):
        return repr(x)
    strides = "" if x.flags.c_contiguous else f" strides {x.strides}"
    return f"{x.dtype}{list(x.shape)}{strides}"


class _Check:
    def __init__(self, backend, reference, primitive, case, strided):
        self.b, self.ref, self.name, self.case = backend, reference, primitive, case
        self.strided = strided
        self.kernel = backend.kernel(primitive)
        self.memory = backend.kernel_memory(primitive)
        self.expected = _as_list(reference.run(primitive, *case.inputs, **case.params))

    def fail(self, check: str, message: str, got=None, expected=None):
        raise ConformanceError(
            f"{self.name} on backend {self.b.name!r}: {message}", op=self.name,
            where=f"check {check!r}; inputs {', '.join(map(_describe, self.case.inputs))}"
                  + (f"; params {self.case.params}" if self.case.params else ""),
            expected=expected, got=got)

    def inputs(self) -> list:
        """The case's inputs as the backend's buffers (strided views where it can)."""
        out = []
        for x in self.case.inputs:
            buf = self.b.from_numpy(x)
            if self.strided and isinstance(buf, np.ndarray) and buf.ndim:
                wide = self.b.from_numpy(np.stack([x, np.zeros_like(x)], axis=-1))
                buf = wide[..., 0]  # same values, every other element in memory
            out.append(buf)
        return out

    def compare(self, check: str, got, expected=None) -> None:
        got, expected = _as_list(got), expected or self.expected
        if len(got) != len(expected):
            self.fail(check, "wrong number of results", len(got), len(expected))
        for k, (g, e) in enumerate(zip(got, expected)):
            g = np.asarray(self.b.to_numpy(g))
            e = np.asarray(e)
            what = f"result {k}" if len(got) > 1 else "result"
            if g.shape != e.shape or g.dtype != e.dtype:
                self.fail(check, f"{what} has the wrong shape or dtype", _describe(g),
                          _describe(e))
            if self.case.exact or e.dtype.kind not in "fc":
                ok = np.array_equal(g, e, equal_nan=e.dtype.kind in "fc")
            else:
                rtol = 2e-5 if e.dtype.itemsize <= 4 else 1e-11
                scale = float(np.max(np.abs(e), initial=1.0, where=np.isfinite(e)))
                ok = np.allclose(g, e, rtol=rtol, atol=rtol * scale, equal_nan=True)
            if not ok:
                bad = np.argwhere(~np.isclose(g, e, equal_nan=True)) if g.ndim else [()]
                at = tuple(bad[0]) if len(bad) else ()
                self.fail(check, f"{what} differs from NumPy's",
                          f"{g[at]!r} at {at}", f"{e[at]!r}")

    def all(self) -> None:
        self.value_and_pool()
        if self.memory.kind == "out" and len(self.expected) == 1:
            self.writes_out()
            self.in_place()

    def value_and_pool(self) -> None:
        inputs = self.inputs()
        pool = getattr(self.b, "pool", None)
        before = pool.stats().in_use if pool is not None else None
        got = self.kernel(self.b, *inputs, **self.case.params)
        self.compare("value", got)
        results = _as_list(got)
        if self.memory.kind in ("out", "fresh") and any(
                _shares(self.b, r, x) for r in results for x in inputs):
            self.fail("aliasing", f"a {self.memory.kind!r} kernel's result shares memory "
                      f"with an input", "a view of an input", "fresh memory")
        if pool is None:
            return
        need = sum(r.nbytes for r in results if isinstance(r, np.ndarray))
        held = pool.stats().in_use - before
        if self.memory.kind in ("out", "fresh") and held < need:
            self.fail("pool", "results are not pool memory", f"{held} bytes in use for them",
                      f"at least {need} bytes (the results' size)")
        del got, results  # (no other name may hold a result here)
        after = pool.stats().in_use
        if after != before:  # buffers in reference cycles wait for the collector
            gc.collect()
            after = pool.stats().in_use
        if after != before:
            self.fail("pool", "pool memory still in use after the results were dropped",
                      f"{after - before} bytes more than before the call", "0")

    def writes_out(self) -> None:
        e = np.asarray(self.expected[0])
        out = self.b.from_numpy(np.full(e.shape, _sentinel(e.dtype), e.dtype))
        got = self.kernel(self.b, *self.inputs(), out=out, **self.case.params)
        if got is not out:
            self.fail("out=", "an 'out' kernel did not return the buffer it was given",
                      type(got).__name__, "the out= buffer itself")
        self.compare("out=", got)

    def in_place(self) -> None:
        e = np.asarray(self.expected[0])
        fits = [i for i in self.memory.positions(len(self.case.inputs))
                if np.shape(self.case.inputs[i]) == e.shape
                and np.asarray(self.case.inputs[i]).dtype == e.dtype]
        for i in fits:
            inputs = self.inputs()
            inputs[i] = self.b.from_numpy(self.case.inputs[i])  # out= must be contiguous
            got = self.kernel(self.b, *inputs, out=inputs[i], **self.case.params)
            self.compare(f"in place (out= input {i})", got)
        if len(fits) > 1:
            # one buffer at every allowed position, and as out= (x * x into x)
            values = list(self.case.inputs)
            for i in fits:
                values[i] = values[fits[0]]
            expected = _as_list(self.ref.run(self.name, *values, **self.case.params))
            inputs = self.inputs()
            shared = self.b.from_numpy(values[fits[0]])
            for i in fits:
                inputs[i] = shared
            got = self.kernel(self.b, *inputs, out=shared, **self.case.params)
            self.compare("aliased inputs and out=", got, expected)


def _as_list(value) -> list:
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _sentinel(dtype):
    return np.nan if dtype.kind in "fc" else (True if dtype == bool else -7)


def _shares(backend, a, b) -> bool:
    shares = getattr(backend, "shares_memory", None)
    if shares is not None:
        return bool(shares(a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.size > 0 and b.size > 0 and bool(np.shares_memory(a, b))
    return False
