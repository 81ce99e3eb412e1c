"""sporeling.tvm_backend: Graph mode's fused elementwise chains compiled to native loops by
Apache TVM (TensorIR scheduled, LLVM inside the wheel), as a stacked backend plugin."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("sporeling-tvm-backend")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"
