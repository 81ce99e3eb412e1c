"""MindSpore 2.10's distributed-checkpoint tools: read a parallel strategy file, merge the
per-rank slices of sharded parameters, cut them again for another strategy.

A strategy file is MindSpore's JSON form (``strategy_ckpt_config={"save_file":
"....json"}``): ``{"parallel_layout_item": {name: {"dev_matrix": [...], "tensor_map":
[...], ...}}}`` -- each list either plain or as ``[{"dim": [...]}]`` -- possibly with other
keys (``parallel_strategy_item``, ``current_stage``), which are kept when files are merged.
MindSpore's protobuf strategy files are not read. Layout semantics are MindSpore's: the
ranks form ``dev_matrix`` in row-major order; ``tensor_map[d]`` is the device axis
(counted from the right) that cuts tensor dimension ``d``, or -1. Parameters a strategy
does not list are whole on every rank. Optimizer sharding (``opt_weight_shard_size`` > 1)
is refused with a clear error.

Per-rank checkpoints live as ``<dir>/rank_<r>/<file>.ckpt`` (``transform_checkpoints``);
``load_distributed_checkpoint`` takes the files in rank order.
"""
from __future__ import annotations

import glob
import json
import math
import os
import re
from dataclasses import dataclass

import numpy as np

from sporeling.core.errors import SporelingError
from sporeling.expression import Parameter, Tensor

from .serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["StrategyLayout", "build_searched_strategy", "merge_pipeline_strategys",
           "load_distributed_checkpoint", "transform_checkpoint_by_rank",
           "transform_checkpoints", "rank_list_for_transform", "get_ckpt_path_with_strategy",
           "parameter_broadcast", "unified_safetensors"]


@dataclass(frozen=True)
class StrategyLayout:
    """One parameter's layout in a strategy file."""
    dev_matrix: tuple
    tensor_map: tuple
    field: int = 0
    opt_weight_shard_step: int = 0
    opt_weight_shard_size: int = 0

    @property
    def device_num(self) -> int:
        return math.prod(self.dev_matrix)

    def splits(self) -> tuple:
        """Blocks per tensor dimension."""
        n = len(self.dev_matrix)
        return tuple(1 if m == -1 else self.dev_matrix[n - 1 - m] for m in self.tensor_map)

    def block_index(self, rank: int) -> tuple:
        """Which block of each dimension ``rank`` holds."""
        coord = np.unravel_index(rank % self.device_num, self.dev_matrix)
        n = len(self.dev_matrix)
        return tuple(0 if m == -1 else int(coord[n - 1 - m]) for m in self.tensor_map)

    def block(self, full_shape, rank: int) -> tuple:
        """The slices of ``rank``'s block of a tensor of ``full_shape``."""
        out = []
        for size, parts, index in zip(full_shape, self.splits(), self.block_index(rank)):
            step = size // parts
            out.append(slice(index * step, (index + 1) * step))
        return tuple(out)


def _dims(value) -> tuple:
    if value and isinstance(value[0], dict):  # [{"dim": [...]}]
        value = value[0]["dim"]
    return tuple(int(v) for v in value)


def _read_strategy(path) -> dict:
    if not isinstance(path, str) or not os.path.isfile(path):
        raise SporelingError("strategy file not found", op="build_searched_strategy",
                             expected="the path of a JSON strategy file", got=repr(path))
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SporelingError("not a JSON strategy file", op="build_searched_strategy",
                             expected="MindSpore's JSON strategy (strategy_ckpt_config "
                                      "save_file ending in .json); protobuf files are not read",
                             got=path) from exc


def build_searched_strategy(strategy_filename) -> dict:
    """``{parameter name: StrategyLayout}`` from a strategy file."""
    items = _read_strategy(strategy_filename).get("parallel_layout_item", {})
    layouts = {}
    for name, item in items.items():
        layout = StrategyLayout(_dims(item["dev_matrix"]), _dims(item["tensor_map"]),
                                int(item.get("field", 0)),
                                int(item.get("opt_weight_shard_step", 0)),
                                int(item.get("opt_weight_shard_size", 0)))
        if layout.opt_weight_shard_size > 1:
            raise SporelingError("optimizer-sharded parameters are not merged",
                                 op="build_searched_strategy", where=name,
                                 expected="opt_weight_shard_size 0 or 1",
                                 got=layout.opt_weight_shard_size)
        layouts[name] = layout
    return layouts


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file) -> None:
    """Merge the strategy files of every pipeline stage (the ``.json`` files under
    ``src_strategy_dirs``) into ``dst_strategy_file``."""
    paths = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if not paths:
        raise SporelingError("no strategy files", op="merge_pipeline_strategys",
                             expected="*.json strategy files", got=src_strategy_dirs)
    merged: dict = {}
    for path in paths:
        for key, value in _read_strategy(path).items():
            if isinstance(value, dict):
                merged.setdefault(key, {}).update(value)
            else:
                merged.setdefault(key, value)
    os.makedirs(os.path.dirname(os.path.abspath(dst_strategy_file)), exist_ok=True)
    with open(dst_strategy_file, "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)


def _layouts(strategy) -> dict:
    if strategy is None:
        return {}
    if isinstance(strategy, str):
        return build_searched_strategy(strategy)
    if isinstance(strategy, dict):
        return {k: v if isinstance(v, StrategyLayout) else
                StrategyLayout(_dims(v[0]), _dims(v[1])) for k, v in strategy.items()}
    raise SporelingError("bad strategy", op="load_distributed_checkpoint",
                         expected="a strategy file path or {name: layout}",
                         got=type(strategy).__name__)


def _value(p) -> np.ndarray:
    return p.asnumpy() if isinstance(p, Tensor) else np.asarray(p)


def _merge(name: str, slices: list, layout: StrategyLayout | None) -> np.ndarray:
    """The whole tensor from the slices of every rank (rank order)."""
    if layout is None:
        return slices[0]
    if len(slices) < layout.device_num:
        raise SporelingError("too few rank checkpoints for a parameter", op="merge",
                             where=name, expected=f"{layout.device_num} ranks",
                             got=len(slices))
    part = slices[0].shape
    full = np.empty(tuple(n * s for n, s in zip(part, layout.splits())), slices[0].dtype)
    for rank in range(layout.device_num):
        full[layout.block(full.shape, rank)] = slices[rank]
    return full


def _merged_params(checkpoints: list, layouts: dict) -> dict:
    names = list(checkpoints[0])
    return {name: _merge(name, [_value(c[name]) for c in checkpoints], layouts.get(name))
            for name in names}


def _cut(params: dict, layouts: dict, rank: int) -> dict:
    out = {}
    for name, full in params.items():
        layout = layouts.get(name)
        out[name] = full if layout is None else np.ascontiguousarray(
            full[layout.block(full.shape, rank)])
    return out


def _as_parameters(arrays: dict) -> dict:
    return {name: Parameter(Tensor(a), name=name) for name, a in arrays.items()}


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False,
                                dec_key=None, dec_mode="AES-GCM", format="ckpt",
                                unified_safetensors_dir=None, dst_safetensors_dir=None,
                                rank_id=None, output_format="safetensors", name_map=None,
                                max_process_num=64, return_param_dict=False):
    """Load the per-rank checkpoints ``checkpoint_filenames`` (rank order), merged by
    ``train_strategy_filename``, into ``network`` -- whole, or this rank's slices of
    ``predict_strategy`` (a strategy file or ``{name: (dev_matrix, tensor_map)}``).
    ``return_param_dict=True`` returns the parameters instead of loading them."""
    if unified_safetensors_dir is not None:
        raise SporelingError("unified safetensors directories are not read",
                             op="load_distributed_checkpoint",
                             expected="checkpoint_filenames", got=unified_safetensors_dir)
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
        raise TypeError("For 'load_distributed_checkpoint', 'checkpoint_filenames' must be "
                        "a non-empty list of paths, in rank order.")
    checkpoints = [load_checkpoint(path, dec_key=dec_key, dec_mode=dec_mode)
                   for path in checkpoint_filenames]
    params = _merged_params(checkpoints, _layouts(train_strategy_filename))
    if name_map:
        params = {name_map.get(k, k): v for k, v in params.items()}
    if predict_strategy is not None:
        if rank_id is None:
            from ..communication import get_rank
            try:
                rank_id = get_rank()
            except Exception:  # noqa: BLE001 - communication not initialised: one rank
                rank_id = 0
        params = _cut(params, _layouts(predict_strategy), rank_id)
    params = _as_parameters(params)
    if return_param_dict:
        return params
    load_param_into_net(network, params, strict_load=strict_load)
    return None


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None) -> None:
    """Write rank ``rank_id``'s checkpoint for ``dst_strategy_file`` from the source ranks'
    ``{rank: path}`` (None strategies: whole parameters)."""
    if not isinstance(checkpoint_files_map, dict) or not checkpoint_files_map:
        raise TypeError("For 'transform_checkpoint_by_rank', 'checkpoint_files_map' must be "
                        "a non-empty dict {rank: checkpoint path}.")
    src = _layouts(src_strategy_file)
    ranks = sorted(checkpoint_files_map)
    loaded = {r: load_checkpoint(checkpoint_files_map[r]) for r in ranks}
    needed = max((l.device_num for l in src.values()), default=1)
    missing = [r for r in range(needed) if r not in loaded]
    # a rank holding the same slices as a missing one stands in for it
    for r in missing:
        twin = next((t for t in ranks if all(l.block_index(t) == l.block_index(r)
                                             for l in src.values())), None)
        if twin is None:
            raise SporelingError("a source rank's checkpoint is missing",
                                 op="transform_checkpoint_by_rank",
                                 expected=f"rank {r} (see rank_list_for_transform)",
                                 got=f"ranks {ranks}")
        loaded[r] = loaded[twin]
    params = _merged_params([loaded[r] for r in range(needed)], src)
    cut = _cut(params, _layouts(dst_strategy_file), rank_id)
    save_checkpoint(_as_parameters(cut), save_checkpoint_file_name)


def _rank_dirs(src_dir: str) -> dict:
    found = {}
    for entry in os.listdir(src_dir):
        match = re.fullmatch(r"rank_(\d+)", entry)
        if match:
            files = sorted(glob.glob(os.path.join(src_dir, entry, "*.ckpt")))
            if files:
                found[int(match[1])] = files[-1]
    return found


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix,
                          src_strategy_file=None, dst_strategy_file=None, process_num=1,
                          output_format="ckpt") -> None:
    """Re-cut the checkpoints under ``src_checkpoints_dir/rank_<r>/`` for
    ``dst_strategy_file``: writes ``dst_checkpoints_dir/rank_<r>/<ckpt_prefix><r>.ckpt``
    for every destination rank."""
    if output_format != "ckpt":
        raise SporelingError("unsupported output format", op="transform_checkpoints",
                             expected="'ckpt'", got=repr(output_format))
    files = _rank_dirs(src_checkpoints_dir)
    if not files:
        raise SporelingError("no rank checkpoints", op="transform_checkpoints",
                             expected="rank_<r>/*.ckpt directories", got=src_checkpoints_dir)
    dst = _layouts(dst_strategy_file)
    dst_ranks = max((l.device_num for l in dst.values()), default=1)
    for rank in range(dst_ranks):
        out_dir = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
        os.makedirs(out_dir, exist_ok=True)
        transform_checkpoint_by_rank(rank, files, os.path.join(out_dir, f"{ckpt_prefix}{rank}.ckpt"),
                                     src_strategy_file, dst_strategy_file)


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None) -> list:
    """The source ranks whose checkpoints rank ``rank_id`` of the destination strategy
    needs (one rank per distinct slice that overlaps its own)."""
    src, dst = _layouts(src_strategy_file), _layouts(dst_strategy_file)
    src_ranks = max((l.device_num for l in src.values()), default=1)
    needed = set()
    for name in set(src) | set(dst):
        s, d = src.get(name), dst.get(name)
        if s is None:
            needed.add(0)
            continue
        # positions on a unit grid fine enough for both cuttings
        parts = tuple(math.lcm(a, b) for a, b in zip(
            s.splits(), d.splits() if d is not None else (1,) * len(s.tensor_map)))
        want = d.block(parts, rank_id) if d is not None else tuple(slice(0, n) for n in parts)
        seen = set()
        for r in range(src_ranks):
            have = s.block(parts, r)
            key = s.block_index(r)
            if key in seen:
                continue
            if all(h.start < w.stop and w.start < h.stop for h, w in zip(have, want)):
                needed.add(r)
                seen.add(key)
    return sorted(needed)


def get_ckpt_path_with_strategy(cur_ckpt_path, cur_strategy_path):
    """``cur_ckpt_path`` if it exists; else the same file of another rank (``rank_<r>`` in
    the path) holding the same slices by ``cur_strategy_path``; None if none exists."""
    if os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    match = re.search(r"rank_(\d+)", cur_ckpt_path)
    if match is None:
        return None
    rank = int(match[1])
    layouts = build_searched_strategy(cur_strategy_path)
    device_num = max((l.device_num for l in layouts.values()), default=1)
    for other in range(device_num):
        if other != rank and all(l.block_index(other) == l.block_index(rank)
                                 for l in layouts.values()):
            path = cur_ckpt_path[:match.start()] + f"rank_{other}" + cur_ckpt_path[match.end():]
            if os.path.isfile(path):
                return path
    return None


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0) -> None:
    """Give the ranks that hold the same slice of a parameter (its data-parallel replicas)
    the values of the lowest of them. ``layout``: ``{name: StrategyLayout}``
    (``build_searched_strategy``) or a strategy file; layout rank ``r`` is world rank
    ``initial_rank + r`` (the pipeline stage's first rank). Without initialised
    communication (one process) there is nothing to do."""
    if isinstance(layout, str):
        layout = build_searched_strategy(layout)
    if not isinstance(layout, dict):
        raise TypeError(f"For 'parameter_broadcast', 'layout' must be a dict or a strategy "
                        f"file, but got {type(layout).__name__}.")
    try:
        from sporeling.parallel.comm import current
        comm = current(op="parameter_broadcast")
    except Exception:  # noqa: BLE001 - sporeling.parallel absent or not initialised
        return
    if comm.size == 1:
        return
    params = {p.name: p for p in net.get_parameters()}
    for name in sorted(layout):
        param, lay = params.get(name), layout[name]
        if param is None:
            continue
        if not isinstance(lay, StrategyLayout):
            lay = _layouts({name: lay})[name]
        mine = comm.rank - initial_rank
        groups: dict = {}
        for r in range(lay.device_num):
            groups.setdefault(lay.block_index(r), []).append(r)
        for members in groups.values():  # one broadcast per replica group, every rank takes part
            value = comm.broadcast(param.asnumpy(), initial_rank + members[0])
            if mine in members and mine != members[0]:
                param.set_data(value)
    comm.barrier()


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True,
                        file_suffix=None, max_process_num=64, choice_func=None) -> None:
    """Merge the per-rank safetensors under ``src_dir/rank_<r>/`` (sliced by
    ``src_strategy_file``) into whole parameters: ``dst_dir/part0.safetensors`` and
    ``dst_dir/param_name_map.json`` (``{name: file}``). ``file_suffix`` picks files ending
    in it; ``choice_func(name)`` False leaves a parameter out."""
    files = {}
    for entry in sorted(os.listdir(src_dir)):
        match = re.fullmatch(r"rank_(\d+)", entry)
        if match:
            pattern = f"*{file_suffix}.safetensors" if file_suffix else "*.safetensors"
            found = sorted(glob.glob(os.path.join(src_dir, entry, pattern)))
            if found:
                files[int(match[1])] = found[-1]
    if not files:
        raise SporelingError("no rank safetensors", op="unified_safetensors",
                             expected="rank_<r>/*.safetensors under src_dir", got=src_dir)
    layouts = _layouts(src_strategy_file)
    needed = max((l.device_num for l in layouts.values()), default=1)
    missing = [r for r in range(needed) if r not in files]
    if missing:
        raise SporelingError("rank files missing", op="unified_safetensors",
                             expected=f"ranks 0..{needed - 1}", got=f"missing {missing}")
    checkpoints = [load_checkpoint(files[r], choice_func=choice_func) for r in range(needed)]
    params = _merged_params(checkpoints, layouts)
    os.makedirs(dst_dir, exist_ok=True)
    save_checkpoint(_as_parameters(params), os.path.join(dst_dir, "part0.safetensors"),
                    format="safetensors")
    with open(os.path.join(dst_dir, "param_name_map.json"), "w", encoding="utf-8") as f:
        json.dump({name: "part0.safetensors" for name in params}, f, indent=1)
