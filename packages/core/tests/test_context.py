import pytest

import sporeling.core as sc
from sporeling.core import ContextError, context, get_context, set_context


def test_defaults_mode_is_pynative_like_mindspore():
    assert get_context("mode") == sc.PYNATIVE_MODE and get_context("device_target") == "CPU"
    assert get_context("max_call_depth") == 1000
    assert {"mode", "device_target", "device_id", "max_call_depth"} <= set(get_context())


def test_set_and_get():
    set_context(mode=sc.GRAPH_MODE, device_target="cpu", max_call_depth=50)
    assert get_context("mode") == sc.GRAPH_MODE
    assert get_context("device_target") == "CPU"  # normalised
    assert get_context()["max_call_depth"] == 50


def test_unknown_key_lists_valid_and_suggests():
    with pytest.raises(ContextError) as info:
        set_context(mdoe=sc.GRAPH_MODE)
    msg = str(info.value)
    assert "unknown key 'mdoe'" in msg and "device_target" in msg and "Did you mean 'mode'" in msg
    with pytest.raises(ContextError, match="unknown key 'nope'"):
        get_context("nope")


@pytest.mark.parametrize("key, bad", [
    ("mode", 2), ("mode", "graph"), ("mode", True), ("device_target", ""),
    ("device_id", -1), ("max_call_depth", 0), ("max_call_depth", 2.5)])
def test_bad_values_say_what_is_valid(key, bad):
    with pytest.raises(ContextError) as info:
        set_context(**{key: bad})
    assert repr(bad) in str(info.value) and "expected" in str(info.value)


def test_all_keys_validated_before_any_applied():
    with pytest.raises(ContextError):
        set_context(max_call_depth=7, mode=99)
    assert get_context("max_call_depth") == 1000


def test_context_manager_restores_even_on_error():
    set_context(max_call_depth=10)
    with pytest.raises(RuntimeError):
        with context(max_call_depth=20, mode=sc.GRAPH_MODE):
            assert get_context("max_call_depth") == 20
            raise RuntimeError
    assert get_context("max_call_depth") == 10 and get_context("mode") == sc.PYNATIVE_MODE


def test_plugin_contributes_keys_through_sporeling_add_context_options(fake_distribution, fresh_host):
    fake_distribution("sporeling-flavours", {"flavours": """
        from sporeling.core import impl

        @impl
        def sporeling_add_context_options(options):
            options.add_option("flavour", "plain", doc="taste", valid="'plain' or 'spicy'",
                               choices={"plain": "plain", "spicy": "spicy"})
    """}, {"flavours": "flavours"})
    fresh_host()
    assert get_context("flavour") == "plain"
    set_context(flavour="spicy")
    assert get_context("flavour") == "spicy"
    with pytest.raises(ContextError, match="'plain' or 'spicy'.*got 'sweet'"):
        set_context(flavour="sweet")


def test_context_version_changes_on_every_change():
    v0 = sc.context_version()
    set_context(device_id=1)
    v1 = sc.context_version()
    with context(device_id=2):
        v2 = sc.context_version()
    assert len({v0, v1, v2, sc.context_version()}) == 4


def test_defaults_are_converted_and_a_bad_default_names_the_plugin(fake_distribution, fresh_host):
    fake_distribution("sporeling-sizes", {"sizes_plugin": """
        from sporeling.core import impl, parse_size

        @impl
        def sporeling_add_context_options(options):
            options.add_option("cache_size", "2KB", doc="d", valid="a size", convert=parse_size)
    """}, {"sizes": "sizes_plugin"})
    fresh_host()
    assert get_context("cache_size") == 2048


def test_bad_default_is_a_plugin_error():
    from sporeling.core import ContextOptions, PluginError
    options = ContextOptions()
    options.source = "weird"
    with pytest.raises(PluginError, match="bad default for context option 'n' from plugin 'weird'"):
        options.add_option("n", -1, doc="d", valid="an int >= 0",
                           convert=lambda v: v if v >= 0 else int("x"))
