"""Helpers shared by runtime's tests (a unique module name: other packages' suites have a
``conftest`` too, and may run in the same pytest process)."""
import types

from sporeling.core import impl

KB = 1024
MB = 1024 * KB


def fake_plugin(name: str, **hooks) -> types.ModuleType:
    """A plugin module implementing ``hooks`` (hook name -> function)."""
    module = types.ModuleType(name)
    for hook_name, fn in hooks.items():
        fn.__name__ = hook_name
        setattr(module, hook_name, impl(fn))
    return module
