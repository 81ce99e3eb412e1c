"""``SummaryLandscape``: loss landscapes from training checkpoints (MindSpore 2.10's, with its
numerics), and the checkpoints ``SummaryCollector`` keeps for it.

``SummaryCollector(dir, collect_specified_data={"collect_landscape": {...}})`` saves the
network's parameters at the steps (``unit="step"``) or epochs (``"epoch"``) listed in
``intervals`` to ``dir/ckpt_dir/<Net>_<n>_<unit>.ckpt`` and, when training ends,
``dir/ckpt_dir/train_metadata.json`` (2.10's keys: ``epoch_group``,
``model_params_file_map``, ``step_per_epoch``, ``unit``, ``num_samples``,
``landscape_size``, ``create_landscape``). The collector's default is no landscape (2.10's
collects steps 1-19 unless told otherwise).

``SummaryLandscape(dir).gen_landscapes_with_multi_process(callback_fn, ...)`` then computes,
with ``model, network, dataset, metrics = callback_fn()`` and the loss ``metrics["Loss"]``
over ``num_samples // batch_size`` batches:

* per interval (``create_landscape["train"]``): the two principal directions of the
  checkpoints' weight/bias vectors (``"weight"`` or ``"bias"`` in the name, no
  ``"moment"``) relative to the last one, each scaled per parameter to that parameter's
  norm; the checkpoints' coordinates in that plane (least squares: the path); the loss on a
  ``landscape_size``^2 grid spanning the path's range plus 20 % on each side;
* for the last checkpoint (``create_landscape["result"]``): the same over two random normal
  directions on the grid ``[-1, 1]^2``.

Each landscape goes to ``output`` (default ``dir``) as TensorBoard tensor summaries tagged
``landscape_<interval>/<field>`` (plugin ``loss_landscape``; fields below) at step 0;
:func:`read_landscapes` reads them back. ``device_ids`` (0-7) are checked and the work runs
in this process (one host device). 2.10 uses a randomized SVD past 500 coordinates; the SVD
here is exact.
"""
from __future__ import annotations

import json
import os
import shutil

import numpy as np

from sporeling.core.errors import ArgumentError

from .summary import SummaryError, SummaryRecord

__all__ = ["SummaryLandscape", "LandscapeCheckpoints", "check_collect_landscape",
           "read_landscapes", "FIELDS"]

DEFAULT = {"landscape_size": 40, "unit": "step", "num_samples": 2048,
           "create_landscape": {"train": True, "result": True},
           "intervals": [list(range(1, 10)), list(range(10, 20))]}
#: what each landscape holds
FIELDS = ("x", "y", "z", "path_x", "path_y", "path_z", "convergence", "intervals")
_PROZ = 0.2  # the grid's margin around the path, as a fraction of its range


def _type(name: str, value, types, owner: str):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise ArgumentError(f"bad {name}", op=owner, expected=" or ".join(
            t.__name__ for t in types), got=f"{type(value).__name__} {value!r}")


def check_collect_landscape(value: dict, owner: str, defaults: dict | None = None) -> dict:
    """``value``'s keys checked as 2.10 does, over ``defaults`` (DEFAULT when None)."""
    _type("collect_landscape", value, (dict,), owner)
    unknown = sorted(set(value) - set(DEFAULT))
    if unknown:
        raise SummaryError(f"unknown collect_landscape keys {unknown}", op=owner,
                           expected=f"keys among {list(DEFAULT)}", got=unknown)
    merged = {**(DEFAULT if defaults is None else defaults), **value}
    _type("landscape_size", merged["landscape_size"], (int,), owner)
    if not 3 <= merged["landscape_size"] <= 256:
        raise SummaryError("landscape_size out of range", op=owner,
                           expected="between 3 and 256", got=merged["landscape_size"])
    if merged["unit"] not in ("step", "epoch"):
        raise SummaryError("bad unit", op=owner, expected="'step' or 'epoch'",
                           got=repr(merged["unit"]))
    _type("num_samples", merged["num_samples"], (int,), owner)
    create = merged["create_landscape"]
    _type("create_landscape", create, (dict,), owner)
    if set(create) != {"train", "result"} or not all(isinstance(v, bool)
                                                     for v in create.values()):
        raise SummaryError("bad create_landscape", op=owner,
                           expected="{'train': bool, 'result': bool}", got=repr(create))
    _type("intervals", merged["intervals"], (list,), owner)
    for interval in merged["intervals"]:
        _type("each interval in intervals", interval, (list,), owner)
        if len(interval) < 3:
            raise SummaryError("an interval is too short", op=owner,
                               expected="at least three checkpoints", got=interval)
        for n in interval:
            _type("each value in intervals", n, (int,), owner)
    return merged


class LandscapeCheckpoints:
    """What ``SummaryCollector`` keeps for a landscape (see the module doc)."""

    def __init__(self, summary_dir: str, settings: dict):
        self.settings = settings
        self.ckpt_dir = os.path.join(os.path.realpath(summary_dir), "ckpt_dir")
        os.makedirs(self.ckpt_dir, exist_ok=True)
        self.files: dict[str, str] = {}
        self.numbers = {n for interval in settings["intervals"] for n in interval}

    def maybe_save(self, network, number: int, unit: str) -> None:
        """Save ``network``'s parameters when ``number`` (a step or an epoch, ``unit``) is
        in an interval."""
        if unit != self.settings["unit"] or number not in self.numbers:
            return
        from sporeling.expression.serialization import save_checkpoint
        path = os.path.join(self.ckpt_dir, f"{type(network).__name__}_{number}_{unit}.ckpt")
        save_checkpoint(network, path)
        self.files[str(number)] = path

    def write_metadata(self, step_per_epoch) -> None:
        s = self.settings
        data = {"epoch_group": {str(i): list(v) for i, v in enumerate(s["intervals"])},
                "model_params_file_map": self.files, "step_per_epoch": int(step_per_epoch or 0),
                "unit": s["unit"], "num_samples": s["num_samples"],
                "landscape_size": s["landscape_size"], "create_landscape": s["create_landscape"]}
        with open(os.path.join(self.ckpt_dir, "train_metadata.json"), "w",
                  encoding="utf-8") as file:
            json.dump(data, file)


# ---- the numerics (2.10's) -----------------------------------------------------------------

def _in_landscape(name: str) -> bool:
    return ("weight" in name or "bias" in name) and "moment" not in name


def _pca(x: np.ndarray, n_comps: int = 2) -> np.ndarray:
    """2.10's ``_PCA.compute``: ``u * s`` of the column-centred ``x``, the sign of each
    column of ``u`` fixed by its largest entry."""
    x = x - x.mean(axis=0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])
    u = u * signs
    s = np.where(s == 0, 1e-19, s)
    return u[:, :n_comps] * s[:n_comps]


def _split(vector: np.ndarray, values: list, names: list) -> list:
    """``vector`` cut into the landscape parameters' shapes; the others keep their values
    (zeroed by :func:`_normalized`)."""
    out, at = [], 0
    for name, value in zip(names, values):
        if not _in_landscape(name):
            out.append(np.array(value, np.float32))
            continue
        out.append(np.array(vector[at:at + value.size].reshape(value.shape), np.float32))
        at += value.size
    return out


def _normalized(direction: list, values: list, names: list) -> list:
    """Each part scaled to its parameter's norm (filter normalisation); 0 for the others."""
    return [d * (np.linalg.norm(v) / np.linalg.norm(d)) if _in_landscape(n) else d * 0
            for d, v, n in zip(direction, values, names)]


def _flat(arrays) -> np.ndarray:
    return np.concatenate([np.ravel(a) for a in arrays]) if arrays else np.zeros(0)


def pca_plane(checkpoints: list[dict]):
    """``(v, w, coefs)`` of 2.10's PCA landscape: the directions (one array per parameter
    of the last checkpoint, in its order) and each checkpoint's (alpha, beta)."""
    final = checkpoints[-1]
    names, values = list(final), [np.asarray(v) for v in final.values()]
    matrix = np.vstack([_flat([np.asarray(v) for n, v in c.items() if _in_landscape(n)])
                        for c in checkpoints])
    components = _pca((matrix[:-1] - matrix[-1]).T)
    v = _normalized(_split(components[:, 0], values, names), values, names)
    w = _normalized(_split(components[:, -1], values, names), values, names)
    keep = [i for i, n in enumerate(names) if _in_landscape(n)]
    plane = np.vstack([_flat([v[i] for i in keep]), _flat([w[i] for i in keep])]).T
    base = _flat([values[i] for i in keep])
    coefs = np.array([np.linalg.lstsq(plane, _flat([np.asarray(c[names[i]]) for i in keep])
                                      - base, rcond=None)[0] for c in checkpoints])
    return v, w, coefs


def random_plane(final: dict, rng=np.random):
    """2.10's random directions: normal vectors normalised per parameter."""
    names, values = list(final), [np.asarray(v) for v in final.values()]
    total = sum(v.size for v in values)
    parts = []
    for vector in (rng.normal(size=total), rng.normal(size=total)):
        at, cut = 0, []
        for value in values:
            cut.append(np.array(vector[at:at + value.size].reshape(value.shape), np.float32))
            at += value.size
        parts.append(_normalized(cut, values, names))
    return parts[0], parts[1]


def grid_axes(coefs: np.ndarray, size: int):
    """The grid's axes around the path ``coefs`` (20 % margin)."""
    axes = []
    for c in (coefs[:, 0], coefs[:, 1]):
        low, high = c.min(), c.max()
        axes.append(np.linspace(low - _PROZ * (high - low), high + _PROZ * (high - low), size))
    return axes


# ---- the landscape ------------------------------------------------------------------------

class SummaryLandscape:
    """MindSpore's ``SummaryLandscape(summary_dir)`` (see the module doc)."""

    def __init__(self, summary_dir):
        self._summary_dir = os.path.realpath(os.fspath(summary_dir))
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        os.makedirs(self._ckpt_dir, exist_ok=True)

    def clean_ckpt(self) -> None:
        """Delete the checkpoints (``summary_dir/ckpt_dir``)."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def gen_landscapes_with_multi_process(self, callback_fn, collect_landscape=None,
                                          device_ids=None, output=None) -> None:
        """Compute the landscapes and write them (``collect_landscape`` overrides the
        collected settings and is saved into ``train_metadata.json``)."""
        owner = "SummaryLandscape.gen_landscapes_with_multi_process"
        device_ids = [0] if device_ids is None else device_ids
        _type("device_ids", device_ids, (list,), owner)
        for i in device_ids:
            _type("each device id", i, (int,), owner)
            if not 0 <= i <= 7:
                raise SummaryError("device id out of range", op=owner,
                                   expected="between 0 and 7", got=i)
        data = self._metadata(owner)
        if collect_landscape is not None:
            check_collect_landscape(collect_landscape, owner)
            for key, value in collect_landscape.items():
                if key == "intervals":
                    data["epoch_group"] = {str(i): list(v) for i, v in enumerate(value)}
                else:
                    data[key] = value
            with open(self._metadata_path, "w", encoding="utf-8") as file:
                json.dump(data, file)
            data = self._metadata(owner)
        output = self._summary_dir if output is None else os.path.realpath(output)
        with SummaryRecord(output) as record:
            for interval, landscape in self._landscapes(callback_fn, data):
                record.add_value("landscape", f"landscape_{interval}", landscape)
                record.record(0)
            record.flush()

    @property
    def _metadata_path(self) -> str:
        return os.path.join(self._ckpt_dir, "train_metadata.json")

    def _metadata(self, owner: str) -> dict:
        if not os.path.exists(self._metadata_path):
            raise FileNotFoundError(f"{owner}: {self._metadata_path} does not exist; collect "
                                    "with SummaryCollector(collect_specified_data="
                                    "{'collect_landscape': {...}}) first")
        with open(self._metadata_path, encoding="utf-8") as file:
            data = json.load(file)
        for epochs in data["epoch_group"].values():
            missing = [n for n in epochs if str(n) not in data["model_params_file_map"]]
            if len(epochs) < 3 or missing:
                raise SummaryError("an interval lacks checkpoints", op=owner,
                                   expected="at least 3 collected checkpoints per interval",
                                   got=f"{epochs} (missing {missing})")
        return data

    def _checkpoints(self, data: dict, numbers) -> list[dict]:
        from sporeling.expression.serialization import load_checkpoint
        return [{k: np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v)
                 for k, v in load_checkpoint(data["model_params_file_map"][str(n)]).items()}
                for n in numbers]

    def _landscapes(self, callback_fn, data: dict):
        size, groups = data["landscape_size"], list(data["epoch_group"].values())
        meta = {"unit": data["unit"], "step_per_epoch": data["step_per_epoch"]}
        if data["create_landscape"]["train"]:
            for epochs in groups:
                checkpoints = self._checkpoints(data, epochs)
                v, w, coefs = pca_plane(checkpoints)
                x_axis, y_axis = grid_axes(coefs, size)
                loss = _LossAt(callback_fn, checkpoints[-1], v, w, data["num_samples"])
                path = np.array([loss(a, b) for a, b in coefs])
                zero = int(np.argwhere(coefs[:, 0] == 0)[0][0])
                yield [epochs[0], epochs[-1]], _landscape(
                    x_axis, y_axis, loss, path_x=coefs[:, 0], path_y=coefs[:, 1], path_z=path,
                    convergence=[0.0, 0.0, path[zero]], intervals=epochs,
                    decomposition="PCA", **meta)
        if data["create_landscape"]["result"]:
            final_epochs = [groups[-1][-1]]
            final = self._checkpoints(data, final_epochs)[0]
            v, w = random_plane(final)
            axis = np.linspace(-_PROZ * 5, _PROZ * 5, size)
            loss = _LossAt(callback_fn, final, v, w, data["num_samples"])
            mid = size // 2
            landscape = _landscape(axis, axis, loss, intervals=final_epochs,
                                   decomposition="Random", **meta)
            landscape["convergence"] = np.array([axis[mid], axis[mid],
                                                 landscape["z"][mid][mid]])
            yield final_epochs, landscape


def _landscape(x_axis, y_axis, loss, decomposition: str, unit: str, step_per_epoch,
               **fields) -> dict:
    x, y = np.meshgrid(x_axis, y_axis)
    z = np.array([[loss(a, row[0]) for a in xs] for xs, row in zip(x, y)])
    out = {"x": x, "y": y, "z": z, **{k: np.asarray(v, np.float64) for k, v in fields.items()}}
    out["metadata"] = {"decomposition": decomposition, "unit": unit,
                       "step_per_epoch": step_per_epoch}
    return out


class _LossAt:
    """The loss with the parameters ``final + alpha v + beta w`` (2.10's ``_cont_loss``):
    ``metrics["Loss"]`` over the first ``num_samples // batch_size`` batches (of a dataset
    with ``get_batch_size``/``take``, or a list of batches), through
    ``model.train_network`` (or the network with the model's loss)."""

    def __init__(self, callback_fn, final: dict, v: list, w: list, num_samples: int):
        model, self.network, dataset, self.metrics = callback_fn()
        self.final, self.v, self.w = final, v, w
        if isinstance(dataset, (list, tuple)):  # a list of batches
            from sporeling.expression.train.batches import as_inputs
            batch = len(as_inputs(dataset[0])[0])
            self.dataset = dataset[:max(num_samples // batch, 1)]
        else:
            batch = dataset.get_batch_size()
            self.dataset = dataset.take(max(num_samples // batch, 1))
        self.loss_net = model.train_network
        if self.loss_net is None:
            from sporeling.expression.nn import WithLossCell
            self.loss_net = WithLossCell(self.network, model._loss_fn)

    def __call__(self, alpha: float, beta: float) -> float:
        from sporeling.expression import Parameter
        from sporeling.expression.serialization import load_param_into_net
        from sporeling.expression.train.batches import as_inputs
        moved = {name: Parameter((value + alpha * v + beta * w).astype(np.float32), name=name)
                 for (name, value), v, w in zip(self.final.items(), self.v, self.w)}
        load_param_into_net(self.network, moved)
        metric = self.metrics["Loss"]
        metric.clear()
        self.loss_net.set_train(True)
        for batch in self.dataset:
            out = self.loss_net(*as_inputs(batch))
            metric.update(out[0] if isinstance(out, tuple) else out)
        return float(metric.eval())


def read_landscapes(folder) -> dict:
    """``{tag: {field: array, "metadata": dict}}`` of the landscapes written under
    ``folder`` (tags ``landscape_<interval>``)."""
    from .events_reader import event_files, read_events
    found: dict = {}
    for path in event_files(folder):
        for event in read_events(path):
            for value in event.summary.value:
                if value.metadata.plugin_data.plugin_name != "loss_landscape":
                    continue
                tag, field = value.tag.rsplit("/", 1)
                t = value.tensor
                shape = tuple(d.size for d in t.tensor_shape.dim)
                entry = found.setdefault(tag, {})
                entry[field] = np.array(t.double_val, np.float64).reshape(shape)
                entry["metadata"] = json.loads(value.metadata.plugin_data.content)
    return found
