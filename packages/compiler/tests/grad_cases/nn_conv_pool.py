import numpy as np

from sporeling.compiler import bind, ops
from sporeling.compiler.ops.nn import conv, pooling

rng = np.random.default_rng(1)
r = rng.standard_normal

P = dict(stride=(2, 1), padding=((1, 0), (0, 1)), dilation=(1, 2), groups=2)
WIN = dict(kernel_size=(2, 2), stride=(2, 1), padding=((1, 1), (0, 0)), dilation=(1, 1))
_, INDEX = bind(pooling.max_pool2d_p, r((1, 2, 3, 4)), **WIN)   # argmax of a (1, 2, 3, 4) input
AVG = dict(kernel_size=(2, 3), stride=(1, 2), padding=((1, 1), (0, 0)))

CASES = {
    "conv2d": [
        (lambda x, w: ops.conv2d(x, w, stride=2, padding=1), [r((1, 2, 5, 4)), r((3, 2, 3, 2))]),
        (lambda x, w, b: ops.conv2d(x, w, b, padding="same", dilation=(2, 1), groups=2),
         [r((2, 4, 4, 3)), r((2, 2, 2, 3)), r((2,))]),
        (lambda x, w: ops.conv1d(x, w, stride=2, padding=1), [r((2, 2, 6)), r((3, 2, 3))]),
    ],
    "conv_transpose2d": [
        (lambda y, w: ops.conv_transpose2d(y, w, stride=2, padding=1, output_padding=1),
         [r((1, 2, 3, 2)), r((2, 3, 3, 2))]),
        (lambda y, w, b: ops.conv_transpose2d(y, w, b, stride=(1, 2), groups=2, dilation=2),
         [r((1, 4, 2, 2)), r((4, 1, 2, 2)), r((2,))]),
    ],
    "conv2d_weight_grad": [
        (lambda x, g: bind(conv.conv2d_weight_grad_p, x, g, kernel_size=(2, 3), **P),
         [r((2, 4, 4, 4)), r((2, 2, 2, 1))]),
    ],
    "max_pool2d": [
        (lambda x: ops.max_pool2d(x, 2), [r((2, 2, 4, 4))]),
        (lambda x: ops.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2)),
         [r((1, 2, 5, 5))]),
    ],
    "max_pool2d_scatter": [
        (lambda g: bind(pooling.max_pool2d_scatter_p, g, INDEX, input_size=(3, 4), **WIN),
         [r(INDEX.shape)]),
    ],
    "max_pool2d_gather": [
        (lambda v: bind(pooling.max_pool2d_gather_p, v, INDEX, input_size=(3, 4), **WIN),
         [r((1, 2, 3, 4))]),
    ],
    "avg_pool2d": [
        (lambda x: ops.avg_pool2d(x, 2), [r((2, 2, 4, 4))]),
        (lambda x: ops.avg_pool2d(x, (2, 3), stride=(1, 2), padding=1,
                                  count_include_pad=False), [r((1, 2, 4, 5))]),
    ],
    "avg_pool2d_transpose": [
        (lambda g: bind(pooling.avg_pool2d_transpose_p, g, input_size=(4, 5),
                        count_include_pad=False, **AVG), [r((1, 2, 5, 2))]),
    ],
    "adaptive_avg_pool2d": [(lambda x: ops.adaptive_avg_pool2d(x, (2, 3)), [r((1, 2, 5, 4))])],
}
