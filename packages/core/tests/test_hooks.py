import types
import warnings

import pytest

from sporeling.core import (PluginError, PluginHost, PluginWarning, Registry, get_plugin_host,
                            hookspec, impl)
from sporeling.core.cli import Commands
from sporeling.core.hooks import declare_registry

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


def _owner():
    owner = types.ModuleType("owner")
    owner.HOOKSPECS = _Specs
    return ("owner", "d", "0", owner)


def test_a_duplicate_drops_the_later_plugin_naming_both_and_the_rest_keeps_working():
    host = PluginHost(load=False)

    def b(widgets):
        widgets.add("lever", 3)          # added before the clash: rolled back with it
        widgets.add("knob", 2)

    host.add_plugins([_owner(),
                      _plugin("a", lambda widgets: widgets.add("knob", 1)),
                      _plugin("b", b),
                      _plugin("c", lambda widgets: widgets.add("switch", 4))])
    with pytest.warns(PluginWarning, match="'b'.*SPORELING_DISABLED_PLUGINS=b silences"):
        widgets = host.collect("sporeling_add_widgets", Registry("widget"))
    assert dict(widgets.items()) == {"knob": 1, "switch": 4} and widgets.source_of("knob") == "a"
    failure = {f.name: f for f in host.failed}["b"]
    assert failure.distribution == "dist-b"
    for part in ("widget 'knob'", "plugin 'a' (dist-a)", "plugin 'b' (dist-b)",
                 "sporeling_add_widgets"):
        assert part in failure.error
    assert "b" not in {p.name for p in host.loaded} and host.pm.get_plugin("b") is None
    assert host.collect("sporeling_add_widgets", Registry("widget")).names() == ["knob",
                                                                                  "switch"]


def test_a_plugin_crashing_in_a_hook_is_dropped_with_its_error():
    host = PluginHost(load=False)
    host.add_plugins([_owner(), _plugin("crashy", lambda widgets: 1 / 0),
                      _plugin("fine", lambda widgets: widgets.add("knob", 1))])
    with pytest.warns(PluginWarning, match="'crashy'.*ZeroDivisionError"):
        widgets = host.collect("sporeling_add_widgets", Registry("widget"))
    assert widgets.names() == ["knob"]
    error = {f.name: f for f in host.failed}["crashy"].error
    assert "sporeling_add_widgets" in error and "ZeroDivisionError" in error
    assert "ZeroDivisionError" in {f.name: f for f in host.failed}["crashy"].traceback


def test_a_dropped_plugin_takes_back_a_replacement_and_its_other_registries():
    class Specs(_Specs):
        @hookspec
        def sporeling_add_gadgets(self, gadgets):
            """Add gadgets."""

    owner = types.ModuleType("owner")
    owner.HOOKSPECS = Specs
    rogue = types.ModuleType("rogue")
    rogue.sporeling_add_gadgets = impl(lambda gadgets: gadgets.add("gizmo", "rogue's"))

    def widgets_then_clash(widgets):
        widgets.add("knob", "rogue's", replace=True)
        widgets.add("dial", 2)                     # a's: the clash
    rogue.sporeling_add_widgets = impl(widgets_then_clash)
    host = PluginHost(load=False)
    host.add_plugins([("owner", "d", "0", owner),
                      _plugin("a", lambda widgets: (widgets.add("knob", 1),
                                                    widgets.add("dial", 1))),
                      ("rogue", "dist-rogue", "0", rogue)])
    gadgets = lambda: host.cached("gadgets", lambda: host.collect(  # noqa: E731
        "sporeling_add_gadgets", Registry("gadget")))
    assert "gizmo" in gadgets()
    with pytest.warns(PluginWarning):
        widgets = host.collect("sporeling_add_widgets", Registry("widget"))
    assert widgets["knob"] == 1 and widgets.source_of("knob") == "a"
    assert "gizmo" not in gadgets()                # caches rebuilt without the plugin


def test_registries_declared_by_packages_are_collected_for_a_check():
    host = PluginHost(load=False)
    host.add_plugins([_owner(), _plugin("a", lambda widgets: widgets.add("knob", 1)),
                      _plugin("b", lambda widgets: widgets.add("knob", 2))])
    declare_registry("sporeling_add_widgets", lambda: Registry("widget"))
    with pytest.warns(PluginWarning):
        host.collect_declared()
    assert [f.name for f in host.failed] == ["b"]
    assert host.registry("sporeling_add_widgets") is host.registry("sporeling_add_widgets")


def test_our_own_distributions_register_before_third_parties(fake_distribution):
    fake_distribution("acme-tools", {"acme_plugin": GOOD}, {"aaa": "acme_plugin"})
    fake_distribution("sporeling-hello", {"hello_plugin": GOOD}, {"zzz": "hello_plugin"})
    host = PluginHost()
    with pytest.warns(PluginWarning, match="'aaa'"):
        commands = host.collect("sporeling_add_commands", Commands())
    assert commands.source_of("hello") == "zzz"
    assert "acme-tools" in {f.name: f for f in host.failed}["aaa"].error


def test_collect_records_sources_and_allows_deliberate_replacement():
    host = PluginHost(load=False)
    host.add_plugins([_owner(),
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
