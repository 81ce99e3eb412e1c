"""The generated oneDNN constants: they agree with the installed libdnnl, a wrong value is
caught and named, and regenerating them from the v3.2 headers gives the committed file."""
import ctypes
import importlib.util
import shutil
import sys
import time
from pathlib import Path

import pytest

from sporeling.onednn import constants
from sporeling.onednn.check_constants import ConstantsMismatch, verify

GENERATOR = Path(__file__).resolve().parents[1] / "tools" / "gen_constants.py"
LIBRARY = Path(sys.prefix, "lib", "libdnnl.so.3")  # where the onednn-cpu-gomp wheel puts it


@pytest.fixture(scope="module")
def lib():
    if not LIBRARY.exists():
        pytest.skip(f"{LIBRARY} absent (pip install onednn-cpu-gomp==2023.2.0)")
    return ctypes.CDLL(str(LIBRARY))


def mismatch(lib) -> ConstantsMismatch:
    with pytest.raises(ConstantsMismatch) as caught:
        verify(lib)
    return caught.value


def test_verify_passes_and_checks_every_enumerator_with_a_2str(lib):
    # 1,637 enumerators, 8 runtime ids, the version and two dnnl_version_t fields
    assert verify(lib) == 1637 + 8 + 3


def test_verify_is_fast(lib):
    # it runs at import of the plugin
    best = min(_timed(verify, lib) for _ in range(5))
    assert best < 0.020, f"verify took {best * 1e3:.1f} ms"


def _timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def test_a_wrong_value_is_named_with_what_the_library_says(lib, monkeypatch):
    monkeypatch.setitem(constants.ENUMS["dnnl_data_type_t"], "dnnl_f32", constants.dnnl_s32)
    monkeypatch.setattr(constants, "dnnl_f32", constants.dnnl_s32)  # as if generated so
    error = mismatch(lib)
    assert ("dnnl_f32", constants.dnnl_s32, "s32") in error.mismatches
    assert "dnnl_f32 = 4 but the library says 's32'" in str(error)


def test_a_wrong_alias_is_caught(lib, monkeypatch):
    # dnnl_nhwc's value is also dnnl_acdb's, which the library names "acdb", not "abcd"
    tags = constants.ENUMS["dnnl_format_tag_t"]
    monkeypatch.setitem(tags, "dnnl_nchw", constants.dnnl_nhwc)
    monkeypatch.setattr(constants, "dnnl_nchw", constants.dnnl_nhwc)
    assert ("dnnl_nchw", constants.dnnl_nhwc, "acdb") in mismatch(lib).mismatches


def test_a_module_attribute_that_left_its_table_is_caught(lib, monkeypatch):
    monkeypatch.setattr(constants, "DNNL_ARG_DST", constants.DNNL_ARG_SRC)
    error = mismatch(lib)
    assert error.mismatches == [("DNNL_ARG_DST", 1, 17)]
    assert "DNNL_ARG_DST = 1 but its ENUMS/MACROS entry is 17" in str(error)


def test_another_version_is_caught(lib, monkeypatch):
    monkeypatch.setattr(constants, "ONEDNN_VERSION", (2, 7, 0))
    assert mismatch(lib).mismatches == [("ONEDNN_VERSION", (2, 7, 0), "3.2.0")]


def test_a_build_without_experimental_sparse_skips_only_the_sparse_names():
    class NoSparse(ctypes.CDLL):
        def __getattr__(self, name):
            if name == "dnnl_sparse_encoding2str":
                raise AttributeError(name)
            return super().__getattr__(name)

    if not LIBRARY.exists():
        pytest.skip(f"{LIBRARY} absent")
    # of the sparse names only these three have a 2str (fmt_kind, sparse_encoding)
    assert verify(NoSparse(str(LIBRARY))) == 1637 + 8 + 3 - 3


def test_regenerating_from_the_headers_gives_the_committed_file():
    spec = importlib.util.spec_from_file_location("gen_constants", GENERATOR)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    if not Path(gen.REPO).is_dir() or not shutil.which("gcc") or not shutil.which("git"):
        pytest.skip("needs the oneDNN git mirror, git and gcc")
    committed = Path(constants.__file__).read_bytes()
    assert gen.generate(gen.REPO, gen.TAG).encode() == committed
