"""``ms.JitConfig``: MindSpore 2.10's compile options, validated and kept in
``jit_config_dict`` (what ``Cell.set_jit_config`` and ``data_sink`` take). Sporeling has one
pass pipeline and one syntax level, so the values are recorded and change nothing."""
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

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"
