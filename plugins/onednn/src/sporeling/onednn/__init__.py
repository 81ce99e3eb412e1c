"""sporeling.onednn: oneDNN (Intel's deep-learning kernel library, the CPU backend of
PyTorch and MindSpore) as a Sporeling backend plugin, bound with ctypes."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("sporeling-onednn")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"
