"""The conformance suite passes for the NumPy backend and catches each kind of broken
kernel: wrong values, ignoring out=, unsafe in place, aliasing results, leaking pool memory."""
import numpy as np
import pytest

from sporeling.runtime import KernelMemory, NumpyBackend, get_backend, get_kernels
from sporeling.runtime.conformance_cases import CASES
from sporeling.runtime.kernels import NUMPY_KERNELS
from sporeling.runtime.testing import ConformanceError, check_backend, check_kernel

from runtime_helpers import fake_plugin


def test_the_numpy_backend_passes_for_every_kernel_the_suite_covers():
    report = check_backend(get_backend("numpy"), max_examples=4)
    assert set(report.checked) == set(CASES)
    # the rest are listed (other installed plugins add NumPy kernels of their own too)
    assert set(report.uncovered) >= set(NUMPY_KERNELS) - set(CASES)
    assert not set(report.uncovered) & set(CASES)


def test_the_suite_covers_the_kernels_a_compiled_backend_is_asked_for():
    # what the numba backend and a GPU backend would provide first: fused chains, conv,
    # pooling, softmax cross-entropy, reductions
    assert {"fused_elementwise", "conv2d", "conv2d_weight_grad", "max_pool2d",
            "max_pool2d_scatter", "max_pool2d_gather", "softmax_cross_entropy",
            "softmax_cross_entropy_grad", "sum", "max", "mean", "matmul"} <= set(CASES)


class BrokenBackend(NumpyBackend):
    name, device_target = "broken", "BROKEN"


def _install(host_with, name, fn, memory):
    def sporeling_add_backends(backends):
        backends.add("broken", BrokenBackend)

    def sporeling_add_kernels(kernels):
        kernels.add_kernel("broken", name, fn, memory=memory)

    host_with(("broken", fake_plugin("broken", sporeling_add_backends=sporeling_add_backends,
                                     sporeling_add_kernels=sporeling_add_kernels)))
    return get_backend("broken")


def _off_by_a_bit(backend, a, b, out=None):
    r = NUMPY_KERNELS["add"](backend, a, b, out=out)
    if r.size and r.dtype.kind == "f":
        r.flat[0] += 0.5
    return r


def _ignores_out(backend, a, b, out=None):
    return NUMPY_KERNELS["mul"](backend, a, b)


def _reads_after_writing(backend, x, out=None):
    out = backend.allocate(x.shape, x.dtype) if out is None else out
    out[...] = 0          # wrong when out is x: x is gone before it is read
    out += np.exp(x)
    return out


_HOLD = []


def _leaks(backend, x, out=None):
    _HOLD.append(backend.allocate((256,), np.float32))  # a temporary never given back
    return NUMPY_KERNELS["exp"](backend, x, out=out)


def _aliases(backend, x, out=None):
    # right values, but without out= it writes over its input and returns it
    return NUMPY_KERNELS["abs"](backend, x, out=x if out is None else out)


@pytest.mark.parametrize("name, fn, memory, check", [
    ("add", _off_by_a_bit, KernelMemory.writes_out((0, 1)), "value"),
    ("mul", _ignores_out, KernelMemory.writes_out(), "out="),
    ("exp", _reads_after_writing, KernelMemory.writes_out((0,)), "in place"),
    ("exp", _leaks, KernelMemory.writes_out(), "pool"),
    ("abs", _aliases, KernelMemory.writes_out(), "aliasing"),
])
def test_a_broken_kernel_fails_naming_the_check(host_with, name, fn, memory, check):
    broken = _install(host_with, name, fn, memory)
    with pytest.raises(ConformanceError) as info:
        check_kernel(broken, name, max_examples=25)
    message = str(info.value)
    assert f"check '{check}" in message and name in message and "'broken'" in message
    _HOLD.clear()


def test_a_kernel_the_suite_has_no_inputs_for_is_reported_or_refused(host_with):
    broken = _install(host_with, "fancy_new_op", lambda b, x, out=None: x, None)
    assert check_backend(broken).uncovered == ["fancy_new_op"]
    with pytest.raises(ConformanceError, match="fancy_new_op"):
        check_backend(broken, strict=True)
    assert "broken.fancy_new_op" in get_kernels()
