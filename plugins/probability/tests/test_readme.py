"""The README's first example runs as written."""
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs():
    text = README.read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)
    assert 1.7 < float(scope["grad"].asnumpy()[0]) < 2.3      # d/dalpha E[Gamma] = 1/rate
    ref = scope["sp"].LogNormal(0.0, 0.5).log_prob(1.5).asnumpy()
    assert abs(float(scope["ln"].log_prob(1.5).asnumpy()) - float(ref)) < 1e-6
