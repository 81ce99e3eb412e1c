"""Tutorial "Tensor" (docs r2.3.1, tutorials/source_en/beginner/tensor.md), its code with only
the import renamed; outputs compared with MindSpore 2.10's."""
import numpy as np

import sporeling.ms as mindspore
from sporeling.ms import ops
from sporeling.ms import Tensor, CSRTensor, COOTensor

from ._tutorial import check


def tensor_program():
    out = {}
    data = [1, 0, 1, 0]
    x_data = Tensor(data)
    out["x_data"] = x_data
    np_array = np.array(data)
    x_np = Tensor(np_array)
    out["x_np"] = x_np

    from sporeling.ms.common.initializer import One, Normal
    tensor1 = mindspore.Tensor(shape=(2, 2), dtype=mindspore.float32, init=One())
    tensor2 = mindspore.Tensor(shape=(2, 2), dtype=mindspore.float32, init=Normal())
    out["tensor1"] = tensor1
    out["tensor2_shape"] = tensor2.shape

    x_ones = ops.ones_like(x_data)
    x_zeros = ops.zeros_like(x_data)
    out["x_ones"], out["x_zeros"] = x_ones, x_zeros

    x = Tensor(np.array([[1, 2], [3, 4]]), mindspore.int32)
    out["attributes"] = [x.shape, x.itemsize, x.nbytes, x.ndim, x.size, x.strides]

    tensor = Tensor(np.array([[0, 1], [2, 3]]).astype(np.float32))
    out["indexing"] = (tensor[0], tensor[1, 1], tensor[:, -1], tensor[..., 0])

    x = Tensor(np.array([1, 2, 3]), mindspore.float32)
    y = Tensor(np.array([4, 5, 6]), mindspore.float32)
    out["arith"] = (x + y, x - y, x * y, y / x, y % x, y // x)

    data1 = Tensor(np.array([[0, 1], [2, 3]]).astype(np.float32))
    data2 = Tensor(np.array([[4, 5], [6, 7]]).astype(np.float32))
    out["concat"] = ops.concat((data1, data2), axis=0)
    out["stack"] = ops.stack([data1, data2])

    t = Tensor([1., 1., 1., 1., 1.])
    n = t.asnumpy()
    out["n"] = n
    n = np.ones(5)
    t = Tensor.from_numpy(n)
    np.add(n, 1, out=n)
    out["t_shares_n"] = t

    indptr = Tensor([0, 1, 2])
    indices = Tensor([0, 1])
    values = Tensor([1, 2], dtype=mindspore.float32)
    shape = (2, 4)
    csr_tensor = CSRTensor(indptr, indices, values, shape)
    out["csr_float64"] = csr_tensor.astype(mindspore.float64).values

    indices = Tensor([[0, 1], [1, 2]], dtype=mindspore.int32)
    values = Tensor([1, 2], dtype=mindspore.float32)
    shape = (3, 4)
    coo_tensor = COOTensor(indices, values, shape)
    out["coo"] = (coo_tensor.values, coo_tensor.indices, coo_tensor.shape,
                  coo_tensor.astype(mindspore.float64).values)
    return out


def test_tensor():
    check("test_tensor", "tensor_program", tensor_program())
