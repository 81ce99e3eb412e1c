"""The README's ODE example runs as written."""
import re
from pathlib import Path

import numpy as np

from sporeling.core.testing import run_example


def test_readme_ode_example_runs():
    text = (Path(__file__).parents[1] / "README.md").read_text()
    code = re.search(r"## ODEs\n\n.*?```python\n(.*?)```", text, re.S)[1]
    scope: dict = {}
    run_example(code, "science README ODE example", scope)
    assert scope["ys"].shape == (11, 2)
    assert scope["g_y0"].shape == (1, 2) and len(scope["g_weights"]) == 2
    assert np.isfinite(scope["value"].asnumpy())
