"""Tutorial "Parameter Initialization" (docs r2.3.1, tutorials/source_en/advanced/modules/
initializer.md): its code with only the import renamed. Random draws differ between the
frameworks, so those compare by shape and spread; the tutorial's custom ``Initializer`` draws
from NumPy (seeded here) and must give MindSpore's convolution output."""
import math

import numpy as np

import sporeling.ms.nn as nn
import sporeling.ms as ms
from sporeling.ms.common.initializer import Normal, initializer
from sporeling.ms.common.initializer import Initializer

from ._tutorial import check


def _calculate_fan_in_and_fan_out(arr):
    shape = arr.shape
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for arr with fewer than"
                         " 2 dimensions, but got dimensions {}.".format(dimensions))
    if dimensions == 2:  # Linear
        fan_in = shape[1]
        fan_out = shape[0]
    else:
        num_input_fmaps = shape[1]
        num_output_fmaps = shape[0]
        receptive_field_size = 1
        for i in range(2, dimensions):
            receptive_field_size *= shape[i]
        fan_in = num_input_fmaps * receptive_field_size
        fan_out = num_output_fmaps * receptive_field_size
    return fan_in, fan_out


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__()
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr)

        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        data = np.random.normal(0, std, arr.shape)

        arr[:] = data[:]


def initializer_program():
    out = {}
    input_data = ms.Tensor(np.ones([1, 3, 16, 50], dtype=np.float32))
    net = nn.Conv2d(3, 64, 3, weight_init=Normal(0.2))
    output = net(input_data)
    out["normal_shape"] = output.shape
    out["normal_std"] = round(float(net.weight.asnumpy().std()), 1)

    net = nn.Conv2d(3, 64, 3, weight_init='normal')
    output = net(input_data)
    out["normal_str_shape"] = output.shape
    out["normal_str_std"] = round(float(net.weight.asnumpy().std()), 2)

    np.random.seed(0)
    net = nn.Conv2d(3, 64, 3, weight_init=XavierNormal())
    output = net(input_data)
    out["xavier"] = output

    for name, param in net.parameters_and_names():
        if 'weight' in name:
            param.set_data(initializer(Normal(), param.shape, param.dtype))
        if 'bias' in name:
            param.set_data(initializer('zeros', param.shape, param.dtype))
    out["reinit"] = [(p.shape, p.dtype == ms.float32) for p in net.get_parameters()]
    return out


def test_initializer():
    check("test_initializer", "initializer_program", initializer_program(), rtol=1e-4)
