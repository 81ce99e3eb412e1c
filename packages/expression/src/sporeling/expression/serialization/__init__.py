"""Checkpoints in the safetensors format, written atomically (MindSpore's API)."""
from .atomic import atomic_write
from .checkpoint import (SUFFIX, CheckpointError, CheckpointWarning, load_checkpoint,
                         load_param_into_net, save_checkpoint)
from .safetensors_io import read_tensors, write_tensors

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "CheckpointError",
           "CheckpointWarning", "SUFFIX", "atomic_write", "read_tensors", "write_tensors"]
