"""MindSpore 2.10's checkpoint obfuscation: ``obfuscate_ckpt`` scales the weights of chosen
layers by secret random ratios; ``load_obf_params_into_net`` makes a network undo them, so
the obfuscated checkpoint gives the original results only with the ratios.

``target_modules`` is MindSpore's: ``["backbone/blocks/attention", "dense1|dense2"]`` -- the
attribute path to the cells holding the targets, the target cells' names, and optionally
``"obfuscate_layers:all"`` or ``"obfuscate_layers:<n>"`` when the path is a list of repeated
layers (``CellList``/``SequentialCell``: the first ``n`` are obfuscated). A target is a cell
whose output is linear in its parameters (``Dense``, ``Conv*``, ``MatMul`` cells): each of
its parameters is multiplied by the ratio ``r`` (drawn in ``(1/obfuscate_scale,
obfuscate_scale)``), so its output is ``r`` times the original, and the obfuscated network
multiplies the output by ``1/r``. The metadata ``obfuscate_ckpt`` returns is
``{"obf_ratios": {target path: r}}``; the ratios are this facade's own, so checkpoints
obfuscated by MindSpore itself are not undone here.
"""
from __future__ import annotations

import glob
import os
import re

import numpy as np

from sporeling.core.errors import SporelingError
from sporeling.expression import Parameter, Tensor

from .train.serialization import load_checkpoint, save_checkpoint

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]

_PATH = re.compile(r"^[A-Za-z0-9_/]*$")
_NAMES = re.compile(r"^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$")
_LAYERS = re.compile(r"^obfuscate_layers:(all|\d+)$")


def _targets(network, target_modules) -> list[tuple[str, object]]:
    """``(dotted path, cell)`` of every target cell."""
    from .nn import Cell
    if not isinstance(network, Cell):
        raise TypeError(f"'network' must be a Cell, but got {type(network).__name__}.")
    if not isinstance(target_modules, list) or not all(isinstance(t, str)
                                                       for t in target_modules):
        raise TypeError("'target_modules' must be a list of str.")
    if len(target_modules) < 2:
        raise ValueError("'target_modules' needs a path and the target names, such as "
                         "['backbone/blocks/attention', 'dense1|dense2'].")
    path, names = target_modules[0], target_modules[1]
    if not _PATH.match(path) or not _NAMES.match(names):
        raise ValueError(f"'target_modules' must be like ['A/B/C', 'D|E|F'], but got "
                         f"{target_modules[:2]}.")
    limit = None
    if len(target_modules) > 2:
        match = _LAYERS.match(target_modules[2])
        if match is None:
            raise ValueError("the third item of 'target_modules' must be "
                             "'obfuscate_layers:all' or 'obfuscate_layers:<int>'.")
        limit = None if match[1] == "all" else int(match[1])
    holder, dotted = network, []
    for part in filter(None, path.split("/")):
        if not hasattr(holder, part):
            raise SporelingError("no such cell", op="obfuscate", where=path,
                                 expected=f"an attribute {part!r} of {type(holder).__name__}",
                                 got="none")
        holder, dotted = getattr(holder, part), dotted + [part]
    from .nn import CellList, SequentialCell
    layers = list(enumerate(holder)) if isinstance(holder, (CellList, SequentialCell)) \
        else [(None, holder)]
    if limit is not None:
        layers = layers[:limit]
    found = []
    for index, layer in layers:
        prefix = dotted + ([] if index is None else [str(index)])
        for name in names.split("|"):
            cell = getattr(layer, name, None)
            if not isinstance(cell, Cell):
                raise SporelingError("target is not a cell", op="obfuscate",
                                     where=".".join(prefix + [name]), expected="a Cell",
                                     got=type(cell).__name__)
            found.append((".".join(prefix + [name]), cell))
    return found


def obfuscate_ckpt(network, ckpt_files, target_modules=None, obf_config=None, saved_path="./",
                   obfuscate_scale=100) -> dict:
    """Write every ``*.ckpt`` of the directory ``ckpt_files`` to ``saved_path`` (same file
    names) with the target layers' parameters scaled by random ratios; returns the
    metadata ``{"obf_ratios": {target: ratio}}`` that ``load_obf_params_into_net`` needs."""
    if obf_config is not None:
        raise SporelingError("obf_config is not read", op="obfuscate_ckpt",
                             expected="target_modules", got="an obf_config dict")
    for name, value in (("ckpt_files", ckpt_files), ("saved_path", saved_path)):
        if not isinstance(value, str):
            raise TypeError(f"For 'obfuscate_ckpt', '{name}' must be a str, but got "
                            f"{type(value).__name__}.")
        if not os.path.isdir(value):
            raise ValueError(f"For 'obfuscate_ckpt', the directory '{name}' ({value}) does "
                             f"not exist.")
    if isinstance(obfuscate_scale, bool) or not isinstance(obfuscate_scale, (int, float)) \
            or obfuscate_scale <= 1:
        raise ValueError(f"For 'obfuscate_ckpt', 'obfuscate_scale' must be a number > 1, but "
                         f"got {obfuscate_scale!r}.")
    targets = _targets(network, target_modules)
    rng = np.random.default_rng()
    ratios = {path: float(np.exp(rng.uniform(-np.log(obfuscate_scale),
                                             np.log(obfuscate_scale))))
              for path, _ in targets}
    scaled = {p.name: ratios[path] for path, cell in targets for p in cell.get_parameters()}
    for file in sorted(glob.glob(os.path.join(ckpt_files, "*.ckpt"))):
        params = load_checkpoint(file)
        out = {}
        for name, param in params.items():
            if name in scaled:
                value = param.asnumpy()
                param = Parameter(Tensor(value * np.asarray(scaled[name], value.dtype)),
                                  name=name)
            out[name] = param
        save_checkpoint(out, os.path.join(saved_path, os.path.basename(file)))
    return {"obf_ratios": ratios}


def _undoing(cls, ratio: float):
    """A subclass of ``cls`` whose output is divided by ``ratio``."""
    def construct(self, *args, **kwargs):
        return cls.construct(self, *args, **kwargs) * self._obf_inverse_ratio
    return type(f"Obf{cls.__name__}", (cls,), {"construct": construct,
                                               "__module__": cls.__module__})


def load_obf_params_into_net(network, target_modules=None, obf_ratios=None, obf_config=None,
                             data_parallel_num=1, **kwargs):
    """Make ``network``'s target layers divide their outputs by their ratios (``obf_ratios``:
    what ``obfuscate_ckpt`` returned, or its ``"obf_ratios"``); load the obfuscated
    checkpoint into it afterwards. Returns ``network``, changed in place."""
    if obf_ratios is None:
        raise ValueError("'obf_ratios' is needed: the metadata obfuscate_ckpt returned.")
    ratios = obf_ratios.get("obf_ratios", obf_ratios) if isinstance(obf_ratios, dict) else None
    if not isinstance(ratios, dict):
        raise TypeError("'obf_ratios' must be the dict obfuscate_ckpt returned.")
    for path, cell in _targets(network, target_modules):
        if path not in ratios:
            raise SporelingError("no ratio for a target", op="load_obf_params_into_net",
                                 where=path, expected="a ratio from obfuscate_ckpt",
                                 got=f"ratios for {sorted(ratios)}")
        if getattr(cell, "_obf_inverse_ratio", None) is not None:
            continue  # already undoing
        object.__setattr__(cell, "_obf_inverse_ratio", 1.0 / ratios[path])
        cell.__class__ = _undoing(type(cell), ratios[path])
    return network
