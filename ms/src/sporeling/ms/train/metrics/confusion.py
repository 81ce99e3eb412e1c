"""``ConfusionMatrixMetric``: sensitivity, specificity, precision, ... from true/false
positive/negative counts of binarised one-hot predictions ``(N, C, ...)``."""
from __future__ import annotations

import numpy as np

from ._base import Metric, MetricError, as_array, check_choice, check_count, check_type, \
    rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

# every name (and alias) MindSpore takes, lower case with "_" for spaces -> its short name
_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_SHORT = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _short_name(metric_name: str) -> str:
    short = _SHORT.get(metric_name.replace(" ", "_").lower())
    if short is None:
        raise ValueError(f"For 'ConfusionMatrixMetric', unknown 'metric_name' "
                         f"{metric_name!r}; expected one of {sorted(_SHORT)}.")
    return short


def _safe_ratio(num, den):
    num, den = np.asarray(num, np.float64), np.broadcast_to(np.asarray(den, np.float64),
                                                           np.shape(num))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1), np.nan)


def _fraction(short: str, tp, fp, tn, fn):
    """The metric as (numerator, denominator) of the counts (arrays of one shape)."""
    p, n = tp + fn, fp + tn
    tpr, tnr = _safe_ratio(tp, p), _safe_ratio(tn, n)
    ppv, npv = _safe_ratio(tp, tp + fp), _safe_ratio(tn, tn + fn)
    return {
        "tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn),
        "fnr": (fn, p), "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
        "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
        "ts": (tp, tp + fn + fp), "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0),
        "f1": (2.0 * tp, 2.0 * tp + fn + fp),
        "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
        "fm": (np.sqrt(ppv * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0),
        "mk": (ppv + npv - 1.0, 1.0),
    }[short]


def _metric(short: str, counts: np.ndarray) -> np.ndarray:
    """The metric of counts ``(..., 4)`` = (tp, fp, tn, fn); NaN where undefined."""
    counts = np.atleast_2d(counts)
    num, den = _fraction(short, *np.moveaxis(counts, -1, 0))
    return _safe_ratio(num, den)


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """(tp, fp, tn, fn) per sample and class: ``(N, C, 4)``."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError("For 'ConfusionMatrixMetric.update', y (input[1]) must be binarised "
                         "(0 or 1).")
    if y_pred.ndim < 2:
        raise MetricError("y_pred must have a class axis", op="ConfusionMatrixMetric.update",
                          expected="(N, C, ...)", got=y_pred.shape)
    if not skip_channel:  # MindSpore 2.10 drops the first channel when skip_channel is False
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise MetricError("y_pred and y must have the same shape",
                          op="ConfusionMatrixMetric.update", expected=y_pred.shape, got=y.shape)
    batch, classes = y_pred.shape[:2]
    y_pred = y_pred.reshape(batch, classes, -1).astype(np.float64)
    y = y.reshape(batch, classes, -1).astype(np.float64)
    tp = ((y_pred + y) == 2).sum(axis=2).astype(np.float64)
    tn = ((y_pred + y) == 0).sum(axis=2).astype(np.float64)
    positives = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - positives - tn, tn, positives - tp], axis=-1)


def _reduce_scores(scores: np.ndarray, decrease: str):
    """Per-sample-and-class scores ``(N, C)`` (NaN: undefined) reduced as ``decrease`` says:
    (the reduced scores, how many defined values went into them)."""
    defined = ~np.isnan(scores)
    scores = np.where(defined, scores, 0.0)
    defined = defined.astype(np.float64)

    def mean(total, count):
        return np.where(count > 0, total / np.where(count > 0, count, 1), 0.0)

    if decrease == "mean":
        per_sample = mean(scores.sum(axis=1), defined.sum(axis=1))
        samples = (defined.sum(axis=1) > 0).astype(np.float64).sum(axis=0)
        return mean(per_sample.sum(axis=0), samples), samples
    if decrease == "sum":
        return scores.sum(axis=(0, 1)), defined.sum(axis=(0, 1))
    raise ValueError(f"For 'ConfusionMatrixMetric', calculation_method=True reduces each "
                     f"batch to one number: 'decrease' must be 'mean' or 'sum', but got "
                     f"{decrease!r}.")


class ConfusionMatrixMetric(Metric):
    """``metric_name`` (``"sensitivity"``, ``"precision"``, ``"f1 score"``, ``"mcc"``, ... or
    their short names ``"tpr"``, ``"ppv"``, ...) of binarised one-hot ``y_pred`` against
    one-hot ``y``, both ``(N, C, ...)``.

    ``calculation_method=False`` (classification): counts are summed over every update and
    ``eval()`` gives the metric of the totals (a 1-element array). ``True``: each batch's
    per-sample, per-class scores are reduced by ``decrease`` (``"mean"`` or ``"sum"``) and
    ``eval()`` averages those over the defined scores.
    """

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False,
                 decrease="mean"):
        super().__init__()
        where = "ConfusionMatrixMetric"
        self.skip_channel = check_type("skip_channel", skip_channel, (bool,), where)
        self.metric_name = check_type("metric_name", metric_name, (str,), where)
        self._short = _short_name(metric_name)
        self.calculation_method = check_type("calculation_method", calculation_method,
                                             (bool,), where)
        self.decrease = check_choice("decrease", decrease, _DECREASES, where)
        self.clear()

    def clear(self):
        self._total_num, self._class_num = 0.0, 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y)``: binarised one-hot arrays ``(N, C, ...)``."""
        check_count(inputs, 2, "ConfusionMatrixMetric.update", "y_pred, y")
        y_pred = as_array(inputs[0], "ConfusionMatrixMetric")
        y = as_array(inputs[1], "ConfusionMatrixMetric")
        counts = _counts(y_pred, y, self.skip_channel)
        per_sample = y_pred.ndim > 2 and not (y_pred.ndim == 3 and y_pred.shape[-1] == 1)
        if self.calculation_method and per_sample:
            score, defined = _reduce_scores(_metric(self._short, counts), self.decrease)
            self._total_num += float(score) * int(defined)
            self._class_num += int(defined)
        else:
            self._totals += counts.reshape(-1, 4).sum(axis=0)

    def eval(self):
        if self.calculation_method and self._class_num:
            return self._total_num / self._class_num
        if self.calculation_method and not self._totals.any():
            raise RuntimeError("ConfusionMatrixMetric: no samples were seen (call update() "
                               "before eval())")
        return _metric(self._short, self._totals)
