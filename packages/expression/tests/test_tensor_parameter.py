"""Parameter and ParameterTuple."""
import copy
import pickle

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError
from sporeling.runtime import get_default_pool


def test_parameter_is_a_tensor_in_persistent_memory():
    p = sx.Parameter(np.ones((4, 4), np.float32), name="w")
    assert isinstance(p, sx.Tensor) and p.name == "w" and p.requires_grad
    assert (p * 2.0).sum().item() == 32.0
    pool = get_default_pool()
    before = pool.stats().regions["persistent"].in_use
    q = sx.Parameter(np.ones((64, 64), np.float32))
    assert pool.stats().regions["persistent"].in_use >= before + 64 * 64 * 4
    assert q.name == "Parameter"
    assert repr(p) == "Parameter(name=w, shape=[4, 4], dtype=Float32, requires_grad=True)"


def test_set_data_keeps_identity_and_uses_persistent_memory():
    p = sx.Parameter(sx.Tensor([1.0, 2.0]), name="b", requires_grad=False)
    ident, old = id(p), p.asnumpy()
    assert p.set_data(sx.Tensor([5.0, 6.0])) is p
    assert id(p) == ident and p.tolist() == [5.0, 6.0] and p.asnumpy() is not old
    p.set_data(np.array([7.0, 8.0], np.float32))
    assert p.tolist() == [7.0, 8.0]
    with pytest.raises(SporelingError, match="different shape"):
        p.set_data(sx.Tensor([1.0, 2.0, 3.0]))
    p.set_data(sx.Tensor([1.0, 2.0, 3.0]), slice_shape=True)
    assert p.shape == (3,) and not p.requires_grad
    pool = get_default_pool()
    before = pool.stats().regions["persistent"].in_use
    p.set_data(np.zeros(4096, np.float32), slice_shape=True)
    assert pool.stats().regions["persistent"].in_use >= before + 4096 * 4 - 64


def test_clone_copy_pickle():
    p = sx.Parameter(sx.Tensor([1.0, 2.0]), name="w")
    c = p.clone("adam_m")
    assert c.name == "adam_m.w" and c.tolist() == [1.0, 2.0] and c.asnumpy() is not p.asnumpy()
    assert p.clone(init="zeros").tolist() == [0.0, 0.0] and p.clone().name == "w"
    with pytest.raises(SporelingError, match="unknown init"):
        p.clone(init="ones")
    for q in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert isinstance(q, sx.Parameter) and q.name == "w" and q.tolist() == [1.0, 2.0]
        assert q is not p


def test_parameter_tuple():
    a, b = sx.Parameter(1.0, name="a"), sx.Parameter(2.0, name="b")
    ps = sx.ParameterTuple([a, b])
    assert isinstance(ps, tuple) and ps[0] is a
    clones = ps.clone("m", init="zeros")
    assert isinstance(clones, sx.ParameterTuple) and [p.name for p in clones] == ["m.a", "m.b"]
    with pytest.raises(SporelingError, match="Parameters only"):
        sx.ParameterTuple([a, sx.Tensor(1.0)])
