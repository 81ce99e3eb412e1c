"""The README's main job, in full: LeNet-5 on the digits reaches at least 98.0% test accuracy."""
import re
import subprocess
import sys


def test_sporeling_train_reaches_98_percent(tmp_path):
    out = subprocess.run([sys.executable, "-c", "from sporeling.core.cli import main; "
                          "raise SystemExit(main())", "train", "--no-progress",
                          "--output", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    accuracy = float(re.search(r"test accuracy: ([\d.]+)%", out.stdout).group(1))
    assert accuracy >= 98.0, out.stdout
    assert (tmp_path / "lenet5_digits.safetensors").exists()
