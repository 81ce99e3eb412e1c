import pytest

from sporeling.core import (ContextError, DTypeError, OutOfMemoryError, PluginError,
                            ShapeError, SizeError, SporelingError)


def test_message_says_what_expected_got_where():
    err = ShapeError("operands do not broadcast", op="add", expected="equal or 1 per axis",
                     got="(2, 3) and (4, 3)", where="model.py:12", hint="reshape one of them")
    assert str(err) == ("add: operands do not broadcast; expected equal or 1 per axis, "
                        "got (2, 3) and (4, 3) (at model.py:12). Reshape one of them")
    assert (err.op, err.expected, err.got, err.where) == (
        "add", "equal or 1 per axis", "(2, 3) and (4, 3)", "model.py:12")


def test_plain_message():
    assert str(PluginError("boom")) == "boom"


@pytest.mark.parametrize("cls, builtin", [
    (ShapeError, ValueError), (DTypeError, TypeError), (ContextError, ValueError),
    (SizeError, ValueError), (PluginError, RuntimeError), (OutOfMemoryError, MemoryError)])
def test_hierarchy_matches_builtins(cls, builtin):
    assert issubclass(cls, SporelingError) and issubclass(cls, builtin)
    with pytest.raises(builtin):
        raise cls("x")
