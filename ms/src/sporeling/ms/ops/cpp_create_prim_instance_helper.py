"""``ops.cpp_create_prim_instance_helper``: the tables 2.10 generates for building a
Primitive instance from C++ -- ``op_args_default_value`` (each primitive's arguments that have
a default, and the default: ``op_args_default_value["Concat"] == {"axis": 0}``) and
``op_labels`` (the primitives with side effects: ``{"Assign": {"side_effect_mem": True}}``).
Here they describe the facade's primitive classes: the defaults are read from each class's
constructor and call signatures, the labels are 2.10's for the classes the facade has."""
from __future__ import annotations

import inspect

__all__ = ["op_args_default_value", "op_labels"]

# 2.10's labels of the primitives the facade has (their side effect: writing an input's
# memory, or a hidden random state)
_LABELS = {
    "Assign": {"side_effect_mem": True}, "AssignAdd": {"side_effect_mem": True},
    "AssignSub": {"side_effect_mem": True}, "AdamWeightDecay": {"side_effect_mem": True},
    "ApplyAdamW": {"side_effect_mem": True}, "AdamW": {"side_effect_mem": True},
    "Embedding": {"side_effect_mem": True}, "ReshapeAndCache": {"side_effect_mem": True},
    "TransposeView": {"side_effect_mem": True}, "TransposeExtView": {"side_effect_mem": True},
    "Dropout": {"side_effect_hidden": True}, "DropoutExt": {"side_effect_hidden": True},
    "DropoutGenMaskExt": {"side_effect_hidden": True},
    "Log": {"cust_aicpu": "Log", "base": -1.0, "scale": 1.0, "shift": 0.0},
}


def _defaults(cls) -> dict:
    out = {}
    for member in (cls.__init__, cls.__call__):
        try:
            params = inspect.signature(member).parameters.values()
        except (TypeError, ValueError):
            continue
        for p in params:
            if p.name != "self" and p.default is not inspect.Parameter.empty \
                    and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                out.setdefault(p.name, p.default)
    return out


def _primitive_classes() -> dict:
    from . import primitives
    return {name: getattr(primitives, name) for name in primitives.__all__
            if inspect.isclass(getattr(primitives, name))
            and issubclass(getattr(primitives, name), primitives.Primitive)}


def __getattr__(name):  # built on first use (reading ~600 signatures takes ~20 ms)
    if name in __all__:
        classes = _primitive_classes()
        globals().update(
            op_args_default_value={n: d for n, cls in sorted(classes.items())
                                   if (d := _defaults(cls))},
            op_labels={n: dict(label) for n, label in _LABELS.items() if n in classes})
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
