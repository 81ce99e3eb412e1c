import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.quant import fake_quant

rng = np.random.default_rng(11)

# The straight-through gradient is the staircase's slope seen at a resolution far coarser
# than one step: a grid of 1e-4 probed with eps = 1e-2 (each difference is off by at most
# one step, 1% of the slope). Values stay >= 0.5 away from the clip limits (+-3.2768), and
# the second case has saturated entries, whose gradient is 0.
GRID = dict(scale=1e-4, zero_point=0, qmin=-32768, qmax=32767)
COARSE = dict(eps=1e-2, rtol=3e-2, atol=1e-2)
SATURATED = np.array([-5.0, -1.5, 0.3, 2.0, 4.5, 6.0])

CASES = {
    "fake_quant": [
        (lambda x: fake_quant(x, **GRID), [rng.uniform(-2.5, 2.5, (3, 4))], COARSE),
        (lambda x: ops.mul(fake_quant(x, **GRID), x), [SATURATED], COARSE),
    ],
}
