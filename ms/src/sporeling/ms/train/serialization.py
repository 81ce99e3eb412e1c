"""MindSpore 2.x's checkpoint functions (``mindspore.train.serialization``): ``.ckpt`` files
in MindSpore's own protobuf format, or safetensors with ``format="safetensors"``.

``save_checkpoint(net, "lenet.ckpt")`` writes the file MindSpore 2.10 writes, where it
writes it (``.ckpt``, or ``.safetensors`` with that format, is appended when the name does
not end with it), atomically: a temporary beside it, then a rename, so a failed save leaves
the old file. Each tensor gets a CRC32 (a field MindSpore's parser skips in a ``.ckpt``, a
header entry in safetensors), checked on load. ``load_checkpoint`` tells the two formats apart by their content, whatever the
suffix, and returns ``{name: Parameter or str}``. ``ckpt_to_safetensors`` and
``safetensors_to_ckpt`` convert files or ``rank*`` folders as MindSpore's do. Nothing is
unpickled; a damaged or truncated file is a :class:`CheckpointError` naming the file and,
where known, the tensor.

Not supported: encryption (``enc_key``/``dec_key``), MapParameters, parallel
(``integrated_save``, ``remove_redundancy`` are accepted and ignored: one process holds
every parameter), asynchronous saving (``async_save`` saves before returning).
"""
from __future__ import annotations

import json
import numbers
import os
import re
import warnings

import numpy as np

from sporeling.expression import Parameter
from sporeling.expression import load_checkpoint as _load_safetensors
from sporeling.expression import load_param_into_net
from sporeling.expression.serialization import (CheckpointError, CheckpointWarning,
                                                read_tensors, write_tensors)

from sporeling.core.dtypes import ALL_DTYPES

from ._ckpt_format import is_ckpt_head, read_ckpt, tensor_type_name, write_ckpt

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "ckpt_to_safetensors",
           "safetensors_to_ckpt", "CheckpointError"]

_FORMATS = ("ckpt", "safetensors")
# the header key under which sporeling.expression keeps string entries of a safetensors file
_STRINGS_KEY = "sporeling.strings"


def _check_format(format: str, op: str) -> None:
    if format not in _FORMATS:
        raise ValueError(f"For '{op}', the format must be 'safetensors' or 'ckpt', but got "
                         f"{format!r}.")


def _array(value):
    asnumpy = getattr(value, "asnumpy", None)
    return asnumpy() if asnumpy is not None else np.asarray(value)


def _save_items(save_obj, choice_func) -> list[tuple[str, object]]:
    """``(name, value)`` pairs of a Cell, a list of Parameters or of ``{"name", "data"}``
    dicts, or a ``{name: Parameter/Tensor/array/str}`` dict, as MindSpore accepts them."""
    def chosen(name):
        return choice_func is None or choice_func(name)

    if hasattr(save_obj, "parameters_and_names"):
        return [(p.name, p) for _, p in save_obj.parameters_and_names() if chosen(p.name)]
    items = []
    if isinstance(save_obj, dict):
        for name, value in save_obj.items():
            if not isinstance(name, str):
                raise TypeError(f"For save_checkpoint, when save_obj is a dict its keys must "
                                f"be str, but got {type(name).__name__}.")
            items.append((name, value))
    elif isinstance(save_obj, list):
        for i, item in enumerate(save_obj):
            if isinstance(item, dict):
                if "name" not in item or "data" not in item:
                    raise TypeError(f"For save_checkpoint, item {i} of save_obj is a dict "
                                    "without 'name' and 'data'.")
                if not isinstance(item["name"], str):
                    raise TypeError(f"For save_checkpoint, the name of item {i} must be str, "
                                    f"but got {type(item['name']).__name__}.")
                items.append((item["name"], item["data"]))
            elif isinstance(getattr(item, "name", None), str):
                items.append((item.name, item))
            else:
                raise TypeError(f"For save_checkpoint, item {i} of save_obj is a "
                                f"{type(item).__name__}; expected a Parameter or a dict "
                                "{'name': ..., 'data': ...}.")
    else:
        raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, "
                        f"list or dict, but got {type(save_obj).__name__}.")
    return [(name, value) for name, value in items if chosen(name)]


def _append_value(name: str, value):
    """An ``append_dict`` value as MindSpore stores it (``Tensor(value)``: int -> Int64,
    float -> Float32, bool -> Bool; str stays)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value, np.bool_)
    if isinstance(value, numbers.Integral):
        return np.asarray(value, np.int64)
    if isinstance(value, numbers.Real):
        return np.asarray(value, np.float32)
    if hasattr(value, "asnumpy") or isinstance(value, np.ndarray):
        return _array(value)
    raise TypeError(f"For 'save_checkpoint', the values of 'append_dict' must be int, float, "
                    f"bool, str, Parameter or Tensor, but {name!r} is a "
                    f"{type(value).__name__}.")


def _checkpoint_path(ckpt_file_name, format: str) -> str:
    """MindSpore's rule: the real path, with ``.<format>`` appended unless the name ends
    with the format's name."""
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: "
                                f"{path} is a directory, it must be a file name.")
    if not path.endswith(format):
        path += f".{format}"
    return path


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs) -> None:
    """Save ``save_obj`` (a Cell, a list of Parameters or of ``{"name", "data"}`` dicts, or
    a dict such as :func:`load_checkpoint` returns) to ``ckpt_file_name``.

    ``format="ckpt"`` (default) writes MindSpore's protobuf ``.ckpt``, which MindSpore loads;
    ``format="safetensors"`` writes safetensors. ``append_dict`` adds ``{name: int, float,
    bool, str, Tensor}`` entries (not filtered by ``choice_func``, as in MindSpore);
    ``crc_check=True`` appends MindSpore's CRC32 trailer (``.ckpt`` only).
    """
    _check_format(format, "save_checkpoint")
    if enc_key is not None:
        raise CheckpointError("encrypted checkpoints (enc_key) are not supported",
                              op="save_checkpoint", hint="save without enc_key")
    if not isinstance(crc_check, bool):
        raise TypeError(f"For 'save_checkpoint', 'crc_check' must be bool, but got "
                        f"{type(crc_check).__name__}.")
    if append_dict is not None and not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but "
                        f"got {type(append_dict).__name__}.")
    path = _checkpoint_path(ckpt_file_name, format)
    entries: dict[str, object] = {}
    items = _save_items(save_obj, choice_func)
    items += [(k, _append_value(k, v)) for k, v in (append_dict or {}).items()]
    for name, value in items:
        if not isinstance(name, str) or not name:
            raise TypeError(f"save_checkpoint: names must be non-empty strings, got {name!r}")
        if name in entries:
            raise CheckpointError(f"two values are named {name!r}", op="save_checkpoint",
                                  where=path, hint="give each parameter a unique name")
        entries[name] = value if isinstance(value, str) else _array(value)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if format == "ckpt":
        write_ckpt(path, entries.items(), crc_check=crc_check)
        return
    if crc_check:
        raise CheckpointError("crc_check is for the ckpt format", op="save_checkpoint",
                              where=path, hint="save with format='ckpt' for a CRC32")
    tensors = {n: v for n, v in sorted(entries.items()) if not isinstance(v, str)}
    strings = {n: v for n, v in entries.items() if isinstance(v, str)}
    metadata = {"format": "ms"}
    if strings:
        metadata[_STRINGS_KEY] = json.dumps(strings)
    write_tensors(path, tensors, metadata)


def _prefixes(prefix, what: str):
    if prefix is None:
        return None
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not isinstance(prefix, (list, tuple)):
        raise TypeError(f"For 'load_checkpoint', the type of '{what}' must be string, "
                        f"list[string] or tuple[string], but got {type(prefix).__name__}.")
    if not prefix:
        raise ValueError(f"For 'load_checkpoint', the argument '{what}' can't be empty.")
    for pre in prefix:
        if not isinstance(pre, str) or not pre:
            raise ValueError(f"For 'load_checkpoint', '{what}' must hold non-empty strings, "
                             f"got {pre!r}.")
    return tuple(prefix)


def _file_kind(path: str) -> str:
    """``"ckpt"`` or ``"safetensors"``, by the file's first bytes (a safetensors file starts
    with its header's length, then ``{``; a ``.ckpt`` with its first record's tag)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(9)
    if len(head) == 9 and head[8:9] == b"{" and 8 + int.from_bytes(head[:8], "little") <= size:
        return "safetensors"
    if is_ckpt_head(head):
        return "ckpt"
    if size == 0:
        raise CheckpointError("the file is empty", op="load_checkpoint", where=path,
                              expected="a MindSpore .ckpt or a safetensors file")
    raise CheckpointError("neither a MindSpore .ckpt nor a safetensors file",
                          op="load_checkpoint", where=path, got=f"first bytes {head.hex()}",
                          hint="a .ckpt starts with 0a, a safetensors file with its header "
                               "length and '{'")


def _read(path: str, crc_check: bool = False) -> list[tuple[str, object]]:
    """``[(name, array or str)]`` from either format."""
    if _file_kind(path) == "ckpt":
        return read_ckpt(path, crc_check)
    if crc_check:
        warnings.warn(f"load_checkpoint: crc_check=True but {path} is a safetensors file: "
                      "no CRC32 trailer (its per-tensor checksums, when it has them, are "
                      "checked anyway)", CheckpointWarning, stacklevel=3)
    tensors, metadata = read_tensors(path)
    strings = {}
    if _STRINGS_KEY in metadata:  # sporeling.expression's loader checks and decodes them
        strings = {k: v for k, v in _load_safetensors(path).items() if isinstance(v, str)}
    return [*tensors.items(), *strings.items()]


def _parameter(name: str, array: np.ndarray, path: str) -> Parameter:
    if array.dtype not in ALL_DTYPES:
        raise CheckpointError(f"tensor {name!r} is {tensor_type_name(array.dtype)}, which a "
                              "Sporeling Parameter cannot hold", op="load_checkpoint",
                              where=path, expected=", ".join(map(str, ALL_DTYPES)),
                              hint="leave it out with choice_func or filter_prefix; "
                                   "ckpt_to_safetensors converts the file as it is")
    return Parameter(array, name=name)


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format="ckpt") -> dict:
    """``{name: Parameter}`` (``str`` for string entries) from a MindSpore ``.ckpt`` or a
    safetensors file, told apart by content (``format`` is accepted for MindSpore's
    signature); loaded into ``net`` too when given (see :func:`load_param_into_net`).

    ``specify_prefix`` keeps only names starting with it, ``filter_prefix`` drops names
    starting with it (either one overrides ``choice_func``, as in MindSpore);
    ``choice_func(name) -> bool`` selects freely. A ``.ckpt``'s CRC32 trailer is checked
    whenever present; ``crc_check=True`` also requires one. Nothing left after the filters is
    an error, as in MindSpore.
    """
    _check_format(format, "load_checkpoint")
    if dec_key is not None:
        raise CheckpointError("encrypted checkpoints (dec_key) are not supported",
                              op="load_checkpoint",
                              hint="decrypt it with MindSpore and save it without enc_key")
    specify = _prefixes(specify_prefix, "specify_prefix")
    filtered = _prefixes(filter_prefix, "filter_prefix")
    use_choice = specify is None and filtered is None and choice_func is not None
    path = os.fspath(ckpt_file_name)
    if not os.path.exists(path) and os.path.exists(path + ".safetensors"):
        path += ".safetensors"  # what sporeling.ms wrote for "x.ckpt" before it wrote .ckpt
    if not os.path.isfile(path):
        raise FileNotFoundError(f"checkpoint file not found: {path!r}")
    out: dict = {}
    for name, value in _read(path, crc_check):
        if specify and not name.startswith(specify):
            continue
        if filtered and name.startswith(filtered):
            continue
        if use_choice and not choice_func(name):
            continue
        out[name] = value if isinstance(value, str) else _parameter(name, value, path)
    if not out:
        raise CheckpointError("the loaded parameter dict is empty after filter or specify",
                              op="load_checkpoint", where=path,
                              hint="check 'filter_prefix', 'specify_prefix' and 'choice_func'")
    if net is not None:
        load_param_into_net(net, out, strict_load)
    return out


# ---------------------------------------------------------------- conversion

def _convert_one(src: str, dst_dir: str, name_map, src_suffix: str, dst_suffix: str,
                 dst_format: str) -> str:
    if not os.path.isfile(src):
        raise FileNotFoundError(f"checkpoint file not found: {src!r}")
    params = dict(_read(src))  # arrays as they are: no Parameter, so any dtype converts
    if name_map is not None:
        params = {name_map.get(k, k): v for k, v in params.items()}
    dst = os.path.join(dst_dir, os.path.basename(src).replace(src_suffix, dst_suffix))
    save_checkpoint(params, dst, format=dst_format)
    return _checkpoint_path(dst, dst_format)


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, dst_format
             ) -> list[str]:
    src_suffix, dst_suffix, func = ((".ckpt", ".safetensors", "ckpt_to_safetensors")
                                    if dst_format == "safetensors" else
                                    (".safetensors", ".ckpt", "safetensors_to_ckpt"))
    file_path = os.fspath(file_path)
    if not isinstance(processes_num, int) or isinstance(processes_num, bool) or \
            processes_num < 1:
        raise ValueError(f"For {func}, 'processes_num' must be a positive int, but got "
                         f"{processes_num!r}")
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {func}, the input path must be a valid path or file, but got "
                         f"{file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {func}, the save_path must be a directory, but got "
                         f"'{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {func}, the type of 'name_map' must be a dict, but got "
                         f"'{type(name_map)}'")
    written = []
    if os.path.isfile(file_path):
        if not file_path.endswith(src_suffix):
            raise ValueError(f"For {func}, the input file must be a {src_suffix} file, but "
                             f"got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {func}, the input file does not match the regular "
                             "expression.")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        dst_dir = save_path or os.path.dirname(file_path)
        written.append(_convert_one(file_path, dst_dir, name_map, src_suffix, dst_suffix,
                                    dst_format))
        return written
    ranks = sorted(d for d in os.listdir(file_path)
                   if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
    if not ranks:
        raise ValueError(f"For '{func}', no directories starting with 'rank' found in "
                         f"{file_path}.")
    for rank in ranks:
        rank_dir = os.path.join(file_path, rank)
        dst_dir = os.path.join(save_path, rank) if save_path is not None else rank_dir
        os.makedirs(dst_dir, exist_ok=True)
        for name in sorted(os.listdir(rank_dir)):
            if name.endswith(src_suffix) and (file_name_regex is None or
                                              re.search(file_name_regex, name)):
                written.append(_convert_one(os.path.join(rank_dir, name), dst_dir, name_map,
                                            src_suffix, dst_suffix, dst_format))
    return written


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1) -> None:
    """Convert ``.ckpt`` files to safetensors, as MindSpore 2.10 does: ``file_path`` is one
    ``.ckpt`` file or a folder of ``rank*`` folders; the new files go to ``save_path`` (a
    folder; default: beside each file; a folder tree keeps its ``rank*`` layout). ``name_map``
    renames parameters (``{old: new}``); ``file_name_regex`` selects the files. The files are
    converted one after the other (``processes_num`` is accepted for the signature)."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors")


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1) -> None:
    """Convert safetensors files to MindSpore ``.ckpt`` files; the arguments are those of
    :func:`ckpt_to_safetensors`, with ``.safetensors`` sources."""
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt")
