"""The numba backend passes the runtime's conformance suite for every kernel it has."""
from sporeling.runtime import get_backend, get_kernels
from sporeling.runtime.testing import check_backend


def test_every_numba_kernel_conforms_to_numpys():
    numba = get_backend("numba")
    own = get_kernels().primitives("numba")
    assert "fused_elementwise" in own
    report = check_backend(numba, max_examples=4, strict=True)
    assert report.checked == own and report.uncovered == []
