import types
import warnings

import pytest

from sporeling.core import (PluginError, PluginHost, PluginWarning, Registry, get_plugin_host,
                            hookspec, impl)

GOOD = """
    from sporeling.core import impl

    @impl
    def sporeling_add_commands(commands):
        commands.add_command("hello", help="say hello", run=lambda args: print("hello"))
"""


def test_builtin_core_is_loaded_through_its_entry_point():
    info = {p.name: p for p in get_plugin_host().loaded}["core"]
    assert info.distribution == "sporeling-core" and info.module == "sporeling.core.plugin"
    assert "sporeling_add_context_options" in info.hooks


def test_third_party_plugin_loads_like_builtins(fake_distribution):
    fake_distribution("sporeling-hello", {"hello_plugin": GOOD}, {"hello": "hello_plugin"})
    host = PluginHost()
    info = {p.name: p for p in host.loaded}["hello"]
    assert (info.distribution, info.version, info.hooks) == (
        "sporeling-hello", "1.2.3", ["sporeling_add_commands"])


def test_plugin_raising_on_import_is_reported_and_others_load(fake_distribution):
    fake_distribution("sporeling-broken", {"broken_plugin": "raise ImportError('no libfoo')",
                                           "hello_plugin": GOOD},
                      {"broken": "broken_plugin", "hello": "hello_plugin"})
    with pytest.warns(PluginWarning, match="'broken'.*ImportError: no libfoo"):
        host = PluginHost()
    failed = {f.name: f for f in host.failed}
    assert failed["broken"].error == "ImportError: no libfoo"
    assert "broken_plugin.py" in failed["broken"].traceback
    assert {"core", "hello"} <= {p.name for p in host.loaded}


def test_plugin_with_a_wrong_hook_signature_is_reported(fake_distribution):
    fake_distribution("sporeling-wrong", {"wrong_plugin": """
        from sporeling.core import impl

        @impl
        def sporeling_add_commands(commands, nonsense):
            pass
    """}, {"wrong": "wrong_plugin"})
    with pytest.warns(PluginWarning):
        host = PluginHost()
    assert "nonsense" in {f.name: f for f in host.failed}["wrong"].error
    assert "wrong" not in {p.name for p in host.loaded}


def test_disabled_plugins_are_not_loaded(fake_distribution, monkeypatch):
    fake_distribution("sporeling-hello", {"hello_plugin": GOOD}, {"hello": "hello_plugin"})
    monkeypatch.setenv("SPORELING_DISABLED_PLUGINS", " hello , other")
    host = PluginHost()
    assert "hello" not in {p.name for p in host.loaded} and host.disabled == ["hello"]


class _Specs:
    @hookspec
    def sporeling_add_widgets(self, widgets):
        """Add widgets."""


def _plugin(name, body):
    module = types.ModuleType(name)
    module.sporeling_add_widgets = impl(body)
    return (name, "dist-" + name, "0", module)


def test_collect_reports_duplicates_with_both_plugin_names():
    host = PluginHost(load=False)
    owner = types.ModuleType("owner")
    owner.HOOKSPECS = _Specs
    host.add_plugins([("owner", "d", "0", owner),
                      _plugin("a", lambda widgets: widgets.add("knob", 1)),
                      _plugin("b", lambda widgets: widgets.add("knob", 2))])
    with pytest.raises(PluginError, match="widget 'knob' is registered twice.*'a' and 'b'"):
        host.collect("sporeling_add_widgets", Registry("widget"))


def test_collect_wraps_a_plugin_crash_with_its_name():
    host = PluginHost(load=False)
    owner = types.ModuleType("owner")
    owner.HOOKSPECS = _Specs
    host.add_plugins([("owner", "d", "0", owner),
                      _plugin("crashy", lambda widgets: 1 / 0)])
    with pytest.raises(PluginError, match="plugin 'crashy' failed in sporeling_add_widgets"
                                          ".*ZeroDivisionError"):
        host.collect("sporeling_add_widgets", Registry("widget"))


def test_collect_records_sources_and_allows_deliberate_replacement():
    host = PluginHost(load=False)
    owner = types.ModuleType("owner")
    owner.HOOKSPECS = _Specs
    host.add_plugins([("owner", "d", "0", owner),
                      _plugin("a", lambda widgets: widgets.add("knob", 1)),
                      _plugin("b", lambda widgets: widgets.add("knob", 2, replace=True))])
    widgets = host.collect("sporeling_add_widgets", Registry("widget"))
    assert widgets["knob"] == 2 and widgets.source_of("knob") == "b"
    with pytest.raises(KeyError, match="no widget named 'dial'; known: knob"):
        widgets["dial"]


def test_collect_on_an_unspecified_hook_is_clear():
    host = PluginHost(load=False)
    with pytest.raises(PluginError, match="no specification"):
        host.collect("sporeling_add_gadgets", Registry("gadget"))


def test_cached_values_are_per_host():
    host = PluginHost(load=False)
    assert host.cached("k", lambda: [1]) is host.cached("k", lambda: [2])
    assert PluginHost(load=False).cached("k", lambda: [2]) == [2]
