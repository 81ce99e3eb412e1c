"""``ms.dataset.text``: text transforms under MindSpore 2.x's names (sporeling.data's)."""
from sporeling.data.transforms.text import BasicTokenizer, Lookup, PadEnd, Truncate, Vocab

__all__ = ["BasicTokenizer", "Lookup", "PadEnd", "Truncate", "Vocab"]
