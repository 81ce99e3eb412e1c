"""Checkpoints: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net`` (MindSpore's
API) in the safetensors format, keyed by ``Parameter.name``.

    >>> import numpy as np, os, tempfile
    >>> from sporeling.expression import Parameter
    >>> w = Parameter(np.arange(3, dtype=np.float32), name="fc.weight")
    >>> path = os.path.join(tempfile.mkdtemp(), "net")
    >>> save_checkpoint([w], path, append_dict={"epoch_num": 3})
    >>> params = load_checkpoint(path + ".safetensors")
    >>> sorted(params), params["fc.weight"].asnumpy().tolist(), int(params["epoch_num"])
    (['epoch_num', 'fc.weight'], [0.0, 1.0, 2.0], 3)

Differences from MindSpore: files are safetensors (a ``.safetensors`` suffix is added when
missing, as MindSpore adds ``.ckpt``); writes are atomic (a failed save leaves the old file);
string values of ``append_dict`` are kept in the header metadata and come back as ``str``.
"""
from __future__ import annotations

import json
import numbers
import os
import warnings

import numpy as np

from .safetensors_io import CheckpointError, read_tensors, write_tensors

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "CheckpointError",
           "CheckpointWarning", "SUFFIX"]

SUFFIX = ".safetensors"
_FORMAT_KEY, _STRINGS_KEY = "format", "sporeling.strings"
_LISTED = 20  # names a warning lists before "... and N more"


class CheckpointWarning(UserWarning):
    """A non-strict load left some of the network's parameters as they were."""


def _array(value) -> np.ndarray:
    asnumpy = getattr(value, "asnumpy", None)
    return asnumpy() if asnumpy is not None else np.asarray(value)


def _named_values(save_obj) -> list[tuple[str, object]]:
    if hasattr(save_obj, "parameters_and_names"):
        return [(p.name, p) for _, p in save_obj.parameters_and_names()]
    if isinstance(save_obj, dict):
        return list(save_obj.items())
    if isinstance(save_obj, (list, tuple)):
        out = []
        for i, item in enumerate(save_obj):
            if isinstance(item, dict):
                if "name" not in item or "data" not in item:
                    raise TypeError(f"save_checkpoint: item {i} is a dict without 'name' "
                                    "and 'data'")
                out.append((item["name"], item["data"]))
            elif getattr(item, "name", None):
                out.append((item.name, item))
            else:
                raise TypeError(f"save_checkpoint: item {i} is a {type(item).__name__}; "
                                "expected a named Parameter or {'name': ..., 'data': ...}")
        return out
    raise TypeError(f"save_checkpoint: expected a Cell, a list of Parameters/dicts or a dict,"
                    f" got {type(save_obj).__name__}")


def save_checkpoint(save_obj, ckpt_file_name: str, append_dict: dict | None = None,
                    choice_func=None) -> None:
    """Save the parameters of ``save_obj`` (a Cell, a list of Parameters or of
    ``{"name", "data"}`` dicts, or a ``{name: value}`` dict) to ``ckpt_file_name``.

    ``append_dict`` adds ``{name: number/bool/str/Tensor/array}`` entries (e.g. the epoch);
    ``choice_func(name) -> bool`` selects which parameters to save.
    """
    path = os.fspath(ckpt_file_name)
    if not path.endswith(SUFFIX):
        path += SUFFIX
    tensors, strings = {}, {}
    items = _named_values(save_obj) + list((append_dict or {}).items())
    for name, value in items:
        if not isinstance(name, str) or not name:
            raise TypeError(f"save_checkpoint: parameter names must be non-empty strings, "
                            f"got {name!r}")
        if choice_func is not None and not choice_func(name):
            continue
        if name in tensors or name in strings:
            raise CheckpointError(f"two values are named {name!r}", op="save_checkpoint",
                                  where=path, hint="give each parameter a unique name")
        if isinstance(value, str):
            strings[name] = value
        elif isinstance(value, bool):
            tensors[name] = np.asarray(value)
        elif isinstance(value, numbers.Integral):
            tensors[name] = np.asarray(value, np.int64)
        elif isinstance(value, numbers.Real):
            tensors[name] = np.asarray(value, np.float32)
        else:
            tensors[name] = _array(value)
    metadata = {_FORMAT_KEY: "sporeling"}
    if strings:
        metadata[_STRINGS_KEY] = json.dumps(strings)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    write_tensors(path, tensors, metadata)


def _selected(name: str, filter_prefix, specify_prefix, choice_func) -> bool:
    if filter_prefix and name.startswith(filter_prefix):
        return False
    if specify_prefix and not name.startswith(specify_prefix):
        return False
    return choice_func is None or bool(choice_func(name))


def _strings(metadata: dict, path: str) -> dict[str, str]:
    """The ``append_dict`` strings saved in the header, checked: a crafted or damaged
    header is a CheckpointError naming the file, not a raw JSON error."""
    text = metadata.get(_STRINGS_KEY, "{}")
    try:
        strings = json.loads(text)
    except ValueError as exc:
        raise CheckpointError(f"the header's {_STRINGS_KEY!r} entry is not JSON",
                              op="load_checkpoint", where=path, got=f"{text[:80]!r}: {exc}",
                              expected='a JSON object {"name": "text", ...}') from None
    if not isinstance(strings, dict) or not all(isinstance(v, str) for v in strings.values()):
        raise CheckpointError(f"the header's {_STRINGS_KEY!r} entry is not an object of "
                              "strings", op="load_checkpoint", where=path, got=text[:80],
                              expected='a JSON object {"name": "text", ...}')
    return strings


def load_checkpoint(ckpt_file_name: str, net=None, strict_load: bool = False,
                    filter_prefix=None, specify_prefix=None, choice_func=None) -> dict:
    """``{name: Parameter}`` from a checkpoint file (``str`` for string entries), loaded
    into ``net`` too when given (see :func:`load_param_into_net`).

    ``filter_prefix`` (a str or tuple) drops names starting with it; ``specify_prefix``
    keeps only names starting with it; ``choice_func(name) -> bool`` selects freely.
    """
    from ..tensor import Parameter

    path = os.fspath(ckpt_file_name)
    if not os.path.exists(path) and os.path.exists(path + SUFFIX):
        path += SUFFIX
    tensors, metadata = read_tensors(path)
    filter_prefix = tuple(filter_prefix) if isinstance(filter_prefix, list) else filter_prefix
    specify_prefix = tuple(specify_prefix) if isinstance(specify_prefix, list) else \
        specify_prefix
    out: dict = {}
    for name, array in tensors.items():
        if _selected(name, filter_prefix, specify_prefix, choice_func):
            out[name] = Parameter(array, name=name)
    for name, text in _strings(metadata, path).items():
        if _selected(name, filter_prefix, specify_prefix, choice_func):
            out[name] = text
    if net is not None:
        _load_into(net, out, strict_load, source=path)
    return out


def _suffix_match(name: str, keys: list[str], used: set) -> str | None:
    hits = [k for k in keys if k not in used and
            (k.endswith("." + name) or name.endswith("." + k))]
    return hits[0] if len(hits) == 1 else None


def load_param_into_net(net, parameter_dict: dict, strict_load: bool = False):
    """Copy ``parameter_dict`` values into ``net``'s parameters (matched by
    ``Parameter.name``); returns ``(param_not_load, ckpt_not_load)`` -- the net's parameter
    names left as they were, and the dict's names not used.

    Non-strict: a name may also match by suffix (``"backbone.fc.w"`` <-> ``"fc.w"``) when
    unique, and dtypes are cast. Strict: names must match exactly, dtypes too, and every
    parameter must be loaded and every entry used. In both modes a shape mismatch is an
    error. All problems are reported together in one error, before any parameter changes.
    A non-strict load that leaves parameters unloaded warns (:class:`CheckpointWarning`),
    naming them and the unused entries.
    """
    return _load_into(net, parameter_dict, strict_load, source=None)


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown + (f", ... and {len(names) - _LISTED} more" if len(names) > _LISTED else "")


def _warn_not_loaded(net, missing: list[str], unexpected: list[str], total: int,
                     source: str | None) -> None:
    kind = type(net).__name__
    head = (f"no parameter of {kind} was loaded" if len(missing) == total else
            f"{len(missing)} of {total} parameters of {kind} were not loaded")
    origin = f" from {source}" if source else ""
    unused = f"; the checkpoint's entries not used: {_names(unexpected)}" if unexpected else ""
    # stacklevel 4: the user's call of load_checkpoint / load_param_into_net
    warnings.warn(f"{head}{origin} (they keep their values): {_names(missing)}{unused}. "
                  "Is it the checkpoint of another network? strict_load=True makes this an "
                  "error.", CheckpointWarning, stacklevel=4)


def _load_into(net, parameter_dict: dict, strict_load: bool, source: str | None):
    if not hasattr(net, "parameters_and_names"):
        raise TypeError(f"load_param_into_net: expected a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"load_param_into_net: expected a dict of parameters, got "
                        f"{type(parameter_dict).__name__}")
    keys = [k for k, v in parameter_dict.items() if not isinstance(v, str)]
    used: set = set()
    missing, bad_shape, bad_dtype, updates = [], [], [], []
    for _, p in net.parameters_and_names():
        key = p.name if p.name in parameter_dict else (
            None if strict_load else _suffix_match(p.name, keys, used))
        if key is None or isinstance(parameter_dict[key], str):
            missing.append(p.name)
            continue
        used.add(key)
        value = _array(parameter_dict[key])
        if tuple(value.shape) != tuple(p.shape):
            bad_shape.append(f"{p.name} (net {tuple(p.shape)}, checkpoint {key!r} "
                             f"{tuple(value.shape)})")
        elif value.dtype != p.dtype and strict_load:
            bad_dtype.append(f"{p.name} (net {p.dtype}, checkpoint {value.dtype})")
        else:
            updates.append((p, value))
    unexpected = [k for k in keys if k not in used]
    problems = []
    if bad_shape:
        problems.append(f"shape mismatch: {', '.join(bad_shape)}")
    if strict_load:
        if missing:
            problems.append(f"missing from the checkpoint: {', '.join(missing)}")
        if unexpected:
            problems.append(f"unexpected in the checkpoint: {', '.join(unexpected)}")
        if bad_dtype:
            problems.append(f"dtype mismatch: {', '.join(bad_dtype)}")
    if problems:
        raise CheckpointError("; ".join(problems), op="load_param_into_net", where=source,
                              hint=None if strict_load or not bad_shape else
                              "shapes must match even with strict_load=False")
    for p, value in updates:
        p.set_data(value.astype(p.dtype, copy=False))
    if missing:
        _warn_not_loaded(net, missing, unexpected, len(missing) + len(updates), source)
    return missing, unexpected
