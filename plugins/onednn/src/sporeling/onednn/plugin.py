"""The onednn plugin: the ``onednn`` backend and its kernels, through the runtime's hooks.

Importing this module opens ``libdnnl`` and checks the generated constants against it: a
library that cannot load (not installed, no ``libgomp``, an old CPU, another oneDNN
version) fails the plugin with the reason (``sporeling plugins`` shows it) and NumPy
serves everything.
"""
from __future__ import annotations

from sporeling.core import impl

from .lib import load

load()  # fail here, by name, rather than at the first kernel call

from .backend import OneDnnBackend  # noqa: E402
from .kernels import ONEDNN_KERNELS  # noqa: E402
from .threads import check_threads  # noqa: E402


@impl
def sporeling_add_context_options(options) -> None:
    options.add_option("onednn_blas_threads", 1, convert=check_threads,
                       doc="BLAS threads while the oneDNN backend is in use (its OpenMP "
                           "threads and OpenBLAS's fight on small machines); None: "
                           "BLAS's own default.",
                       valid="None or a positive int")
    options.add_option("onednn_layouts", True, choices={"True": True, "False": False},
                       doc="Graph mode keeps activations in oneDNN's channel-blocked layout "
                           "between convolutions, batch norms and elementwise ops (the "
                           "onednn_layouts pass); False: a reorder around every call.",
                       valid="True or False")
    options.add_option("onednn_threads", None, convert=check_threads,
                       doc="oneDNN's (OpenMP's) threads; None: OpenMP's default (every "
                           "core, or OMP_NUM_THREADS).",
                       valid="None or a positive int")


@impl
def sporeling_add_backends(backends) -> None:
    backends.add(OneDnnBackend.name, OneDnnBackend)


@impl
def sporeling_add_kernels(kernels) -> None:
    for primitive, (fn, memory) in ONEDNN_KERNELS.items():
        kernels.add_kernel(OneDnnBackend.name, primitive, fn, memory=memory)


@impl
def sporeling_add_primitives(primitives) -> None:
    from .layouts import onednn_blocked_p, onednn_reorder_p
    primitives.add_primitive(onednn_reorder_p, onednn_blocked_p)


@impl
def sporeling_add_passes(passes) -> None:
    from .layouts import EPILOGUES, LAYOUTS
    passes.add_pass(LAYOUTS)
    passes.add_pass(EPILOGUES)
