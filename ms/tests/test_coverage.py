"""The coverage table in ms/README.md is generated from ms/api/*.txt and is up to date; the
rule that counts a name (ms/api/README.md) holds; overall coverage meets MIN_COVERAGE."""
import importlib.util
import sys
from pathlib import Path

import pytest

# Issue 9, item 11: at least 90% of the listed MindSpore r2.3 names present and tested.
MIN_COVERAGE = 0.90

API_DIR = Path(__file__).resolve().parents[1] / "api"


def _load_generator():
    spec = importlib.util.spec_from_file_location("ms_api_coverage", API_DIR / "coverage.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


coverage = _load_generator()


@pytest.fixture(scope="module")
def report():
    return coverage.compute()


def test_readme_table_is_up_to_date(report):
    readme = (API_DIR.parent / "README.md").read_text(encoding="utf-8")
    assert coverage.BEGIN in readme and coverage.END in readme
    expected = coverage.replace_between_markers(readme, coverage.render(report))
    assert readme == expected, "ms/README.md's coverage table is stale: python ms/api/coverage.py"


def test_overall_coverage_meets_threshold(report):
    assert report.total > 0
    missing = {r.name_list.path.name: r.absent + r.untested for r in report.lists}
    assert report.fraction >= MIN_COVERAGE, (
        f"coverage {report.fraction:.1%} < {MIN_COVERAGE:.0%}; not covered: {missing}")


def test_each_list_meets_threshold(report):
    for r in report.lists:
        fraction = len(r.covered) / r.total
        assert fraction >= MIN_COVERAGE, (
            f"{r.name_list.path.name}: {fraction:.1%} covered < {MIN_COVERAGE:.0%}; absent "
            f"{r.absent}, untested {r.untested}")


def test_every_list_names_version_and_module(report):
    for r in report.lists:
        header = " ".join(r.name_list.header)
        assert "r2.3" in header, f"{r.name_list.path.name}: header must name MindSpore r2.3"
        assert r.name_list.module


# --- the rule itself, on a small fixture tree -------------------------------------------

def _tree(tmp_path, list_text, tests):
    api, tests_dir = tmp_path / "api", tmp_path / "tests"
    api.mkdir()
    tests_dir.mkdir()
    (api / "fake.txt").write_text(list_text)
    for name, text in tests.items():
        (tests_dir / name).write_text(text)
    return api, tests_dir


LIST = ("# MindSpore r2.3, test fixture\n# module: common.dtype\n\n"
        "# Conversion\nto_numpy\nfrom_numpy\n# Types\nType\nnot_a_facade_name\n")


def test_rule_counts_code_references_not_comments_or_strings(tmp_path):
    api, tests_dir = _tree(tmp_path, LIST, {"test_a.py": (
        "from sporeling.ms.common import dtype\n"
        "def test_x():\n"
        "    assert dtype.to_numpy('float32')  # dtype.from_numpy( in a comment\n"
        "    s = 'dtype.Type'\n"
        "    dtype.not_a_facade_name\n")})
    report = coverage.compute(api, tests_dir)
    (r,) = report.lists
    assert r.covered == ["to_numpy"]
    assert r.untested == ["from_numpy", "Type"]
    assert r.absent == ["not_a_facade_name"]
    assert r.tested_count == 2
    assert report.fraction == pytest.approx(0.25)
    assert r.name_list.category["Type"] == "Types"
    assert r.name_list.header == ["MindSpore r2.3, test fixture"]


def test_rule_accepts_covered_set_backed_by_a_table(tmp_path):
    api, tests_dir = _tree(tmp_path, LIST, {"test_b.py": (
        "COVERED = {'dtype.from_numpy', 'dtype.Type'}\n"
        "TABLE = [('from_numpy', 1), ('Type', 2)]\n")})
    (r,) = coverage.compute(api, tests_dir).lists
    assert r.covered == ["from_numpy", "Type"]


def test_rule_refuses_covered_names_without_a_table(tmp_path):
    api, tests_dir = _tree(tmp_path, LIST, {"test_c.py": "COVERED = {'dtype.Type'}\n"})
    with pytest.raises(coverage.ListFormatError, match="no test table"):
        coverage.compute(api, tests_dir)


def test_list_without_module_line_is_refused(tmp_path):
    api, tests_dir = _tree(tmp_path, "# MindSpore r2.3\n\nabs\n", {})
    with pytest.raises(coverage.ListFormatError, match="module"):
        coverage.compute(api, tests_dir)


def test_duplicate_name_is_refused(tmp_path):
    api, tests_dir = _tree(tmp_path, "# module: nn\n\nDense\nDense\n", {})
    with pytest.raises(coverage.ListFormatError, match="twice"):
        coverage.compute(api, tests_dir)


def test_eager_only_names_are_reported(tmp_path):
    api, tests_dir = _tree(tmp_path, "# r2.3\n# module: common\n\neager_only\n",
                           {"test_d.py": "common.eager_only\n"})
    from sporeling.ms.common import eager_only

    marked = eager_only("ops.demo")(lambda x: x)
    assert marked.__ms_eager_only__ is True
    (r,) = coverage.compute(api, tests_dir).lists
    assert r.covered == ["eager_only"] and r.eager_only == []


def test_marker_replacement_keeps_the_rest_of_the_readme():
    text = f"intro\n{coverage.BEGIN}\nold\n{coverage.END}\noutro\n"
    assert coverage.replace_between_markers(text, "new") == (
        f"intro\n{coverage.BEGIN}\nnew\n{coverage.END}\noutro\n")


def test_comment_right_above_the_first_name_is_its_category(tmp_path):
    api, tests_dir = _tree(tmp_path, "# MindSpore r2.3\n# module: nn\n# Layers\nDense\n", {})
    (r,) = coverage.compute(api, tests_dir).lists
    assert r.name_list.header == ["MindSpore r2.3"]
    assert r.name_list.category["Dense"] == "Layers"
