"""``export(net, *inputs, file_name=, file_format="SIR"|"ONNX")`` and ``load(path)`` -> a
runnable :class:`GraphCell`, as MindSpore's ``export``/``load``."""
from .api import export, load
from .graph_cell import GraphCell

__all__ = ["export", "load", "GraphCell"]
