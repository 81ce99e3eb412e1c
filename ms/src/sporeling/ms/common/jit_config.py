"""``ms.JitConfig``: MindSpore 2.10's compile options, validated and kept in
``jit_config_dict`` (what ``Cell.set_jit_config``, ``data_sink`` and ``set_context(jit_config=)``
take). ``jit_level`` selects how the graph compiles -- O0 no fusion, O1 fused, O2 fused with
native code where a code generator is installed (``sporeling.compiler.jit_levels``); ""
leaves it to the context's ``jit_level``. The other values are recorded and change nothing
(Sporeling has one execution mode and one syntax level)."""
from __future__ import annotations

__all__ = ["JitConfig"]

_CHOICES = {
    "jit_level": ("", "O0", "O1", "O2"),
    "exc_mode": ("auto", "sink", "no_sink"),
    "jit_syntax_level": ("", "STRICT", "COMPATIBLE", "LAX"),
    "debug_level": ("RELEASE", "DEBUG"),
    "infer_boost": ("on", "off"),
}


class JitConfig:
    """``JitConfig(jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
    infer_boost="off", **kwargs)``; ``jit_config_dict`` holds every option (as strings)."""

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="",
                 debug_level="RELEASE", infer_boost="off", **kwargs):
        given = {"jit_level": jit_level, "exc_mode": exc_mode,
                 "jit_syntax_level": jit_syntax_level, "debug_level": debug_level,
                 "infer_boost": infer_boost}
        for name, value in given.items():
            if not isinstance(value, str) or value not in _CHOICES[name]:
                raise ValueError(f"For 'jit_config', the '{name}' must be one of "
                                 f"{list(_CHOICES[name])}, but got {value!r}.")
        self.jit_config_dict = dict(given)
        self.jit_config_dict.update({k: str(v) for k, v in kwargs.items()})

    @property
    def level(self) -> str | None:
        """The ``jit_level`` to compile at; None leaves it to the context."""
        return self.jit_config_dict["jit_level"] or None

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"
