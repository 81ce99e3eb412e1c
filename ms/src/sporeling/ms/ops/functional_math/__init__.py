"""The math side of ``ms.ops``: MindSpore r2.3's element-wise, reduction, comparison,
linear-algebra, creation, random, type-conversion, spectral, gradient-clipping and
differential functions, with MindSpore's signatures, over ``sx.ops``.

Each module's ``__all__`` is gathered here (``ms/api/coverage.py`` counts them against 2.10).
"""
from . import (arraylike, clipping, comparison, creation, cumulative, decompositions,
               differential, elementwise, gamma_functions, linalg, other, random, reduction,
               solvers, sorting, special, spectral, transcendental)
from . import (aliases, frequencies, graph_builtins, higher_order, matrix_functions,
               registration)
from .arraylike import *       # noqa: F401,F403
from .clipping import *        # noqa: F401,F403
from .comparison import *      # noqa: F401,F403
from .creation import *        # noqa: F401,F403
from .cumulative import *      # noqa: F401,F403
from .decompositions import *  # noqa: F401,F403
from .differential import *    # noqa: F401,F403
from .elementwise import *     # noqa: F401,F403
from .gamma_functions import *  # noqa: F401,F403
from .linalg import *          # noqa: F401,F403
from .other import *           # noqa: F401,F403
from .random import *          # noqa: F401,F403
from .reduction import *       # noqa: F401,F403
from .solvers import *         # noqa: F401,F403
from .sorting import *         # noqa: F401,F403
from .special import *         # noqa: F401,F403
from .spectral import *        # noqa: F401,F403
from .transcendental import *  # noqa: F401,F403
from .aliases import *         # noqa: F401,F403  2.10's other names of these functions
from .frequencies import *     # noqa: F401,F403
from .graph_builtins import *  # noqa: F401,F403
from .higher_order import *    # noqa: F401,F403
from .matrix_functions import *  # noqa: F401,F403
from .registration import *    # noqa: F401,F403

_MODULES = (arraylike, clipping, comparison, creation, cumulative, decompositions,
            differential, elementwise, gamma_functions, linalg, other, random, reduction, solvers,
            sorting, special, spectral, transcendental, aliases, frequencies, graph_builtins,
            higher_order, matrix_functions, registration)
__all__ = sorted({name for module in _MODULES for name in module.__all__})

from .._arguments import check_all  # noqa: E402

check_all(globals(), __all__)  # raw errors from bad arguments: named Sporeling errors
