"""The README's PINN example runs as written (with small sizes)."""
import re
from pathlib import Path

import numpy as np

from sporeling.core.testing import run_example


def test_readme_example_runs():
    text = (Path(__file__).parents[1] / "README.md").read_text()
    code = re.search(r"## Physics-informed networks\n\n```python\n(.*?)```", text, re.S)[1]
    small = (code.replace("[20] * 8", "[8]").replace("collocation=10000", "collocation=64")
             .replace("train_adam(500", "train_adam(3").replace("train_lbfgs(10000", "train_lbfgs(3")
             .replace(", 100,", ", 8,").replace("LossLogger(100)", "LossLogger(1)"))
    scope: dict = {}
    run_example(small, "science README PINN example", scope)
    assert scope["u"].shape == (2,) and np.isfinite(scope["u"]).all()
