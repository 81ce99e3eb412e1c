"""Gradient checks of the indexing primitives: repeated indices must accumulate."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(2)
r = rng.standard_normal
x34 = r((3, 4))

CASES = {
    "slice": [(lambda a: ops.strided_slice(a, [2, 3], [None, 0], [-1, -2]), [r((3, 4))]),
              (lambda a: ops.slice(a, (1, 0), (2, -1)), [r((3, 4))])],
    "getitem": [
        (lambda a: ops.getitem(a, (1, slice(None, None, -2))), [r((3, 4))]),
        (lambda a: ops.getitem(a, (np.array([2, 0, 2]), None, Ellipsis)), [r((3, 4))]),
        (lambda a: ops.getitem(a, x34 > 0), [x34]),
        (lambda a: ops.getitem(a, (slice(1, None), [0, 0, 3])), [r((3, 4))])],
    "add_at": [(lambda a, u: ops.add_at(a, np.array([0, 2, 0]), u), [r((3, 4)), r((3, 4))]),
               (lambda a, u: ops.add_at(a, (Ellipsis, 1), u), [r((3, 4)), r((1,))])],
    "gather": [(lambda a: ops.gather(a, np.array([[1, 1], [0, -1]]), axis=1), [r((3, 4))])],
    "take_along_axis": [(lambda a: ops.take_along_axis(a, np.array([[1, 1, 2, 0]] * 3), 1),
                         [r((3, 4))])],
    "scatter_add": [(lambda a, u: ops.scatter_add(a, np.array([[1, 1], [0, 2]]), u, 0),
                     [r((3, 2)), r((2, 2))])],
}
