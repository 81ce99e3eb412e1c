"""The coverage figures in ms/README.md and README.md are those ms/api/coverage.py computes
from the stored MindSpore 2.10 lists (ms/api/mindspore-2.10/, no MindSpore needed); the
rule that makes a name public and the stub detection behave as ms/api/README.md says."""
import importlib.util
import sys
import types
from pathlib import Path

import pytest

API_DIR = Path(__file__).resolve().parents[1] / "api"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"ms_api_{name}", API_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


coverage = _load("coverage")
groups = coverage.groups


@pytest.fixture(scope="module")
def report():
    return coverage.compute()


def test_every_group_has_a_stored_list(report):
    assert [g.group.key for g in report.groups] == [g.key for g in groups.GROUPS]
    for g in report.groups:
        assert g.total > 0, g.group.key
        assert coverage.read_list(coverage.LISTS_DIR / f"{g.group.key}.txt").header[0] \
            .startswith(f"MindSpore {groups.VERSION}")
    stored = {p.stem for p in coverage.LISTS_DIR.glob("*.txt")}
    assert stored == {g.key for g in groups.GROUPS}, "a list no group reads, or the reverse"


def test_readmes_match_the_computation(report):
    stale = [str(path) for path, (current, updated) in coverage.expected_readmes(report).items()
             if current != updated]
    assert not stale, f"stale coverage figures in {stale}: run python ms/api/coverage.py"


def test_check_flag_agrees(report, capsys):
    assert coverage.main(["--check"]) == 0


def test_figures_add_up(report):
    for g in report.groups:
        assert 0 <= g.present <= g.total
        assert set(g.eager_only) <= set(g.names) - set(g.absent) - set(g.stubs)
    assert report.present == sum(g.present for g in report.groups)
    # some names the facade has had from the start
    by_key = {g.group.key: g for g in report.groups}
    assert "abs" in by_key["ops.functions"].names
    assert "abs" not in by_key["ops.functions"].absent
    assert "Dense" not in by_key["nn.cells"].absent
    assert "ReduceSum" not in by_key["ops.primitives"].absent


# --- the rule, on small fixtures --------------------------------------------------------

def _module(name, **attrs):
    module = types.ModuleType(name)
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


def test_namespace_with_all_keeps_bound_public_identifiers():
    def f():
        pass
    mod = _module("pkg.sub", f=f, g=f, _h=f, __all__=["f", "_h", "missing", "2", ".", "f"])
    assert groups.namespace_names(mod) == {"f"}


def test_namespace_without_all_keeps_own_package_non_modules():
    def own():
        pass
    own.__module__ = "pkg.impl"

    def foreign():
        pass
    foreign.__module__ = "typing"
    mod = _module("pkg.sub", own=own, foreign=foreign, os=sys, CONST=3, _private=own)
    assert groups.namespace_names(mod) == {"own", "CONST"}


def test_class_names_are_dir_without_underscores():
    class Base:
        def inherited(self):
            pass

    class Cls(Base):
        attr = 1

        def _private(self):
            pass

        @property
        def prop(self):
            return 1
    assert groups.class_names(Cls) == {"inherited", "attr", "prop"}


def test_stub_detection():
    from sporeling.core.errors import SporelingError

    def stub_a(x):
        """Doc."""
        raise NotImplementedError

    def stub_b(x):
        raise SporelingError("ops.foo is not supported in sporeling.ms")

    def real(x):
        if x:
            raise NotImplementedError
        return x

    def refusing_one_mode(x):
        raise ValueError("mode 'bicubic' must be one of ...")

    class StubCell:
        def __init__(self):
            raise NotImplementedError("not implemented")

    class RealCell:
        def __init__(self):
            self.a = 1

    def marked(x):
        return x
    marked.__ms_stub__ = True
    assert coverage.is_stub(stub_a) and coverage.is_stub(stub_b)
    assert coverage.is_stub(StubCell) and coverage.is_stub(marked)
    assert not coverage.is_stub(real) and not coverage.is_stub(refusing_one_mode)
    assert not coverage.is_stub(RealCell) and not coverage.is_stub(len)
    assert coverage.is_stub(property(stub_a)) and not coverage.is_stub(property(real))


def test_compute_on_a_fixture_tree(tmp_path):
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "fake.txt").write_text(
        "# MindSpore 2.10: fake\n# target: mindspore.sub\n# kind: namespace\n\n"
        "eager\nhas\nlacks\nstub\nunlisted\n")
    (lists / "cls.txt").write_text(
        "# MindSpore 2.10: cls\n# target: mindspore.Thing\n# kind: class\n\nm\nn\n")

    def has(x):
        return x

    def stub(x):
        raise NotImplementedError

    def eager(x):
        return x
    eager.__ms_eager_only__ = True

    class Thing:
        def m(self):
            pass
    sub = _module("fake.sub", has=has, stub=stub, eager=eager, unlisted=has,
                  __all__=["has", "stub", "eager"])
    root = _module("fake", sub=sub, Thing=Thing)
    group_list = [groups.Group("fake", "fake", "mindspore.sub", "namespace"),
                  groups.Group("cls", "cls", "mindspore.Thing", "class")]
    report = coverage.compute(lists, root, group_list)
    fake, cls = report.groups
    assert fake.absent == ["lacks", "unlisted"] and fake.unlisted == ["unlisted"]
    assert fake.stubs == ["stub"] and fake.eager_only == ["eager"] and fake.present == 2
    assert cls.absent == ["n"] and cls.present == 1
    assert (report.present, report.total) == (3, 7)
    table = coverage.render(report)
    assert "| **all** | 7 | 3 | 1 | 1 | **42.9%** |" in table
    assert coverage.summary(report) == "3 of 7 public names of MindSpore 2.10 (42.9%)"


def test_list_header_must_match_its_group(tmp_path):
    (tmp_path / "fake.txt").write_text("# target: mindspore.other\n# kind: namespace\n\na\n")
    with pytest.raises(coverage.ListFormatError, match="dump_names"):
        coverage.compute(tmp_path, _module("fake"),
                         [groups.Group("fake", "fake", "mindspore.sub", "namespace")])


def test_unsorted_or_headless_lists_are_refused(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("# target: mindspore.ops\n# kind: namespace\n\nb\na\n")
    with pytest.raises(coverage.ListFormatError, match="sorted"):
        coverage.read_list(path)
    path.write_text("a\n")
    with pytest.raises(coverage.ListFormatError, match="target"):
        coverage.read_list(path)


def test_readme_helpers_keep_the_rest():
    text = f"intro\n{coverage.BEGIN}\nold\n{coverage.END}\noutro\n"
    assert coverage.replace_between_markers(text, "new") == (
        f"intro\n{coverage.BEGIN}\nnew\n{coverage.END}\noutro\n")
    row = "| `ms` | x (1 of 2 public names of MindSpore 2.10 (50.0%)) | done |"
    assert coverage.replace_summary(row, "2 of 2 public names of MindSpore 2.10 (100.0%)") \
        == "| `ms` | x (2 of 2 public names of MindSpore 2.10 (100.0%)) | done |"
    with pytest.raises(ValueError):
        coverage.replace_summary("nothing here", "x")
