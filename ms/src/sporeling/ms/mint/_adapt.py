"""Argument adapters of ``ms.mint``: mint takes PyTorch-style keywords (``dim``,
``keepdim``, ``input``); each mint name is an existing ``ms.ops`` function called with its
keywords renamed (``renamed``) or, where the convention differs more, a few lines."""
from __future__ import annotations

import functools
import inspect

_STD_RENAMES = {"dim": "axis", "keepdim": "keep_dims"}


def renamed(target, mapping=None, name=None):
    """``target`` with keyword ``k`` passed as ``mapping[k]`` (positions unchanged)."""
    mapping = dict(mapping or {})

    @functools.wraps(target)
    def call(*args, **kwargs):
        return target(*args, **{mapping.get(k, k): v for k, v in kwargs.items()})

    call.__name__ = call.__qualname__ = name or target.__name__
    call.__module__ = __name__.rsplit(".", 1)[0]
    call.__wrapped__ = target
    return call


def auto_mapping(target) -> dict:
    """mint's ``input``/``dim``/``keepdim`` mapped onto ``target``'s own parameter names."""
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        return {}
    mapping = {}
    if params and params[0] not in ("input", "args") and "input" not in params:
        mapping["input"] = params[0]
    if "dim" not in params and "axis" in params:
        mapping["dim"] = "axis"
    if "keepdim" not in params:
        for name in ("keep_dims", "keepdims"):
            if name in params:
                mapping["keepdim"] = name
    return mapping


def same(names, source, namespace: dict, module: str) -> list[str]:
    """Bind each ``source.<name>`` into ``namespace``, behind ``renamed`` where its keyword
    names are not mint's (``auto_mapping``)."""
    for name in names:
        target = getattr(source, name)
        mapping = auto_mapping(target)
        namespace[name] = renamed(target, mapping, name) if mapping else target
        if mapping:
            namespace[name].__module__ = module
    return list(names)


def table(entries: dict, namespace: dict, module: str) -> list[str]:
    """Bind ``name -> (target, mapping)`` entries into ``namespace``; returns the names."""
    for name, (target, mapping) in entries.items():
        fn = target if mapping is None else renamed(target, mapping, name)
        if mapping is not None:
            fn.__module__ = module
        namespace[name] = fn
    return list(entries)
