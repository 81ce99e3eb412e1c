"""The onednn backend passes the runtime's conformance suite for every kernel it has."""
from sporeling.runtime import get_backend, get_kernels
from sporeling.runtime.testing import check_backend

from sporeling.onednn.kernels import _serve


def test_every_onednn_kernel_conforms_to_numpys():
    onednn = get_backend("onednn")
    own = get_kernels().primitives("onednn")
    assert {"conv2d", "conv2d_weight_grad", "conv_transpose2d", "max_pool2d"} <= set(own)
    report = check_backend(onednn, max_examples=15, strict=True)
    assert report.checked == own and report.uncovered == []
    # oneDNN itself computed them: nothing the suite drew was refused and handed to NumPy
    assert not _serve._REFUSED
