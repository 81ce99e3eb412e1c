"""``ms.nn``: MindSpore 2.x cells over ``sporeling.expression.nn``.

Cells whose sporeling.expression form already has MindSpore's signature are re-exported;
the rest are built here from sx ops (so they run in PyNative and Graph mode and keep
gradients). The optimizers' update rules follow MindSpore's documented numerics, written
with ops (eager, and compiled into a Graph-mode training step).
"""
from .activation import *      # noqa: F401,F403
from .activation import __all__ as _activation
from .basic import *           # noqa: F401,F403
from .basic import __all__ as _basic
from .conv import *            # noqa: F401,F403
from .conv import __all__ as _conv
from .embedding import *       # noqa: F401,F403
from .embedding import __all__ as _embedding
from .image import *           # noqa: F401,F403
from .image import __all__ as _image
from .loss import *            # noqa: F401,F403
from .loss import __all__ as _loss
from .loss_margin import *     # noqa: F401,F403
from .loss_margin import __all__ as _loss_margin
from .lr import *              # noqa: F401,F403
from .lr import __all__ as _lr
from .metrics import *         # noqa: F401,F403
from .metrics import __all__ as _metrics
from .no_init import no_init_parameters
from .normalization import *   # noqa: F401,F403
from .normalization import __all__ as _normalization
from .optim_adam import *      # noqa: F401,F403
from .optim_adam import __all__ as _optim_adam
from .optimizer import *      # noqa: F401,F403
from .optimizer import __all__ as _optimizer
from .optim_misc import *      # noqa: F401,F403
from .optim_misc import __all__ as _optim_misc
from .padding import *         # noqa: F401,F403
from .padding import __all__ as _padding
from .pooling import *         # noqa: F401,F403
from .pooling import __all__ as _pooling
from .unpooling import *       # noqa: F401,F403
from .unpooling import __all__ as _unpooling
from .rnn import *             # noqa: F401,F403
from .rnn import __all__ as _rnn
from .transformer import *     # noqa: F401,F403
from .transformer import __all__ as _transformer
from .wrappers import *        # noqa: F401,F403
from .wrappers import __all__ as _wrappers
from .combined import *        # noqa: F401,F403
from .combined import __all__ as _combined
from .loss_extra import *      # noqa: F401,F403
from .loss_extra import __all__ as _loss_extra
from .math_cells import *      # noqa: F401,F403
from .math_cells import __all__ as _math_cells
from .optim_extra import *     # noqa: F401,F403
from .optim_extra import __all__ as _optim_extra
from .pooling_fractional import *  # noqa: F401,F403
from .pooling_fractional import __all__ as _pooling_fractional
from .sparse import *          # noqa: F401,F403
from .sparse import __all__ as _sparse
from .tool_cells import *      # noqa: F401,F403
from .tool_cells import __all__ as _tool_cells
from .wrappers_parallel import *  # noqa: F401,F403
from .wrappers_parallel import __all__ as _wrappers_parallel
from .thor_layers import *     # noqa: F401,F403
from .thor_layers import __all__ as _thor_layers
from .optim_thor import thor   # noqa: F401  (the THOR optimiser, PyNative)

__all__ = sorted({*_activation, *_basic, *_conv, *_embedding, *_image, *_loss, *_loss_margin,
                  *_lr, *_metrics, *_normalization, *_optim_adam, *_optim_misc, *_optimizer,
                  *_padding, *_pooling, *_rnn, *_transformer, *_unpooling, *_wrappers,
                  "no_init_parameters"}
                 | {*_combined, *_loss_extra, *_math_cells, *_optim_extra,
                    *_pooling_fractional, *_sparse, *_tool_cells, *_wrappers_parallel,
                    *_thor_layers, "thor"})

from . import layer  # noqa: E402  MindSpore's mindspore.nn.layer module path
from .graph_cell import GraphCell  # noqa: E402  runs what ms.load reads (a MindIR)
__all__ += ["GraphCell"]

from .ext import EXT_NAMES as _EXT_NAMES, ext_cell as _ext_cell  # noqa: E402
__all__ += sorted(_EXT_NAMES)


def __getattr__(name):
    """``nn.AvgPool2dExt`` etc.: ``ms.mint.nn``'s classes, looked up on first use (ext.py)."""
    if name in _EXT_NAMES:
        return _ext_cell(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
