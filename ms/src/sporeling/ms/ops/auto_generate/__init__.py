"""``ms.ops.auto_generate``: where 2.10 generates its operator functions (``gen_ops_def``) and
primitive classes (``gen_ops_prim``) from YAML; here they re-export the facade's."""
from . import gen_ops_def, gen_ops_prim
from .gen_ops_def import *   # noqa: F401,F403
from .gen_ops_prim import *  # noqa: F401,F403

__all__ = [*gen_ops_def.__all__, *gen_ops_prim.__all__]
