"""Gradient checks of the shape primitives (concat ... pad)."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(1)
r = rng.standard_normal

CASES = {
    "concat": [(lambda a, b: ops.concat([a, b, a], axis=1), [r((2, 3)), r((2, 1))]),
               (lambda a, b: ops.stack([a, b], axis=-1), [r((2, 3)), r((2, 3))])],
    "split": [(lambda a: ops.split(a, [1, 3], axis=1), [r((2, 4))]),
              (lambda a: ops.split(a, 2)[1], [r((4, 3))])],
    "tile": [(lambda a: ops.tile(a, (2, 1, 3)), [r((2, 3))]),
             (lambda a: ops.tile(a, 2), [r((2, 3))])],
    "repeat": [(lambda a: ops.repeat(a, 3, axis=0), [r((2, 3))]),
               (lambda a: ops.repeat(a, 2), [r((2, 3))])],
    "flip": [(lambda a: ops.flip(a, (0, 2)), [r((2, 3, 2))])],
    "roll": [(lambda a: ops.roll(a, (1, -4), (0, 1)), [r((3, 4))]),
             (lambda a: ops.roll(a, 5), [r((3, 4))])],
    "pad": [(lambda a: ops.pad(a, ((1, 2), (0, 3)), value=1.5), [r((2, 4))]),
            (lambda a: ops.pad(a, ((1, 2), (3, 1)), mode="reflect"), [r((3, 4))]),
            (lambda a: ops.pad(a, (0, 2), mode="reflect"), [r((3,))])],
}
