"""`sporeling train --backend NAME`: the kernels' backend for this run, chosen among the
installed ones (the zoo's env installs only NumPy's; numba's is tested in its plugin)."""
import re

import pytest

import sporeling.zoo.datasets as zoo_datasets
from sporeling.core import get_context
from sporeling.core.cli import main
from sporeling.runtime import get_backend


def test_backend_option_runs_the_job_on_that_backend_and_restores_the_context(
        tmp_path, capsys, monkeypatch):
    seen = []
    load = zoo_datasets.load_digits_split

    def load_and_look(*args, **kwargs):  # the first piece of work sees the chosen backend
        seen.append(get_context("backend"))
        return load(*args, **kwargs)

    monkeypatch.setattr(zoo_datasets, "load_digits_split", load_and_look)
    before = get_context("backend")
    code = main(["train", "--model", "mlp", "--epochs", "1", "--no-progress",
                 "--backend", "numpy", "--output", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert seen == ["numpy"]
    assert "numpy backend" in out
    assert float(re.search(r"test accuracy: ([\d.]+)%", out).group(1)) > 50.0
    assert get_context("backend") == before  # set for the run only


def test_unknown_backend_is_refused_before_any_work_listing_the_installed_ones(
        tmp_path, capsys, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the command started working before refusing its arguments")
    monkeypatch.setattr(zoo_datasets, "load_digits_split", refuse)
    with pytest.raises(SystemExit) as info:
        main(["train", "--no-progress", "--backend", "cuda-ish", "--output", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --backend" in err and "'cuda-ish'" in err and "'numpy'" in err, err


def test_help_names_the_installed_backends_and_the_default(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--backend" in out and "numpy" in out and "default: the context's" in out, out


def test_the_job_runs_blas_on_one_thread_and_gives_the_threads_back(tmp_path, capsys,
                                                                    monkeypatch):
    """Its matrices are tiny (32x400 @ 400x120): several BLAS threads on a busy machine made
    every matmul wait for a core (4 LeNet epochs 39.8 s against 7.2 s on one thread)."""
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads():
        return [p["num_threads"] for p in threadpoolctl.threadpool_info()
                if p["user_api"] == "blas"]

    seen, load = [], zoo_datasets.load_digits_split

    def load_and_look(*args, **kwargs):
        seen.append(blas_threads())
        return load(*args, **kwargs)

    monkeypatch.setattr(zoo_datasets, "load_digits_split", load_and_look)
    get_backend()  # a backend's own thread policy (oneDNN's) is in force before, as after
    before = blas_threads()
    assert before, "NumPy's BLAS is not visible to threadpoolctl"
    code = main(["train", "--model", "mlp", "--epochs", "1", "--no-progress",
                 "--output", str(tmp_path)])
    assert code == 0, capsys.readouterr().out
    assert seen == [[1] * len(before)]
    assert blas_threads() == before
