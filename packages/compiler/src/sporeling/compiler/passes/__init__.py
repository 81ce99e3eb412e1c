"""Graph passes and the pass manager.

:func:`optimize` runs every registered pass in stages (canonicalize -> simplify -> fusion ->
cleanup), filtered by the optimisation level, the context's ``jit_level`` (``O0``: shape
and dtype inference and verification only; ``O1`` and ``O2``: everything). Passes come
from plugins through the ``sporeling_add_passes`` hook -- the compiler's own included
(:mod:`sporeling.compiler.plugin`). A pass is a :class:`Pass` value: a function over the
IR, or a rewrite table made into one by :func:`rewrite_pass`.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import evaluate, make_graph
    >>> g = make_graph(lambda x: ops.add(ops.mul(ops.exp(x), 1.0), ops.exp(x)),
    ...                np.ones(3, np.float32))
    >>> opt = optimize(g)
    >>> opt.primitive_counts()
    {'exp': 1, 'add': 1}
    >>> evaluate(opt, np.zeros(3, np.float32))
    [array([2., 2., 2.], dtype=float32)]
"""
from .base import LEVELS, STAGES, Pass, PassContext, PassRegistry
from .builtin import BUILTIN_PASSES
from .cse import is_nondeterministic
from .freeze import freeze_inputs
from .fused import expand, fused_call, fused_elementwise_p
from .manager import DUMP_ENV, dump_dir, optimize, registered_passes
from .recompute import values_live_across
from .rewrite import Rewriter, map_subgraphs, rewrite, rewrite_pass

__all__ = ["LEVELS", "STAGES", "Pass", "PassContext", "PassRegistry", "BUILTIN_PASSES",
           "is_nondeterministic", "freeze_inputs", "expand", "fused_call",
           "fused_elementwise_p", "DUMP_ENV", "dump_dir", "optimize", "registered_passes",
           "values_live_across", "Rewriter", "map_subgraphs", "rewrite", "rewrite_pass"]
