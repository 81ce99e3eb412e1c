"""``ms.common.api``: MindSpore 2.10's ``jit`` signature over Sporeling's ``jit``.

``ms.jit(fn, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
backend="", **options)``, also ``@ms.jit(jit_level="O1")`` as a decorator factory. The
keywords are validated as 2.10 validates them. ``jit_level``, when given, is the function's
own level (O0: no fusion; O1: fused; see ``sporeling.compiler.jit_levels``); left out, the
context's ``jit_level`` decides (O1 unless set: Sporeling's default stays fused, where 2.10's
signature says "O0"). The others change nothing: Sporeling compiles every ``capture_mode``
with its one tracer, compiles per input signature and caches each graph (``dynamic``),
picks kernels through the context's ``backend`` (not ``backend=``) and has one syntax level
(``fullgraph``).

2.10's **JIT Fallback** -- reading a tensor's value inside the function (``int(x)``,
``float(x.asnumpy())``, ``len(w.asnumpy())``) -- is Sporeling's value specialisation
(``sporeling.expression.jit(specialize_values=True)``): a value computed from the
function's tensor arguments is read while tracing, and the compiled graph is guarded on
those arguments' values (other values compile again; a stale graph never runs). ``print(x)``
prints the values each time the function runs (Sporeling's ``print`` equation), in 2.10's
Graph-mode format (``Tensor(shape=[3], dtype=Int32, value=[1 2 3])``)."""
from __future__ import annotations

from sporeling.expression import jit as _sx_jit

__all__ = ["jit"]

_CAPTURE_MODES = ("ast", "bytecode", "trace")


class _ContextLevel(str):
    """``jit_level``'s default: 2.10's "O0" as the signature shows it; left at it, the
    function compiles at the context's ``jit_level`` (see the module doc)."""


_UNSET_LEVEL = _ContextLevel("O0")
_JIT_LEVELS = ("O0", "O1")
_BACKENDS = ("", "ms_backend", "GE")


def _check(capture_mode, jit_level, dynamic, fullgraph, backend):
    if not isinstance(capture_mode, str) or capture_mode not in _CAPTURE_MODES:
        raise ValueError(f"For 'jit', the 'capture_mode' must be str and must be in "
                         f"'{list(_CAPTURE_MODES)}', but got '{capture_mode}'.")
    if not isinstance(jit_level, str) or jit_level not in _JIT_LEVELS:
        raise ValueError(f"For 'jit', the 'jit_level' must be str and must be in "
                         f"'{list(_JIT_LEVELS)}', but got '{jit_level}'.")
    if isinstance(dynamic, bool) or not isinstance(dynamic, int):
        raise TypeError(f"For 'jit', the 'dynamic' must be an int, but got "
                        f"{type(dynamic).__name__}.")
    if dynamic not in (0, 1):
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got "
                         f"{dynamic} with type 'int'.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' must be a bool, but got "
                        f"{type(fullgraph).__name__}.")
    if not isinstance(backend, str) or backend not in _BACKENDS:
        raise ValueError(f"For 'jit', the 'backend' must be one of {list(_BACKENDS)}, "
                         f"but got {backend!r}.")


def jit(function=None, *, capture_mode: str = "ast", jit_level: str = _UNSET_LEVEL,
        dynamic: int = 0, fullgraph: bool = False, backend: str = "", **options):
    """Compile ``function`` (a function, a method, a Cell's ``construct``) on its first call
    per input signature, as ``sporeling.expression.jit``, at ``jit_level`` when given (else
    the context's); the other keywords are MindSpore 2.10's, validated, and change nothing
    (see the module doc). ``options`` (``exec_order``, ``infer_boost``, the deprecated
    ``mode``/``input_signature``/``jit_config``, ...) are accepted and ignored."""
    _check(capture_mode, jit_level, dynamic, fullgraph, backend)
    level = None if jit_level is _UNSET_LEVEL else str(jit_level)
    if function is None:
        return lambda fn: _sx_jit(fn, jit_level=level, specialize_values=True)
    return _sx_jit(function, jit_level=level, specialize_values=True)
