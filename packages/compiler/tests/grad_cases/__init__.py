"""Gradient-check cases, one module per family of primitives.

Each module defines ``CASES``: primitive name -> list of ``(function, args)`` or
``(function, args, check_grads keyword arguments)`` where
``function`` calls the op (so promotion and defaults are exercised) and ``args`` are NumPy
arrays away from kinks. ``test_every_primitive_is_grad_checked`` runs them all and fails
when a differentiable primitive has no case.
"""
import importlib
import pkgutil


def all_cases() -> dict[str, list]:
    cases: dict[str, list] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, items in module.CASES.items():
            cases.setdefault(name, []).extend(items)
    return cases
