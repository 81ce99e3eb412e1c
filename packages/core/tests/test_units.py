import pytest
from hypothesis import given, strategies as st

from sporeling.core import SizeError, format_size, parse_size


@pytest.mark.parametrize("text, expected", [
    ("512MB", 512 * 1024**2), ("1GB", 1024**3), ("1G", 1024**3), ("1.5g", 1536 * 1024**2),
    ("64kb", 65536), ("100", 100), ("100B", 100), (4096, 4096), (" 2 TB ", 2 * 1024**4)])
def test_parse(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("bad", ["1XB", "-1GB", "0", "GB", "", "1 G B", 0, -5, True, 1.5, None])
def test_bad_sizes_are_clear(bad):
    with pytest.raises(SizeError) as info:
        parse_size(bad, name="mempool_block_size")
    assert "mempool_block_size" in str(info.value) and repr(bad) in str(info.value)


def test_unknown_unit_lists_units():
    with pytest.raises(SizeError, match="unknown unit 'XB'.*GB"):
        parse_size("1XB")


@given(st.integers(1, 2**50))
def test_format_round_trips_to_within_rounding(n):
    text = format_size(n)
    assert abs(parse_size(text.replace(" ", "")) - n) <= max(1, n * 0.006)
