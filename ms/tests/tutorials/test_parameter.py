"""Tutorial "Network Parameters" (docs r1.9, tutorials/source_en/advanced/modules/
parameter.md; in 2.x folded into "Cell and Parameter"): its code with only the import renamed:
dtype conversions, ``Parameter`` creation, ``clone``, ``set_data`` (``slice_shape``),
``init_data``, ``nn.ParameterUpdate``, ``ParameterTuple.clone`` and ``weight_init`` forms."""
import numpy as np

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms.common.initializer import initializer as init

from ._tutorial import check


def parameter_program():
    out = {}
    np_type = ms.dtype_to_nptype(ms.int32)
    ms_type = ms.pytype_to_dtype(int)
    py_type = ms.dtype_to_pytype(ms.float64)
    out["types"] = [np_type.__name__, str(ms_type), py_type.__name__]

    x = ms.Parameter(default_input=2.0, name='x')
    y = ms.Parameter(default_input=5.0, name='y')
    z = ms.Parameter(default_input=5, name='z', requires_grad=False)
    out["scalars"] = [(p.name, p.asnumpy(), p.requires_grad) for p in (x, y, z)]

    my_tensor = ms.Tensor(np.arange(2 * 3).reshape((2, 3)))
    x = ms.Parameter(default_input=my_tensor, name="tensor")
    out["from_tensor"] = x
    x = ms.Parameter(default_input=init('ones', [1, 2, 3], ms.float32), name='x')
    out["from_init"] = x.asnumpy()
    x = ms.Parameter(default_input=my_tensor, name="x")
    out["data"] = x.data.asnumpy()

    x = ms.Parameter(default_input=init('ones', [1, 2, 3], ms.float32))
    x_clone = x.clone()
    x_clone.name = "x_clone"
    out["clone"] = (x_clone.name, x_clone.asnumpy())

    x = ms.Parameter(ms.Tensor(np.ones((1, 2)), ms.float32), name="x", requires_grad=True)
    y = x.set_data(ms.Tensor(np.zeros((1, 2)), ms.float32))
    out["set_data"] = (y is x, y.asnumpy())
    z = x.set_data(ms.Tensor(np.ones((1, 4)), ms.float32), slice_shape=True)
    out["set_data_slice_shape"] = z.asnumpy()

    x = ms.Parameter(ms.Tensor(np.ones((1, 2)), ms.float32), name="x", requires_grad=True)
    out["init_data"] = x.init_data().asnumpy()

    network = nn.Dense(3, 4)
    param = network.parameters_dict()['weight']
    update = nn.ParameterUpdate(param)
    weight = ms.Tensor(np.arange(12).reshape((4, 3)), ms.float32)
    output = update(weight)
    out["parameter_update"] = (output, network.weight.asnumpy())

    from sporeling.ms.common.initializer import initializer
    x = ms.Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
    y = ms.Parameter(default_input=initializer('ones', [1, 2, 3], ms.float32), name='y')
    z = ms.Parameter(default_input=2.0, name='z')
    params = ms.ParameterTuple((x, y, z))
    params_copy = params.clone("params_copy")
    out["tuple_clone"] = [p.name for p in params_copy]

    from sporeling.ms.common import initializer as init_module
    ms.set_seed(1)
    input_data = ms.Tensor(np.ones([1, 3, 16, 50], dtype=np.float32))
    net = nn.Conv2d(3, 64, 3, weight_init=init_module.Normal(0.2))
    out["normal_shape"] = net(input_data).shape
    net = nn.Conv2d(3, 64, 3, weight_init='Normal')
    out["normal_str_shape"] = net(input_data).shape
    init_data = ms.Tensor(np.ones([64, 3, 3, 3]), dtype=ms.float32)
    net = nn.Conv2d(3, 64, 3, weight_init=init_data)
    out["tensor_init"] = net(input_data)
    return out


def test_parameter():
    check("test_parameter", "parameter_program", parameter_program())
