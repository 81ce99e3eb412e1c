"""A context key's alias is another name of one value (``graph_opt_level`` for core's
``jit_level``): set, read and restored through either; listed once."""
import pytest

from sporeling.core import ContextError, context, get_context, set_context


@pytest.fixture
def flavour_alias(fake_distribution, fresh_host):
    fake_distribution("sporeling-flavours", {"flavours": """
        from sporeling.core import impl

        @impl
        def sporeling_add_context_options(options):
            options.add_option("flavour", "plain", doc="taste", valid="'plain' or 'spicy'",
                               choices={"plain": "plain", "spicy": "spicy"})
            options.add_alias("taste", "flavour", doc="the old name of flavour")
            options.add_alias("old_level", "jit_level", doc="another plugin's name")
    """}, {"flavours": "flavours"})
    fresh_host()


def test_jit_level_is_a_core_key_defaulting_to_o2():
    assert get_context("jit_level") == "O2" and "jit_level" in get_context()
    for level in ("O0", "O1", "O2"):
        set_context(jit_level=level)
        assert get_context("jit_level") == level
    with pytest.raises(ContextError, match='"O0", "O1" or "O2".*got \'O3\''):
        set_context(jit_level="O3")


def test_an_alias_sets_and_reads_the_key_it_names(flavour_alias):
    set_context(taste="spicy")
    assert get_context("flavour") == get_context("taste") == "spicy"
    set_context(flavour="plain")
    assert get_context("taste") == "plain"
    set_context(old_level="O0")  # an alias of a key core declares
    assert get_context("jit_level") == "O0"


def test_an_alias_validates_as_its_key(flavour_alias):
    with pytest.raises(ContextError, match="'plain' or 'spicy'.*got 'sweet'"):
        set_context(taste="sweet")
    assert get_context("flavour") == "plain"


def test_context_through_an_alias_restores_the_key(flavour_alias):
    set_context(flavour="spicy")
    with context(taste="plain"):
        assert get_context("flavour") == "plain"
    assert get_context("flavour") == "spicy"
    with context(old_level="O0"):
        assert get_context("jit_level") == "O0"
    assert get_context("jit_level") == "O2"


def test_one_knob_is_listed_once(flavour_alias):
    keys = get_context()
    assert "flavour" in keys and "taste" not in keys and "old_level" not in keys
