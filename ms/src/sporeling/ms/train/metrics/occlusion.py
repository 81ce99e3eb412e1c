"""``OcclusionSensitivity``: how much a classifier's score for a label drops when each
part of an image is hidden."""
from __future__ import annotations

import numpy as np

from sporeling.expression import Tensor

from ._base import Metric, MetricError, as_array, check_count, check_type, not_updated, \
    rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box, shape: np.ndarray):
    """(first, last) index per image axis of the region analysed (None: all of it)."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"For 'OcclusionSensitivity', 'b_box' needs a min and a max for "
                         f"each of the {len(shape)} image axes, but got {len(b_box)} values.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape) or np.any(low > high):
        raise ValueError(f"For 'OcclusionSensitivity', 'b_box' {b_box} must lie inside the "
                         f"image {tuple(shape)} with each min <= its max.")
    return low, high


class OcclusionSensitivity(Metric):
    """``update(model, x, label)``: ``x`` is one image ``(1, ...)``; for every position of
    the analysed region (all of it, or the ``b_box`` ``[min1, max1, min2, max2, ...]``) the
    cube ``[i - margin, i + margin)`` around it is set to ``pad_val`` and ``model`` is run
    (``n_batch`` images per call). ``eval()``: the score of ``label`` on ``x`` minus the
    score on each occluded image, in the region's shape."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        where = "OcclusionSensitivity"
        self.pad_val = check_type("pad_val", pad_val, (float,), where)
        self.margin = check_type("margin", margin, (int, list), where)
        self.n_batch = check_type("n_batch", n_batch, (int,), where)
        self.b_box = b_box if b_box is None else check_type("b_box", b_box, (list,), where)
        self.clear()

    def clear(self):
        self._baseline, self._sensitivity_im, self._is_update = 0, 0, False

    def _scores(self, model, images: list, label: int) -> np.ndarray:
        out = model(Tensor(np.concatenate(images)))
        out = out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)
        return out[:, label]

    @rearrange_inputs
    def update(self, *inputs):
        """``update(model, x, label)``."""
        check_count(inputs, 3, "OcclusionSensitivity.update", "model, x, label")
        model = inputs[0]
        if not callable(model):
            raise TypeError(f"For 'OcclusionSensitivity.update', the model (input[0]) must be "
                            f"a Cell, but got {type(model).__name__}.")
        x = as_array(inputs[1], "OcclusionSensitivity")
        label = inputs[2] if isinstance(inputs[2], int) else as_array(inputs[2],
                                                                      "OcclusionSensitivity")
        if x.shape[0] != 1:
            raise MetricError("one image at a time", op="OcclusionSensitivity.update",
                              expected="x of shape (1, ...)", got=x.shape)
        if not isinstance(label, int):
            if label.size != 1:
                raise MetricError("one label for the image", op="OcclusionSensitivity.update",
                                  expected=1, got=label.size)
            label = int(label.reshape(-1)[0])
        shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        region = shape if low is None else high - low + 1
        margins = np.broadcast_to(np.asarray(self.margin), shape.shape)
        self._baseline = float(self._scores(model, [x], label)[0])
        scores, batch = [], []
        count = int(np.prod(region))
        for i in range(count):
            centre = np.array(np.unravel_index(i, tuple(region)))
            if low is not None:
                centre = centre + low
            start = np.maximum(0, centre - margins)
            stop = np.minimum(shape, centre + margins)
            occluded = x.copy()
            occluded[(...,) + tuple(slice(a, b) for a, b in zip(start, stop))] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == count - 1:
                scores.append(self._scores(model, batch, label))
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(region))
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise not_updated("OcclusionSensitivity")
        return self._baseline - np.squeeze(self._sensitivity_im)
