"""``ms.load_segmented_checkpoints``: every ``.ckpt`` file of a directory, merged into one
``{name: Parameter}`` (a checkpoint saved in pieces, one file per segment)."""
from __future__ import annotations

import glob
import os

from sporeling.core.errors import ArgumentError

from .train.serialization import load_checkpoint, load_param_into_net

__all__ = ["load_segmented_checkpoints"]


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None,
                               dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                               choice_func=None) -> dict:
    """The parameters of all ``*.ckpt`` files in ``ckpt_file_dir`` (in name order; a later
    file's entry wins), loaded into ``net`` too when given. The other arguments select and
    decode as :func:`load_checkpoint`'s do, per file."""
    if not isinstance(ckpt_file_dir, str):
        raise ArgumentError("load_segmented_checkpoints: ckpt_file_dir must be a str",
                            expected="a directory path (str)", got=type(ckpt_file_dir).__name__)
    if not os.path.isdir(ckpt_file_dir):
        raise ArgumentError("load_segmented_checkpoints: ckpt_file_dir is not a directory",
                            expected="an existing directory", got=repr(ckpt_file_dir))
    merged: dict = {}
    for path in sorted(glob.glob(os.path.join(glob.escape(ckpt_file_dir), "*.ckpt"))):
        merged.update(load_checkpoint(path, None, strict_load, filter_prefix, dec_key,
                                      dec_mode, specify_prefix, choice_func))
    if net is not None:
        load_param_into_net(net, merged, strict_load=strict_load)
    return merged
