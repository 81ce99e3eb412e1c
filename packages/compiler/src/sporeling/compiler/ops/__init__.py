"""The functional ops: one function per primitive (plus conveniences built from them).

Every op dispatches through :func:`~sporeling.compiler.core.bind` to the interpreter that
owns its operands, so the same code runs eagerly, recorded for ``grad``, or traced.
Backward rules are written with these ops.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> ops.add(np.float32(1), 2)           # Python scalars take the tensor's dtype
    array(3., dtype=float32)
"""
from .activation import *  # noqa: F401,F403
from .arrange import *  # noqa: F401,F403
from .assign import *  # noqa: F401,F403
from .clip import *  # noqa: F401,F403
from .comparison import *  # noqa: F401,F403
from .control import *  # noqa: F401,F403
from . import debug  # noqa: F401,E402  (the print primitive; debug_print is not an array op)
from .dtype import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .random import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from . import _decompositions  # noqa: F401,E402  (attaches them to the primitives)
