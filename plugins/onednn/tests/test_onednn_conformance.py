"""The onednn backend passes the runtime's conformance suite for every kernel it has."""
from sporeling.runtime import get_backend, get_kernels
from sporeling.runtime.testing import check_backend

from sporeling.onednn.kernels import _serve


def test_every_onednn_kernel_conforms_to_numpys():
    onednn = get_backend("onednn")
    # the layout pass's two primitives exist only here (no NumPy kernel to compare with):
    # test_onednn_layouts.py checks them through the plain values they hold
    own = [p for p in get_kernels().primitives("onednn")
           if p not in ("onednn_blocked", "onednn_reorder")]
    assert {"conv2d", "conv2d_weight_grad", "conv_transpose2d", "max_pool2d"} <= set(own)
    report = check_backend(onednn, primitives=own, max_examples=15, strict=True)
    assert report.checked == own and report.uncovered == []
    # oneDNN itself computed them: nothing the suite drew was refused and handed to NumPy
    assert not _serve._REFUSED
