"""``ms.ops.auto_generate.gen_ops_prim``: the primitive classes (``ms.ops.operations``')."""
from ..operations import *  # noqa: F401,F403
from ..operations import __all__
