"""``ms.ops.auto_generate.gen_ops_def``: the operator functions (``ms.ops.functional``'s)."""
from ..functional import *  # noqa: F401,F403
from ..functional import __all__
