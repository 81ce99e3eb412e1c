"""Samplers MindSpore has beyond sporeling.data's: ``PKSampler`` and chained samplers
(``add_sampler``)."""
from __future__ import annotations

import numpy as np

from sporeling.data import DataError, Sampler
from sporeling.data.randomness import draw_seed, keyed_rng

__all__ = ["PKSampler", "chain", "attach_labels"]


class _Chained(Sampler):
    """``parent`` samples among the indices ``child`` picks."""

    def __init__(self, parent, child):
        super().__init__(None)
        self.parent, self.child = parent, child

    def indices(self, n, epoch):
        picked = np.asarray(self.child.indices(n, epoch))
        return picked[np.asarray(self.parent.indices(len(picked), epoch), dtype=np.int64)]

    def __getattr__(self, name):
        if name in ("parent", "child"):
            raise AttributeError(name)
        return getattr(self.parent, name)


def chain(parent, child) -> Sampler:
    if not isinstance(child, Sampler):
        raise DataError("bad sampler", op="add_sampler", expected="a Sampler",
                        got=type(child).__name__)
    return _Chained(parent, child)


class PKSampler(Sampler):
    """``num_val`` samples of each class, classes in order (or shuffled with ``shuffle``),
    for metric learning. The labels come from the source's ``class_column`` (read once).
    A class with fewer samples repeats them."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        if not isinstance(num_val, int) or num_val < 1:
            raise DataError("bad num_val", op="PKSampler", expected="an int >= 1", got=num_val)
        if num_class is not None:
            raise DataError("num_class is not supported", op="PKSampler",
                            expected="None (as MindSpore requires)", got=num_class)
        self.num_val, self.shuffle, self.class_column = num_val, bool(shuffle), class_column
        self.seed = draw_seed(None)
        self.labels = None   # set by the source when it is attached (see sources.attach)

    def indices(self, n, epoch):
        if self.labels is None:
            raise DataError("PKSampler has no labels", op="PKSampler",
                            expected=f"a source with a {self.class_column!r} column")
        labels = np.asarray(self.labels)[:n]
        classes = np.unique(labels)
        rng = keyed_rng(self.seed, epoch)
        if self.shuffle:
            classes = rng.permutation(classes)
        out = []
        for c in classes:
            members = np.flatnonzero(labels == c)
            if self.shuffle:
                members = rng.permutation(members)
            out.extend(np.resize(members, self.num_val).tolist())
        return self._cap(np.asarray(out, np.int64))

    def num_samples(self, n):
        return len(self.indices(n, 0))


def attach_labels(sampler, names, read_row, n, default_column="label"):
    """Give a ``PKSampler`` the labels of a source: ``read_row(i)`` for i < n, the column
    named by the sampler's ``class_column`` (or ``default_column``)."""
    if not isinstance(sampler, PKSampler):
        return
    column = sampler.class_column if sampler.class_column in names else default_column
    if column not in names:
        raise DataError("no label column", op="PKSampler", expected=f"a column {column!r}",
                        got=names)
    k = names.index(column)
    sampler.labels = [int(np.asarray(read_row(i)[k]).reshape(-1)[0]) for i in range(n)]
