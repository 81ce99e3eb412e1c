"""The README's neural-operator example runs as written (with small sizes)."""
import re
from pathlib import Path

import numpy as np

from sporeling.core.testing import run_example


def _example(section):
    text = (Path(__file__).parents[1] / "README.md").read_text()
    return re.search(rf"## {section}\n\n.*?```python\n(.*?)```", text, re.S)[1]


def test_readme_operators_example_runs():
    code = _example("Neural operators")
    small = (code.replace("burgers_dataset(1200, 128", "burgers_dataset(12, 32")
             .replace("u0[:1000], u1[:1000]", "u0[:8], u1[:8]")
             .replace("u0[1000:], u1[1000:]", "u0[8:], u1[8:]")
             .replace("epochs=40", "epochs=1, batch_size=4, modes=4, width=8"))
    assert small != code
    scope: dict = {}
    run_example(small, "science README FNO example", scope)
    np.testing.assert_allclose(scope["y"], np.fft.irfft(np.fft.rfft(scope["x"])[:, :16], 64),
                               atol=1e-5)
    assert np.isfinite(scope["history"]["test_relative_l2"])
